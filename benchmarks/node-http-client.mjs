#!/usr/bin/env node
// A raw Node.js client over Streamable HTTP (2025-11-25), beside node-client.mjs (stdio): spawns a
// server on a free port, opens one session and one keep-alive connection per client, and for each
// client count calls billing_get_invoice in a closed loop — first W warm-up calls, then N measured —
// reading the server's CPU (utime + stime, /proc/<pid>/stat) around the measured calls. No MCP SDK
// on this side. The client counts run one after another on the same server, as BaselineComparison's
// cells do, so the 16-client figure follows the 1-client cell's calls.
//
//   node benchmarks/node-http-client.mjs [--clients 1,16] [--warmup 20000] [--calls 20000] [--json] \
//       [--label L] -- java -jar samples/billing/target/fusion-sample-billing.jar --http {port}
//
// {port} in the command is replaced by the port; the endpoint is http://127.0.0.1:{port}/mcp.
// Every answer is checked (a result with content, not an error), so a broken server cannot post a
// fast number. Bounded: every phase has a deadline (--timeout-s), and the server is killed at the end.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";

const args = process.argv.slice(2);
const sep = args.indexOf("--");
if (sep < 0 || sep === args.length - 1) {
  console.error("usage: node-http-client.mjs [--clients 1,16] [--warmup N] [--calls N] [--json] [--label L] [--timeout-s S] -- command args... ({port} is replaced)");
  process.exit(2);
}
const opts = { clients: [1, 16], warmup: 20000, calls: 20000, json: false, timeoutS: 300, label: "" };
for (let i = 0; i < sep; i++) {
  const a = args[i];
  if (a === "--clients") opts.clients = args[++i].split(",").map(Number);
  else if (a === "--warmup") opts.warmup = Number(args[++i]);
  else if (a === "--calls") opts.calls = Number(args[++i]);
  else if (a === "--timeout-s") opts.timeoutS = Number(args[++i]);
  else if (a === "--label") opts.label = args[++i];
  else if (a === "--json") opts.json = true;
  else { console.error(`unknown option ${a}`); process.exit(2); }
}

const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s
let child;
let finished = false;

function fail(message) {
  console.error(`node-http-client: ${message}`);
  try { child?.kill("SIGKILL"); } catch { /* already gone */ }
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** utime + stime of the server process in seconds (its threads included). */
function serverCpu() {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

/** One client: its own session and its own keep-alive connection. */
class Client {
  constructor(port) {
    this.port = port;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.session = null;
    this.nextId = 1;
  }

  post(message) {
    const body = JSON.stringify(message);
    const headers = {
      "Content-Type": "application/json",
      "Accept": "application/json, text/event-stream",
      "Content-Length": Buffer.byteLength(body),
      "MCP-Protocol-Version": "2025-11-25",
    };
    if (this.session) headers["Mcp-Session-Id"] = this.session;
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: this.port, path: "/mcp", method: "POST",
        headers, agent: this.agent }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** The JSON-RPC reply in a response: the body, or an event stream's last data payload. */
  static message(res) {
    if (!String(res.headers["content-type"] || "").startsWith("text/event-stream")) {
      return res.text ? JSON.parse(res.text) : null;
    }
    let last = null;
    for (const line of res.text.split(/\r?\n/)) {
      if (line.startsWith("data:")) last = line.slice(line.startsWith("data: ") ? 6 : 5);
    }
    return last === null ? null : JSON.parse(last);
  }

  async open() {
    const init = await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "initialize", params: {
      protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "node-http-client", version: "1" } } });
    const reply = Client.message(init);
    if (init.status !== 200 || !reply?.result) fail(`initialize failed: ${init.status} ${init.text.slice(0, 300)}`);
    this.session = init.headers["mcp-session-id"] || null;
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  async call(callNo) {
    const id = "INV-" + String((callNo % 1000) + 1).padStart(4, "0");
    const res = await this.post({ jsonrpc: "2.0", id: this.nextId++, method: "tools/call",
      params: { name: "billing_get_invoice", arguments: { id } } });
    const reply = Client.message(res);
    const result = reply?.result;
    if (res.status !== 200 || !result || result.isError || !Array.isArray(result.content) || result.content.length === 0) {
      fail(`billing_get_invoice ${id} did not answer an invoice: ${res.status} ${res.text.slice(0, 300)}`);
    }
  }

  close() {
    this.agent.destroy();
  }
}

/** Every client calls until `calls` calls (shared) are answered; returns the wall time in seconds. */
async function closedLoop(clients, calls) {
  let ticket = 0;
  const deadline = Date.now() + opts.timeoutS * 1000;
  const start = process.hrtime.bigint();
  await Promise.all(clients.map(async (client) => {
    for (let n = ticket++; n < calls; n = ticket++) {
      if (Date.now() > deadline) fail(`${calls} calls did not finish within ${opts.timeoutS} s`);
      await client.call(n);
    }
  }));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function waitUntilServing(port) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const probe = new Client(port);
      await probe.open();
      probe.close();
      return;
    } catch (e) {
      if (Date.now() > deadline) fail(`the server did not answer on port ${port} within 60 s: ${e.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const port = await freePort();
const command = args.slice(sep + 1).map((a) => a.replaceAll("{port}", String(port)));
child = spawn(command[0], command.slice(1), { stdio: ["ignore", "ignore", "inherit"] });
child.on("error", (e) => fail(`could not start ${command[0]}: ${e.message}`));
child.on("exit", (code, signal) => {
  if (!finished) fail(`the server exited early (code ${code}, signal ${signal})`);
});
await waitUntilServing(port);
const rows = [];
for (const count of opts.clients) {
  const clients = Array.from({ length: count }, () => new Client(port));
  for (const c of clients) await c.open();
  await closedLoop(clients, opts.warmup);
  const cpu0 = serverCpu();
  const seconds = await closedLoop(clients, opts.calls);
  const cpu1 = serverCpu();
  clients.forEach((c) => c.close());
  rows.push({ label: opts.label, clients: count, warmup: opts.warmup, calls: opts.calls,
    callsPerSecond: Math.round(opts.calls / seconds), serverCpuMsPerCall: (cpu1 - cpu0) * 1000 / opts.calls });
}
finished = true;
child.kill("SIGTERM");
for (const row of rows) {
  if (opts.json) console.log(JSON.stringify(row));
  else console.log(`| ${row.label} | ${row.clients} | ${row.warmup} | ${row.calls} | ${row.callsPerSecond} | ${row.serverCpuMsPerCall.toFixed(4)} |`);
}
process.exit(0);
