// One sample, two protocol eras, one real client: the Inspector CLI negotiates the 2025 era
// (legacy: initialize + session) or the stateless 2026-07-28 era (modern) against the same stdio
// command and the same HTTP endpoint. Both must see identical content, structuredContent,
// isError and mcpfusion/* _meta for the same call.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startHttpSample } from "./sample-server.mjs";

const jar = resolve(process.env.SAMPLE_JAR ?? "../samples/billing/target/fusion-sample-billing.jar");
const catalog = join(mkdtempSync(join(tmpdir(), "inspector-")), "mcp.json");
let server;
let endpoint;

before(async () => {
  ({ server, endpoint } = await startHttpSample(jar));
});

after(() => server?.kill("SIGTERM"));

function run(target, era, ...args) {
  let out;
  try {
    out = execFileSync(process.execPath,
        [resolve("node_modules/.bin/mcp-inspector"), "--cli", ...target, "--protocol-era", era, ...args],
        { env: { ...process.env, MCP_CATALOG_PATH: catalog }, encoding: "utf8", timeout: 90_000,
          stdio: ["ignore", "pipe", "ignore"] });
  } catch (e) {
    if (!e.stdout || e.signal) throw e;
    out = e.stdout;
  }
  return JSON.parse(out);
}

// What an agent and a programmatic client read; the SDK adds io.modelcontextprotocol/* keys of
// its own to modern results, which are not ours to compare.
function comparable(result) {
  const meta = Object.fromEntries(Object.entries(result._meta ?? {}).filter(([k]) => k.startsWith("mcpfusion/")));
  return { content: result.content, structuredContent: result.structuredContent ?? null,
    isError: result.isError ?? false, meta };
}

const calls = {
  "a presenter-backed item": ["--method", "tools/call", "--tool-name", "billing_get_invoice", "--tool-arg", "id=INV-0042"],
  "a NOT_FOUND envelope": ["--method", "tools/call", "--tool-name", "billing_get_invoice", "--tool-arg", "id=INV-9999"],
  "a validation error": ["--method", "tools/call", "--tool-name", "billing_get_invoice", "--tool-arg", "id=abc"],
  "a truncated list": ["--method", "tools/call", "--tool-name", "billing_list_invoices", "--tool-arg", "status=OPEN"],
};

for (const [transport, target] of [["stdio", () => ["java", "-jar", jar]], ["HTTP", () => [endpoint, "--transport", "http"]]]) {
  test(`${transport}: both eras list the same tools`, () => {
    const legacy = run(target(), "legacy", "--method", "tools/list");
    const modern = run(target(), "modern", "--method", "tools/list");
    assert.deepEqual(modern.tools, legacy.tools);
  });
  for (const [what, args] of Object.entries(calls)) {
    test(`${transport}: ${what} is identical in both eras`, () => {
      const legacy = comparable(run(target(), "legacy", ...args));
      const modern = comparable(run(target(), "modern", ...args));
      assert.deepEqual(modern, legacy);
      if (what === "a validation error") {
        assert.match(legacy.content[0].text, /^<validation_error action="billing\/get_invoice">/);
      }
    });
  }
}

for (const [transport, target] of [["stdio", () => ["java", "-jar", jar]], ["HTTP", () => [endpoint, "--transport", "http"]]]) {
  test(`${transport}: a prompt and a resource read the same in both eras`, () => {
    const prompt = ["--method", "prompts/get", "--prompt-name", "overdue_invoices", "--prompt-args", "audience=ops"];
    const legacyPrompt = run(target(), "legacy", ...prompt);
    assert.deepEqual(run(target(), "modern", ...prompt).messages, legacyPrompt.messages);
    assert.equal(legacyPrompt.messages.length, 3);
    const read = ["--method", "resources/read", "--uri", "billing://invoices/INV-0042"];
    const legacyRead = run(target(), "legacy", ...read);
    assert.deepEqual(run(target(), "modern", ...read).contents, legacyRead.contents);
    assert.equal(JSON.parse(legacyRead.contents[0].text).id, "INV-0042");
  });
}
