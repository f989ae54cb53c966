// The official MCP Inspector CLI drives the billing sample over Streamable HTTP: the sample is
// started once with --http 0 (an ephemeral port on 127.0.0.1), and each Inspector invocation is a
// fresh client session against it.
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
  ({ server, endpoint } = await startHttpSample(jar, ["--grouped"]));
});

after(() => server?.kill("SIGTERM"));

function inspect(...args) {
  let out;
  try {
    out = execFileSync(process.execPath,
        [resolve("node_modules/.bin/mcp-inspector"), "--cli", endpoint, "--transport", "http", ...args],
        { env: { ...process.env, MCP_CATALOG_PATH: catalog }, encoding: "utf8", timeout: 60_000,
          stdio: ["ignore", "pipe", "ignore"] });
  } catch (e) {
    if (!e.stdout || e.signal) throw e;
    out = e.stdout;
  }
  return { text: out, json: JSON.parse(out) };
}

test("HTTP GROUPED: tools/list shows one presenter-backed tool and no secret", () => {
  const { text, json } = inspect("--method", "tools/list");
  assert.deepEqual(json.tools.map((t) => t.name), ["billing"]);
  assert.equal(json.tools[0].outputSchema.type, "object");
  assert.ok(!text.includes("webhookSecret"));
});

test("HTTP GROUPED: list, get, not-found and void through the Inspector", () => {
  const list = inspect("--method", "tools/call", "--tool-name", "billing", "--tool-arg", "action=list_invoices");
  assert.equal(list.json.structuredContent.items.length, 50);
  assert.ok(!list.text.includes("whsec_"));

  const get = inspect("--method", "tools/call", "--tool-name", "billing",
      "--tool-arg", "action=get_invoice", "--tool-arg", "id=INV-0042");
  assert.equal(get.json.structuredContent.id, "INV-0042");

  const missing = inspect("--method", "tools/call", "--tool-name", "billing",
      "--tool-arg", "action=get_invoice", "--tool-arg", "id=INV-9999");
  assert.equal(missing.json.isError, true);
  assert.match(missing.json.content[0].text, /^<tool_error code="NOT_FOUND" severity="error">/);
  assert.match(missing.json.content[0].text, /<action>billing \(action: list_invoices\)<\/action>/);

  const voided = inspect("--method", "tools/call", "--tool-name", "billing",
      "--tool-arg", "action=void_invoice", "--tool-arg", "id=INV-0007");
  assert.equal(voided.json.content[0].text,
      "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
});

test("HTTP: prompts, resource templates and resources through the Inspector", () => {
  const prompts = inspect("--method", "prompts/list");
  const overdue = prompts.json.prompts.find((p) => p.name === "overdue_invoices");
  assert.deepEqual(overdue.arguments.map((a) => [a.name, a.required]), [["audience", true], ["tone", false]]);

  const prompt = inspect("--method", "prompts/get", "--prompt-name", "overdue_invoices",
      "--prompt-args", "audience=the finance team");
  assert.equal(prompt.json.messages.length, 3);
  assert.match(prompt.json.messages[1].content.text, /^\[\{"id":"INV-/);
  assert.match(prompt.json.messages[2].content.text, /^<domain_rules>/);
  assert.ok(!prompt.text.includes("whsec_"));

  const templates = inspect("--method", "resources/templates/list");
  assert.deepEqual(templates.json.resourceTemplates.map((t) => t.uriTemplate), ["billing://invoices/{id}"]);

  const resource = inspect("--method", "resources/read", "--uri", "billing://invoices/INV-0042");
  assert.equal(resource.json.contents[0].mimeType, "application/json");
  assert.equal(JSON.parse(resource.json.contents[0].text).id, "INV-0042");
  assert.ok(!resource.text.includes("whsec_"));
});
