// Paging (Page<Invoice> with a cursor) and field selection (_select) as a real client sees them:
// the Inspector CLI, which validates every structuredContent against the tool's outputSchema,
// walks all 1,000 invoices of the billing sample page by page in both protocol eras over HTTP,
// and narrows results with _select over stdio and HTTP.
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
    // The CLI exits non-zero for a tool result with isError: true; its JSON is still on stdout.
    if (!e.stdout || e.signal) throw e;
    out = e.stdout;
  }
  return JSON.parse(out);
}

const http = () => [endpoint, "--transport", "http"];
const stdio = () => ["java", "-jar", jar];
const call = (args) => ["--method", "tools/call", "--tool-name", "billing_list_invoices",
  "--tool-args-json", JSON.stringify(args)];

for (const era of ["legacy", "modern"]) {
  test(`HTTP ${era}: paging visits all 1,000 invoices exactly once`, () => {
    const seen = [];
    let cursor;
    let pages = 0;
    do {
      const r = run(http(), era, ...call(cursor ? { cursor } : {}));
      assert.equal(r.isError ?? false, false, JSON.stringify(r));
      pages++;
      seen.push(...r.structuredContent.items.map((i) => i.id));
      cursor = r.structuredContent.truncated?.next;
      if (cursor) {
        // the same cursor in the summary block and in _meta
        assert.ok(r.content.some((c) => c.text.includes(`"cursor": "${cursor}"`)));
        assert.equal(r._meta["mcpfusion/truncation"].next, cursor);
      } else {
        assert.equal(r._meta?.["mcpfusion/truncation"], undefined);
      }
    } while (cursor && pages < 100);
    assert.equal(pages, 20);
    assert.equal(seen.length, 1000);
    assert.equal(new Set(seen).size, 1000);
  });
}

for (const [transport, target] of [["stdio", stdio], ["HTTP", http]]) {
  test(`${transport}: _select narrows items and the tool list offers it`, () => {
    const tools = run(target(), "legacy", "--method", "tools/list").tools;
    const list = tools.find((t) => t.name === "billing_list_invoices");
    assert.deepEqual(list.inputSchema.properties._select.items.enum, ["id", "totalCents", "status"]);
    assert.equal(list.inputSchema.properties.cursor.type, "string");
    for (const era of ["legacy", "modern"]) {
      const r = run(target(), era, ...call({ status: "OPEN", _select: ["id"] }));
      assert.equal(r.isError ?? false, false, JSON.stringify(r));
      assert.ok(r.structuredContent.items.length > 0);
      for (const item of r.structuredContent.items) assert.deepEqual(Object.keys(item), ["id"]);
      assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent.items);
      assert.ok(r.content.some((c) => c.text.startsWith("<domain_rules>")));
    }
  });

  test(`${transport}: an unknown field and a made-up cursor are validation errors`, () => {
    const select = run(target(), "legacy", "--method", "tools/call", "--tool-name", "billing_get_invoice",
        "--tool-args-json", JSON.stringify({ id: "INV-0042", _select: ["id", "webhookSecret"] }));
    assert.equal(select.isError, true);
    assert.equal(select.content[0].text, "<validation_error action=\"billing/get_invoice\">\n"
        + "<field name=\"_select[1]\">must be one of [id, totalCents, status]. You sent: 'webhookSecret'.</field>\n"
        + "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        + "</validation_error>");
    const cursor = run(target(), "modern", ...call({ cursor: "page-2" }));
    assert.equal(cursor.isError, true);
    assert.match(cursor.content[0].text, /<field name="cursor">is not a cursor this tool gave out\. You sent: 'page-2'\./);
  });
}
