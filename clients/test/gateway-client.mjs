// The official TypeScript SDK client through the fusion-gateway: it lists the tools of both
// upstreams (billing over stdio, conformance over Streamable HTTP) and calls one of each.
// Run by fusion-gateway's TypeScriptClientGatewayTest, which starts the upstreams and (for http)
// the gateway; not a *.test.mjs file (it needs those servers).
//
//   node gateway-client.mjs stdio '<gateway command as a JSON array>'
//   node gateway-client.mjs http <gateway endpoint>
//
// One line per check on stdout, "ok <name> <detail>"; any failure prints "fail <name> <why>" and
// exits 1.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [mode, target] = process.argv.slice(2);
if (!["stdio", "http"].includes(mode) || !target) {
  console.error("usage: node gateway-client.mjs stdio '<command JSON>' | http <endpoint>");
  process.exit(2);
}

let failed = false;
async function check(name, body) {
  try {
    console.log(`ok ${name} ${await body()}`);
  } catch (e) {
    failed = true;
    console.log(`fail ${name} ${e?.stack ?? e}`);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

function text(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

let transport;
if (mode === "stdio") {
  const [command, ...args] = JSON.parse(target);
  transport = new StdioClientTransport({ command, args, stderr: "inherit" });
} else {
  transport = new StreamableHTTPClientTransport(new URL(target));
}
const client = new Client({ name: "gateway-e2e", version: "1.0.0" });
await client.connect(transport);
try {
  await check(`${mode}-list`, async () => {
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name);
    expect(names.includes("billing_billing_get_invoice"), `no billing tool in ${names}`);
    expect(names.includes("conformance_test_simple_text"), `no conformance tool in ${names}`);
    const voidTool = tools.find((t) => t.name === "billing_billing_void_invoice");
    expect(voidTool.annotations?.destructiveHint === true, `annotations ${JSON.stringify(voidTool.annotations)}`);
    expect(voidTool.inputSchema?.required?.includes("id"), `schema ${JSON.stringify(voidTool.inputSchema)}`);
    return `tools=${names.length} billing=${names.filter((n) => n.startsWith("billing_")).length}`
      + ` conformance=${names.filter((n) => n.startsWith("conformance_")).length}`;
  });

  await check(`${mode}-call-stdio-upstream`, async () => {
    const result = await client.callTool({ name: "billing_billing_get_invoice", arguments: { id: "INV-0042" } });
    expect(!result.isError, `error: ${text(result)}`);
    expect(text(result).includes("INV-0042"), `said '${text(result)}'`);
    return "billing_billing_get_invoice INV-0042";
  });

  await check(`${mode}-call-http-upstream`, async () => {
    const result = await client.callTool({ name: "conformance_test_simple_text", arguments: {} });
    expect(!result.isError, `error: ${text(result)}`);
    expect(text(result).length > 0, "no text");
    return `conformance_test_simple_text said '${text(result)}'`;
  });

  await check(`${mode}-upstream-error`, async () => {
    const result = await client.callTool({ name: "billing_billing_get_invoice", arguments: { id: "INV-9999" } });
    expect(result.isError === true, `not an error: ${text(result)}`);
    expect(text(result).includes("The upstream billing answered"), `said '${text(result)}'`);
    return "NOT_FOUND named billing";
  });
} finally {
  await client.close();
}

process.exit(failed ? 1 : 0);
