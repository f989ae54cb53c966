// The official MCP Inspector CLI (a TypeScript client that validates schemas) drives the billing
// sample over stdio, started exactly as the README's client configuration starts it. Each invocation starts the sample jar, initializes, makes one request and
// prints the JSON result, which these tests assert on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const jar = resolve(process.env.SAMPLE_JAR ?? "../samples/billing/target/fusion-sample-billing.jar");
const catalog = join(mkdtempSync(join(tmpdir(), "inspector-")), "mcp.json");

function inspect(serverArgs, ...args) {
  let out;
  try {
    out = execFileSync(process.execPath,
        [resolve("node_modules/.bin/mcp-inspector"), "--cli", "java", "-Xlog:all=warning:stderr", "-jar", jar, ...serverArgs, ...args],
        { env: { ...process.env, MCP_CATALOG_PATH: catalog }, encoding: "utf8", timeout: 60_000,
          stdio: ["ignore", "pipe", "ignore"] });
  } catch (e) {
    // The CLI exits non-zero (5) for a tool result with isError: true; its JSON is still on stdout.
    if (!e.stdout || e.signal) throw e;
    out = e.stdout;
  }
  return { text: out, json: JSON.parse(out) };
}

const flat = (...args) => inspect([], ...args);
const grouped = (...args) => inspect(["--grouped"], ...args);

test("the sample jar was built", () => {
  assert.ok(existsSync(jar), `missing ${jar}: run mvn -B verify (or package) first`);
});

test("FLAT: tools/list names the three actions and hides every secret", () => {
  const { text, json } = flat("--method", "tools/list");
  assert.deepEqual(json.tools.map((t) => t.name),
      ["billing_list_invoices", "billing_get_invoice", "billing_void_invoice"]);
  for (const hidden of ["webhookSecret", "internalFlags", "tenantId"]) {
    assert.ok(!text.includes(hidden), `${hidden} in tools/list`);
  }
  const get = json.tools.find((t) => t.name === "billing_get_invoice");
  assert.equal(get.annotations.readOnlyHint, true);
  assert.equal(get.outputSchema.additionalProperties, false);
});

test("FLAT: list_invoices returns a first page of 50 stripped rows with rules and the next cursor", () => {
  const { text, json } = flat("--method", "tools/call", "--tool-name", "billing_list_invoices");
  assert.equal(json.isError ?? false, false);
  assert.equal(json.structuredContent.items.length, 50);
  const next = json.structuredContent.truncated.next;
  assert.deepEqual(json.structuredContent.truncated, { shown: 50, more: true, next });
  const blocks = json.content.map((c) => c.text);
  assert.ok(blocks.some((b) => b.includes("50 shown, more available. For the next page, call"
      + ` billing_list_invoices again with the same arguments and "cursor": "${next}".`)));
  assert.ok(blocks.some((b) => b.startsWith("<domain_rules>")));
  assert.ok(!text.includes("whsec_"), "a webhook secret reached the client");
});

test("FLAT: get_invoice INV-9999 is the NOT_FOUND envelope", () => {
  const { json } = flat("--method", "tools/call", "--tool-name", "billing_get_invoice",
      "--tool-arg", "id=INV-9999");
  assert.equal(json.isError, true);
  assert.equal(json.content.length, 1);
  assert.equal(json.content[0].text,
      "<tool_error code=\"NOT_FOUND\" severity=\"error\">\n"
      + "<message>Invoice \"INV-9999\" does not exist.</message>\n"
      + "<recovery>Call billing_list_invoices first to find valid IDs.</recovery>\n"
      + "<available_actions>\n  <action>billing_list_invoices</action>\n</available_actions>\n"
      + "<details>\n  <detail key=\"invoice_id\">INV-9999</detail>\n</details>\n"
      + "</tool_error>");
  assert.equal(json._meta["mcpfusion/error"].code, "NOT_FOUND");
});

test("FLAT: get_invoice returns the view and nothing hidden", () => {
  const { text, json } = flat("--method", "tools/call", "--tool-name", "billing_get_invoice",
      "--tool-arg", "id=INV-0042");
  assert.equal(json.isError ?? false, false);
  assert.deepEqual(Object.keys(json.structuredContent), ["id", "totalCents", "status"]);
  assert.ok(!text.includes("whsec_") && !text.includes("riskScore"));
});

test("FLAT: void_invoice on an open invoice starts with the cache invalidation mark", () => {
  const { json } = flat("--method", "tools/call", "--tool-name", "billing_void_invoice",
      "--tool-arg", "id=INV-0003");
  assert.equal(json.isError ?? false, false);
  assert.equal(json.content[0].text,
      "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
  assert.equal(json.structuredContent.status, "VOID");
  assert.deepEqual(json._meta["mcpfusion/invalidation"], { cause: "billing.void_invoice", domains: ["billing.*"] });
});

test("GROUPED: the Inspector lists and calls the presenter-backed grouped tool", () => {
  const listed = grouped("--method", "tools/list");
  assert.deepEqual(listed.json.tools.map((t) => t.name), ["billing"]);
  assert.equal(listed.json.tools[0].outputSchema.type, "object");
  const { text, json } = grouped("--method", "tools/call", "--tool-name", "billing",
      "--tool-arg", "action=get_invoice", "--tool-arg", "id=INV-0042");
  assert.equal(json.isError ?? false, false);
  assert.equal(json.structuredContent.id, "INV-0042");
  assert.ok(!text.includes("whsec_"));
  const voided = grouped("--method", "tools/call", "--tool-name", "billing",
      "--tool-arg", "action=void_invoice", "--tool-arg", "id=INV-0003");
  assert.equal(voided.json.content[0].text,
      "<cache_invalidation cause=\"billing.void_invoice\" domains=\"billing.*\" />");
});
