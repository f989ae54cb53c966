// Runs the official MCP conformance suite against samples/conformance over Streamable HTTP.
//   node run.mjs active   — @modelcontextprotocol/conformance 0.1.16, `server --suite active`:
//                           fails (exit 1) unless every scenario and every check passes.
//   node run.mjs 2026     — 0.2.0-alpha.12, `server --requirements 2026-07-28`: fails (exit 1)
//                           unless every scenario it runs (scored, and unscored extension and
//                           pending ones) passes, except those listed in expected-failures-2026.txt,
//                           and every listed one still fails (gate.mjs).
// The fixture is started with --http 0 (an ephemeral port on 127.0.0.1) and stopped afterwards.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { evaluate } from "./gate.mjs";

const mode = process.argv[2] ?? "active";
const jar = resolve(process.env.CONFORMANCE_JAR ?? "../target/fusion-sample-conformance.jar");
const cli = {
  active: ["node_modules/@modelcontextprotocol/conformance/dist/index.js", "--suite", "active"],
  2026: ["node_modules/conformance-2026/dist/index.js", "--requirements", "2026-07-28"],
}[mode];
if (!cli) {
  console.error(`unknown mode '${mode}': use active or 2026`);
  process.exit(2);
}

const server = spawn("java", ["-jar", jar, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
let log = "";
const endpoint = await new Promise((ok, fail) => {
  const timer = setTimeout(() => fail(new Error("the fixture announced no endpoint: " + log)), 60_000);
  server.stderr.on("data", (chunk) => {
    log += chunk;
    const m = /listening on (http:\/\/\S+)/.exec(log);
    if (m) { clearTimeout(timer); ok(m[1]); }
  });
  server.on("exit", (code) => fail(new Error(`the fixture exited ${code}: ${log}`)));
});

// Warm-up: the first 2026-07-28 call a fresh JVM serves takes over a second (class loading, JIT),
// and server-stateless's stream probe, the first scenario, gives its call 600 ms. One call of the
// probe's tool before the suite keeps that check about the stream, not about a cold JVM.
if (mode === "2026") {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "warm-up", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json", Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
      "Mcp-Name": "test_streaming_elicitation",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call",
      params: { name: "test_streaming_elicitation", arguments: {}, _meta: meta } }),
  });
  await response.text();
  if (!response.ok) {
    server.kill("SIGTERM");
    console.error(`conformance: the warm-up call failed with HTTP ${response.status}`);
    process.exit(1);
  }
}

// The suite writes every check of every scenario here; a failing check's message is printed below
// the summary, so the CI log says what broke, not only how many checks did.
const results = mkdtempSync(join(tmpdir(), "fusion-conformance-"));
let run;
try {
  const [script, ...options] = cli;
  run = spawnSync(process.execPath,
      [script, "server", "--url", endpoint, ...options, "--output-dir", results],
      { encoding: "utf8", timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
} finally {
  server.kill("SIGTERM");
}
const failedChecks = [];
for (const dir of readdirSync(results)) {
  try {
    for (const check of JSON.parse(readFileSync(join(results, dir, "checks.json"), "utf8"))) {
      if (check.status === "FAILURE") {
        const message = String(check.errorMessage ?? "").replace(/\s+/g, " ");
        failedChecks.push(`  ${dir.replace(/^server-|-\d{4}-\d\d-\d\dT.*$/g, "")} / ${check.id}: `
            + (message.length > 400 ? message.slice(0, 400) + "…" : message));
      }
    }
  } catch {
    // a scenario directory without checks.json: its summary line says what happened
  }
}
rmSync(results, { recursive: true, force: true });
const out = (run.stdout ?? "") + (run.stderr ?? "");
const summary = out.slice(out.indexOf("=== SUMMARY ==="));
if (!out.includes("=== SUMMARY ===")) {
  console.error(out);
  console.error("conformance: no summary (the suite did not finish)");
  process.exit(1);
}
console.log(summary.trim());
if (failedChecks.length > 0) {
  console.log("Failing checks:\n" + failedChecks.join("\n"));
}
if (mode === "active") {
  const failing = [...summary.matchAll(/✗ (\S+): (\d+) passed, (\d+) failed/g)];
  const total = /Total: (\d+) passed, (\d+) failed/.exec(summary);
  if (failing.length > 0 || !total || Number(total[2]) > 0 || run.status !== 0) {
    console.error(`conformance: ${failing.length} scenario(s) fail: ${failing.map((m) => m[1]).join(", ")}`);
    process.exit(1);
  }
  console.log("conformance: every scenario and every check passes");
}
if (mode === "2026") {
  const { ok, lines } = evaluate(summary, readFileSync(new URL("./expected-failures-2026.txt", import.meta.url), "utf8"));
  for (const line of lines) {
    (ok ? console.log : console.error)(line);
  }
  if (!ok) {
    process.exit(1);
  }
  console.log("conformance 2026-07-28: every scenario passes but the listed expected failures");
}
