// The official TypeScript SDK client doing machine-to-machine OAuth against a protected connector.
// Run by fusion-auth's TypeScriptClientOAuthTest, which starts the authorization server and the
// connector and reads what this prints; not a *.test.mjs file (it needs those two servers).
//
//   node oauth-client-credentials.mjs <mcp endpoint> <issuer URL>
//
// One line per check on stdout, "ok <name> <detail>"; any failure prints "fail <name> <why>" and
// exits 1. The authorization server grants the client "ledger-writer" any scope it asks for,
// "ledger-reader" only ledger:read, and "ledger-stepper" ledger:write from its second token on.
import {
  Client, ClientCredentialsProvider, InsufficientScopeError, StreamableHTTPClientTransport,
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

/** A fetch that records every token request (its grant and requested scope) in `log`. */
function recordingFetch(log) {
  return async (url, init) => {
    const href = String(url instanceof Request ? url.url : url);
    if (href.includes("/token") && init?.body) {
      const form = new URLSearchParams(String(init.body));
      log.push({ grant: form.get("grant_type"), scope: form.get("scope"), resource: form.get("resource") });
    }
    return fetch(url, init);
  };
}

async function connect(clientId, options = {}) {
  const tokenRequests = [];
  const authProvider = new ClientCredentialsProvider({
    clientId, clientSecret: `${clientId}-secret`, expectedIssuer: issuer, scope: options.scope,
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    authProvider, fetch: recordingFetch(tokenRequests), onInsufficientScope: options.onInsufficientScope,
  });
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  await client.connect(transport);
  return { client, tokenRequests };
}

function text(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

await check("no-token-401", async () => {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  expect(response.status === 401, `status ${response.status}`);
  const challenge = response.headers.get("www-authenticate") ?? "";
  const pointer = /resource_metadata="([^"]+)"/.exec(challenge);
  expect(pointer, `no resource_metadata in '${challenge}'`);
  const metadata = await (await fetch(pointer[1])).json();
  expect(metadata.resource === endpoint, `metadata resource ${metadata.resource}`);
  expect(metadata.authorization_servers?.includes(issuer), `authorization servers ${metadata.authorization_servers}`);
  return `authorization_servers=${metadata.authorization_servers.join(",")}`;
});

await check("no-provider-refused", async () => {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  } catch (e) {
    return `refused: ${e?.constructor?.name}`;
  }
  await client.close();
  throw new Error("a client without credentials connected");
});

await check("client-credentials-call", async () => {
  const { client, tokenRequests } = await connect("ledger-writer");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools.length === 2, `tools ${tools}`);
    const who = text(await client.callTool({ name: tools.find((n) => n.includes("whoami")), arguments: {} }));
    expect(who.includes("subject=ledger-writer"), `whoami said '${who}'`);
    expect(tokenRequests.length === 1 && tokenRequests[0].grant === "client_credentials",
      `token requests ${JSON.stringify(tokenRequests)}`);
    expect(tokenRequests[0].resource === endpoint, `resource indicator ${tokenRequests[0].resource}`);
    return `tools=${tools.join(",")} ${who}`;
  } finally {
    await client.close();
  }
});

await check("step-up-granted", async () => {
  // The authorization server grants ledger-stepper ledger:write from its second token on (as if
  // an administrator approved it after the first): the first call is refused by scope, the client
  // asks for a new token and retries, and the retry goes through.
  const { client, tokenRequests } = await connect("ledger-stepper");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.length === 1, `before the step-up the client sees ${tools}`);
    const post = tools[0].replace("whoami", "post");
    const answer = text(await client.callTool({ name: post, arguments: { entry: "coffee" } }));
    expect(answer.includes("posted coffee by ledger-stepper"), `post said '${answer}'`);
    expect(tokenRequests.length === 2, `token requests ${JSON.stringify(tokenRequests)}`);
    expect(tokenRequests[1].scope.split(" ").includes("ledger:write"), `step-up scope ${tokenRequests[1].scope}`);
    return `token requests=${tokenRequests.length} ${answer}`;
  } finally {
    await client.close();
  }
});

await check("step-up-refused", async () => {
  const { client, tokenRequests } = await connect("ledger-reader");
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.length === 1 && tools[0].includes("whoami"), `a reader sees ${tools}`);
    // The write tool is not listed for this caller; calling it by name is refused by scope.
    const post = tools[0].replace("whoami", "post");
    try {
      const result = await client.callTool({ name: post, arguments: { entry: "coffee" } });
      throw new Error(`the reader posted: ${JSON.stringify(result)}`);
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
  const { client } = await connect("ledger-reader", { onInsufficientScope: "throw" });
  try {
    const post = (await client.listTools()).tools[0].name.replace("whoami", "post");
    try {
      await client.callTool({ name: post, arguments: { entry: "coffee" } });
      throw new Error("the reader posted");
    } catch (e) {
      expect(e instanceof InsufficientScopeError, `not InsufficientScopeError: ${e?.stack ?? e}`);
      expect(String(e.requiredScope).split(" ").includes("ledger:write"), `required scope '${e.requiredScope}'`);
      return `requiredScope=${e.requiredScope}`;
    }
  } finally {
    await client.close();
  }
});

process.exit(failed ? 1 : 0);
