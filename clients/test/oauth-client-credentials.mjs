// The official TypeScript SDK client doing machine-to-machine OAuth against the billing sample,
// started protected (BillingMain --http PORT --auth-issuer URL --resource URL). Run by
// samples/billing's TypeScriptClientOAuthTest, which starts the authorization server and the sample
// and reads what this prints; not a *.test.mjs file (it needs those two servers).
//
//   node oauth-client-credentials.mjs <mcp endpoint> <issuer URL>
//
// One line per check on stdout, "ok <name> <detail>"; any failure prints "fail <name> <why>" and
// exits 1. The authorization server grants the client "billing-clerk" any scope it asks for,
// "billing-reader" only invoices:read, and "billing-stepper" invoices:write from its second token on.
import {
  Client, ClientCredentialsProvider, InsufficientScopeError, StreamableHTTPClientTransport,
  discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams,
} from "@modelcontextprotocol/client";

const [endpoint, issuer] = process.argv.slice(2);
if (!endpoint || !issuer) {
  console.error("usage: node oauth-client-credentials.mjs <mcp endpoint> <issuer URL>");
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

/**
 * A fetch that records every token request (its grant, requested scope and resource) in `tokens`
 * and every answer of the MCP endpoint (its status and challenge) in `answers`.
 */
function recordingFetch(tokens, answers = []) {
  return async (url, init) => {
    const href = String(url instanceof Request ? url.url : url);
    if (href.includes("/token") && init?.body) {
      const form = new URLSearchParams(String(init.body));
      tokens.push({ grant: form.get("grant_type"), scope: form.get("scope"), resource: form.get("resource") });
    }
    const response = await fetch(url, init);
    if (href === endpoint) {
      answers.push({ status: response.status, challenge: response.headers.get("www-authenticate"), response });
    }
    return response;
  };
}

// What the README's "Protect a remote connector" shows, plus the recording fetch and, where a check
// needs it, how a refused step-up is reported.
async function connect(clientId, options = {}) {
  const tokenRequests = [];
  const authProvider = new ClientCredentialsProvider({
    clientId, clientSecret: `${clientId}-secret`, expectedIssuer: issuer,
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    authProvider, fetch: recordingFetch(tokenRequests), onInsufficientScope: options.onInsufficientScope,
  });
  const client = new Client({ name: "billing-agent", version: "1.0.0" });
  await client.connect(transport);
  return { client, tokenRequests };
}

function text(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

await check("no-token-401-and-metadata", async () => {
  // The same client, without a provider: the sample answers 401 naming its metadata, which the
  // client's own discovery reads; connecting fails.
  const answers = [];
  const client = new Client({ name: "billing-agent", version: "1.0.0" });
  let refusal;
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: recordingFetch([], answers) }));
  } catch (e) {
    refusal = e;
  }
  expect(refusal, "a client without credentials connected");
  const unauthorized = answers.find((a) => a.status === 401);
  expect(unauthorized, `no 401 among ${JSON.stringify(answers.map((a) => a.status))}`);
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(unauthorized.response);
  expect(resourceMetadataUrl, `no resource_metadata in '${unauthorized.challenge}'`);
  const metadata = await discoverOAuthProtectedResourceMetadata(new URL(endpoint), { resourceMetadataUrl });
  expect(metadata.resource === endpoint, `metadata resource ${metadata.resource}`);
  expect(metadata.authorization_servers?.includes(issuer), `authorization servers ${metadata.authorization_servers}`);
  expect(JSON.stringify(metadata.scopes_supported) === JSON.stringify(["invoices:read", "invoices:write"]),
    `scopes supported ${metadata.scopes_supported}`);
  return `refused=${refusal?.constructor?.name} challenge=${unauthorized.challenge}`
    + ` authorization_servers=${metadata.authorization_servers.join(",")}`;
});

await check("client-credentials-call", async () => {
  const { client, tokenRequests } = await connect("billing-clerk");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(JSON.stringify(tools) === JSON.stringify(["billing_get_invoice", "billing_list_invoices", "billing_void_invoice"]),
      `tools ${tools}`);
    const invoice = text(await client.callTool({ name: "billing_get_invoice", arguments: { id: "INV-0042" } }));
    expect(invoice.includes("INV-0042"), `get_invoice said '${invoice}'`);
    const voided = text(await client.callTool({ name: "billing_void_invoice", arguments: { id: "INV-0003" } }));
    expect(/INV-0003/.test(voided) && /VOID/i.test(voided), `void_invoice said '${voided}'`);
    expect(tokenRequests.length === 1 && tokenRequests[0].grant === "client_credentials",
      `token requests ${JSON.stringify(tokenRequests)}`);
    expect(tokenRequests[0].resource === endpoint, `resource indicator ${tokenRequests[0].resource}`);
    return `tools=${tools.join(",")} scope=${tokenRequests[0].scope} voided INV-0003`;
  } finally {
    await client.close();
  }
});

await check("step-up-granted", async () => {
  // The authorization server grants billing-stepper invoices:write from its second token on (as if
  // an administrator approved it after the first): the first void is refused by scope, the client
  // asks for a new token and retries, and the retry goes through.
  const { client, tokenRequests } = await connect("billing-stepper");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(JSON.stringify(tools) === JSON.stringify(["billing_get_invoice", "billing_list_invoices"]),
      `before the step-up the client sees ${tools}`);
    const answer = text(await client.callTool({ name: "billing_void_invoice", arguments: { id: "INV-0007" } }));
    expect(/INV-0007/.test(answer) && /VOID/i.test(answer), `void_invoice said '${answer}'`);
    expect(tokenRequests.length === 2, `token requests ${JSON.stringify(tokenRequests)}`);
    expect(tokenRequests[1].scope.split(" ").includes("invoices:write"), `step-up scope ${tokenRequests[1].scope}`);
    return `token requests=${tokenRequests.length} voided INV-0007`;
  } finally {
    await client.close();
  }
});

await check("step-up-refused", async () => {
  const { client, tokenRequests } = await connect("billing-reader");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(!tools.includes("billing_void_invoice") && tools.length === 2, `a reader sees ${tools}`);
    // The void tool is not listed for this caller; calling it by name is refused by scope.
    try {
      const result = await client.callTool({ name: "billing_void_invoice", arguments: { id: "INV-0011" } });
      throw new Error(`the reader voided: ${JSON.stringify(result)}`);
    } catch (e) {
      expect(/403 insufficient_scope after step-up/.test(String(e?.message)), `not a refused step-up: ${e?.stack ?? e}`);
      expect(tokenRequests.length === 2, `token requests ${JSON.stringify(tokenRequests)}`);
      return `refused after ${tokenRequests.length} token requests: ${e.message}`;
    }
  } finally {
    await client.close();
  }
});

await check("insufficient-scope-thrown", async () => {
  const { client } = await connect("billing-reader", { onInsufficientScope: "throw" });
  try {
    try {
      await client.callTool({ name: "billing_void_invoice", arguments: { id: "INV-0011" } });
      throw new Error("the reader voided");
    } catch (e) {
      expect(e instanceof InsufficientScopeError, `not InsufficientScopeError: ${e?.stack ?? e}`);
      expect(String(e.requiredScope).split(" ").includes("invoices:write"), `required scope '${e.requiredScope}'`);
      return `requiredScope=${e.requiredScope}`;
    }
  } finally {
    await client.close();
  }
});

process.exit(failed ? 1 : 0);
