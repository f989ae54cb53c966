// The official TypeScript SDK client (@modelcontextprotocol/client, the one the Inspector runs on)
// resumes a tool call whose connection was cut: the first client's transport is closed as soon as
// the call's first event arrives (progress and the result still to come), and a second client in
// the same session resumes the call with the last event id it saw (`resumptionToken`). Every
// progress notification and the result arrive exactly once across the two. The server is the
// conformance sample (its test_tool_with_progress reports 0, 50 and 100), on an ephemeral port.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startHttpSample } from "./sample-server.mjs";

const jar = resolve(process.env.CONFORMANCE_JAR ?? "../samples/conformance/target/fusion-sample-conformance.jar");
let server;
let endpoint;

before(async () => {
  ({ server, endpoint } = await startHttpSample(jar));
});

after(() => server?.kill("SIGTERM"));

/** A 2025-era client whose transport records every JSON-RPC message it delivers. */
async function connect(sessionId) {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), sessionId ? { sessionId } : {});
  const client = new Client({ name: "resume-test", version: "1.0.0" },
      { versionNegotiation: { mode: "legacy" } });
  client.onerror = () => {}; // the cut connection and the replayed progress of the first client's token are reported here
  await client.connect(transport);
  const delivered = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    delivered.push(message);
    deliver?.(message, extra);
  };
  return { client, transport, delivered };
}

const CALL = { name: "test_tool_with_progress", arguments: {} };

test("HTTP: the TypeScript SDK client resumes a cut tool call; every event arrives exactly once", async () => {
  const first = await connect();
  const sessionId = first.transport.sessionId;
  assert.ok(sessionId, "a 2025-era session");

  let token;
  const cut = first.client.callTool(CALL, {
    onprogress: () => {},
    onresumptiontoken: (id) => {
      if (token === undefined) {
        token = id;
        first.transport.close(); // the connection is cut right after the call's first event
      }
    },
  }).then(() => "answered on the cut connection", () => "cut");
  assert.equal(await cut, "cut");
  assert.match(token, /^[0-9a-z]{8}\.[1-9][0-9]*-1$/, "the first event of a POST stream");

  const second = await connect(sessionId);
  const result = await second.client.callTool(CALL, { resumptionToken: token });
  await second.client.close();

  const progress = [...first.delivered, ...second.delivered]
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params.progress);
  assert.deepEqual(progress, [0, 50, 100]);
  const responses = [...first.delivered, ...second.delivered].filter((m) => "result" in m || "error" in m);
  assert.equal(responses.length, 1, "one result, delivered once, to the resuming client");
  assert.notEqual(result.isError, true);
  assert.equal(result.content[0].type, "text");
});
