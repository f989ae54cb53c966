#!/usr/bin/env node
// A raw Node.js JSON-RPC client over stdio (what desktop hosts and the Inspector are): spawns a
// server, times initialize → tools/list, then calls billing_get_invoice N times sequentially and
// N times with K in flight, and reads the server's CPU (utime + stime, /proc/<pid>/stat) around
// each phase. No MCP SDK on this side: one JSON message per line, answers matched by id.
//
//   node benchmarks/node-client.mjs [--warmup 2000] [--calls 20000] [--in-flight 16] [--json] \
//       -- java -jar samples/billing/target/fusion-sample-billing.jar
//
// --calls 0 stops after the first tools/list and one call (the class-count script uses that).
// Prints one Markdown row per phase (or one JSON object with --json) to stdout; the server's
// stderr goes to this process's stderr. Every answer is checked (a result, not an error), so a
// broken server cannot post a fast number. Bounded: every phase has a deadline (--timeout-s).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const sep = args.indexOf("--");
if (sep < 0 || sep === args.length - 1) {
  console.error("usage: node-client.mjs [--warmup N] [--calls N] [--in-flight K] [--json] [--timeout-s S] -- command args...");
  process.exit(2);
}
const opts = { warmup: 2000, calls: 20000, inFlight: 16, json: false, timeoutS: 600, label: "" };
for (let i = 0; i < sep; i++) {
  const a = args[i];
  if (a === "--warmup") opts.warmup = Number(args[++i]);
  else if (a === "--calls") opts.calls = Number(args[++i]);
  else if (a === "--in-flight") opts.inFlight = Number(args[++i]);
  else if (a === "--timeout-s") opts.timeoutS = Number(args[++i]);
  else if (a === "--label") opts.label = args[++i];
  else if (a === "--json") opts.json = true;
  else { console.error(`unknown option ${a}`); process.exit(2); }
}
const command = args.slice(sep + 1);

const TICK = 100; // USER_HZ on Linux: /proc/<pid>/stat counts CPU time in 1/100 s
const started = process.hrtime.bigint();
const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
child.on("error", (e) => fail(`could not start ${command[0]}: ${e.message}`));
child.on("exit", (code, signal) => {
  if (!finished) fail(`the server exited early (code ${code}, signal ${signal})`);
});
let finished = false;

function fail(message) {
  console.error(`node-client: ${message}`);
  try { child.kill("SIGKILL"); } catch { /* already gone */ }
  process.exit(1);
}

/** utime + stime of the server process in seconds (its threads included). */
function serverCpu() {
  const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICK; // fields 14 and 15 of stat(5)
}

const pending = new Map();
let nextId = 1;
let buffer = "";
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    if (line.trim() === "") continue;
    let msg;
    try { msg = JSON.parse(line); } catch { fail(`not JSON on stdout: ${line.slice(0, 200)}`); }
    if (msg.id === undefined || msg.method !== undefined) continue; // notifications, server requests
    const waiter = pending.get(msg.id);
    if (!waiter) fail(`an answer to no request: ${line.slice(0, 200)}`);
    pending.delete(msg.id);
    waiter(msg);
  }
});

function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, (msg) => {
      if (msg.error) fail(`${method} answered an error: ${JSON.stringify(msg.error)}`);
      resolve(msg.result);
    });
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
}

function notify(method, params) {
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method, params }) + "\n");
}

let callNo = 0;
async function call() {
  callNo++;
  const id = "INV-" + String((callNo % 1000) + 1).padStart(4, "0");
  const result = await request("tools/call", { name: "billing_get_invoice", arguments: { id } });
  if (result.isError || !Array.isArray(result.content) || result.content.length === 0) {
    fail(`billing_get_invoice ${id} did not answer an invoice: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

async function deadline(promise, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${opts.timeoutS} s`)), opts.timeoutS * 1000);
  });
  try { return await Promise.race([promise, limit]); } catch (e) { fail(e.message); } finally { clearTimeout(timer); }
}

/** Runs n calls with k in flight; returns { seconds, cpuSeconds }. */
async function phase(n, k) {
  const cpu0 = serverCpu();
  const t0 = process.hrtime.bigint();
  let issued = 0;
  const lanes = [];
  for (let lane = 0; lane < Math.min(k, n); lane++) {
    lanes.push((async () => { while (issued < n) { issued++; await call(); } })());
  }
  await Promise.all(lanes);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { seconds, cpuSeconds: serverCpu() - cpu0 };
}

const report = { label: opts.label, command: command.join(" ") };
await deadline((async () => {
  await request("initialize", {
    protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "node-raw-client", version: "1" },
  });
  notify("notifications/initialized");
  const list = await request("tools/list", {});
  report.firstToolsListMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!list.tools.some((t) => t.name === "billing_get_invoice")) fail("tools/list has no billing_get_invoice");
  await call();
  report.firstCallMs = Number(process.hrtime.bigint() - started) / 1e6;
})(), "the handshake");

if (opts.calls > 0) {
  if (opts.warmup > 0) {
    const w = await deadline(phase(opts.warmup, opts.inFlight), "the warm-up");
    report.warmup = { calls: opts.warmup, callsPerSecond: opts.warmup / w.seconds, cpuMicrosPerCall: (w.cpuSeconds * 1e6) / opts.warmup };
  }
  for (const [name, k] of [["sequential", 1], ["inFlight", opts.inFlight]]) {
    const p = await deadline(phase(opts.calls, k), `the ${name} phase`);
    report[name] = { calls: opts.calls, inFlight: k, callsPerSecond: opts.calls / p.seconds, cpuMicrosPerCall: (p.cpuSeconds * 1e6) / opts.calls };
  }
}
report.serverCpuSecondsTotal = serverCpu();
finished = true;
child.stdin.end();
const exited = new Promise((resolve) => child.once("exit", resolve));
const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
await exited;
clearTimeout(killer);

if (opts.json) {
  console.log(JSON.stringify(report));
} else {
  const f = (x) => (x === undefined ? "–" : x.toFixed(0));
  const name = opts.label || command.join(" ");
  console.log(`| ${name} | first tools/list, from spawn | ${f(report.firstToolsListMs)} ms | – |`);
  console.log(`| ${name} | first call answered, from spawn | ${f(report.firstCallMs)} ms | – |`);
  for (const key of ["warmup", "sequential", "inFlight"]) {
    const p = report[key];
    if (p) console.log(`| ${name} | ${key} (${p.calls} calls, ${p.inFlight ?? opts.inFlight} in flight) | ${f(p.callsPerSecond)} | ${p.cpuMicrosPerCall.toFixed(1)} µs |`);
  }
}
