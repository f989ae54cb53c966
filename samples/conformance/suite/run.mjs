// Runs the official MCP conformance suite against samples/conformance over Streamable HTTP.
//   node run.mjs active   — @modelcontextprotocol/conformance 0.1.16, `server --suite active`:
//                           fails (exit 1) unless every scenario and every check passes.
//   node run.mjs 2026     — 0.2.0-alpha.12, `server --requirements 2026-07-28`: fails (exit 1)
//                           unless every scored scenario passes, except those listed in
//                           expected-failures-2026.txt, and every listed one still fails (gate.mjs).
// The fixture is started with --http 0 (an ephemeral port on 127.0.0.1) and stopped afterwards.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
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

let run;
try {
  const [script, ...options] = cli;
  run = spawnSync(process.execPath, [script, "server", "--url", endpoint, ...options],
      { encoding: "utf8", timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
} finally {
  server.kill("SIGTERM");
}
const out = (run.stdout ?? "") + (run.stderr ?? "");
const summary = out.slice(out.indexOf("=== SUMMARY ==="));
if (!out.includes("=== SUMMARY ===")) {
  console.error(out);
  console.error("conformance: no summary (the suite did not finish)");
  process.exit(1);
}
console.log(summary.trim());
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
  console.log("conformance 2026-07-28: every scored scenario passes but the listed expected failures");
}
