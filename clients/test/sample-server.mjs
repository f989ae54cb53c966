// Starts a sample jar over Streamable HTTP on an ephemeral port and waits for the endpoint it
// announces on stderr ("listening on http://…"); the test files share it so each starts its server
// the same way. Not a test file itself (the runner takes *.test.mjs).
import { spawn } from "node:child_process";

/** Resolves to { server, endpoint }; rejects if no endpoint is announced in 60 s or the jar exits. */
export async function startHttpSample(jar, args = []) {
  const server = spawn("java", ["-jar", jar, ...args, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const endpoint = await new Promise((ok, fail) => {
    let seen = "";
    const timer = setTimeout(() => fail(new Error("no endpoint announced: " + seen)), 60_000);
    server.stderr.on("data", (chunk) => {
      seen += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
    server.on("exit", (code) => fail(new Error(`the sample exited ${code}: ${seen}`)));
  });
  return { server, endpoint };
}
