#!/usr/bin/env bash
# Runs every benchmark of BENCHMARKS.md from the built jars and writes the results to one folder.
#   mvn -B -q -pl benchmarks -am package -DskipTests && benchmarks/run.sh quick   # < 10 min on 2 cores (~8; a few more with JAVA25_HOME)
#   benchmarks/run.sh full                                                        # JMH defaults of each class
#   benchmarks/run.sh baselines                                                   # only the TS SDK / Quarkus comparison, full counts
#   benchmarks/run.sh node                                                        # only the raw Node.js client over stdio: the sample and the TS SDK server
# The baseline step needs the baselines built apart (docs/benchmarks.md): `npm install` in
# benchmarks/baselines/ts-sdk, and mvn -f benchmarks/baselines/quarkus-mcp/pom.xml package. Without
# node, the TS build or the Quarkus jar, that server is left out with a line saying so.
# Environment: TARGET (build folder name, default "target"), OUT (results folder), JAVA25_HOME (a
# JDK 25 for ColdStart's JDK 25 default and AOT cache rows; skipped, with a note, without it).
# The node step (in every mode; alone with `node`): NODE_WARMUP (default 2000), NODE_CALLS (default
# 20000 per phase), NODE_ROUNDS (default 3) — each round a fresh process of each server.
set -euo pipefail
mode="${1:-quick}"
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${TARGET:-target}"
jar="$root/benchmarks/$target/benchmarks.jar"
sample="$root/samples/billing/$target/fusion-sample-billing.jar"
out="${OUT:-$root/benchmarks/$target/results-$mode}"
case "$mode" in
  quick) jmh=(-f 1 -wi 3 -w 2s -i 5 -r 2s); runs=10 ;;
  full)  jmh=(); runs=30 ;;
  baselines|node) ;;
  *) echo "usage: $0 [quick|full|baselines|node]" >&2; exit 2 ;;
esac
needed=("$jar" "$sample")
[[ "$mode" == node ]] && needed=("$sample")
for f in "${needed[@]}"; do
  [[ -f "$f" ]] || { echo "missing $f: run mvn -B -q -pl benchmarks -am package -DskipTests first" >&2; exit 2; }
done
mkdir -p "$out"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "java: $(java -version 2>&1 | head -2 | tr '\n' ' ')"
  echo "JAVA25_HOME: ${JAVA25_HOME:-unset}"
  echo "load average before: $(cat /proc/loadavg)"
} > "$out/machine.txt"

# Other stacks' servers, built apart: BaselineComparison skips (and names) any that is missing.
baselines() {
  local ts="$root/benchmarks/baselines/ts-sdk" quarkus="$root/benchmarks/baselines/quarkus-mcp/target/quarkus-app/quarkus-run.jar"
  local have=0
  if ! command -v node > /dev/null; then
    echo "baselines: no node on PATH, the TypeScript SDK server is skipped" >&2
  elif [[ ! -f "$ts/dist/server.js" ]]; then
    echo "baselines: $ts/dist/server.js missing (run npm install there), the TypeScript SDK server is skipped" >&2
  else
    have=1
  fi
  if [[ ! -f "$quarkus" ]]; then
    echo "baselines: $quarkus missing (mvn -f benchmarks/baselines/quarkus-mcp/pom.xml package), the Quarkus server is skipped" >&2
  else
    have=1
  fi
  if [[ $have == 0 ]]; then
    echo "baselines: skipped, no baseline server is built" | tee "$out/baselines.md" >&2
    return
  fi
  # The class's counts in every mode: the whole step takes 1-2 min on 2 cores.
  (cd "$root" && java -cp "$jar" dev.mcpfusion.benchmarks.wire.BaselineComparison \
      --sample "$sample" --ts-dir "$ts" --quarkus-jar "$quarkus") > "$out/baselines.md"
  echo "load average after baselines: $(cat /proc/loadavg)" >> "$out/machine.txt"
}
# The raw Node.js client (node-client.mjs) over stdio: what desktop hosts and the Inspector are.
# Each round starts a fresh process of each server: time to the first tools/list, then calls/s and
# the server's CPU per call (/proc/<pid>/stat) after the warm-up, sequential and 16 in flight.
node_client() {
  local ts="$root/benchmarks/baselines/ts-sdk/dist/server.js" rounds="${NODE_ROUNDS:-3}"
  local flags=(--warmup "${NODE_WARMUP:-2000}" --calls "${NODE_CALLS:-20000}" --in-flight 16)
  if ! command -v node > /dev/null; then
    echo "node: no node on PATH, the Node client step is skipped" | tee "$out/node-client.md" >&2
    return
  fi
  {
    echo "## Raw Node.js client over stdio (\`benchmarks/node-client.mjs ${flags[*]}\`, $rounds rounds)"
    echo
    echo "| server | phase | calls/s | server CPU per call |"
    echo "|---|---|---:|---:|"
  } > "$out/node-client.md"
  for ((round = 1; round <= rounds; round++)); do
    node "$root/benchmarks/node-client.mjs" "${flags[@]}" --label "fusion sample (round $round)" -- \
      java -Xlog:disable -Xlog:all=warning:stderr -jar "$sample" >> "$out/node-client.md"
    if [[ -f "$ts" ]]; then
      node "$root/benchmarks/node-client.mjs" "${flags[@]}" --label "TS SDK (round $round)" -- \
        node "$ts" >> "$out/node-client.md"
    else
      echo "node: $ts missing (npm install in benchmarks/baselines/ts-sdk), the TS SDK server is skipped" >&2
    fi
  done
  echo "load average after node client: $(cat /proc/loadavg)" >> "$out/machine.txt"
}
if [[ "$mode" == baselines ]]; then
  baselines
  cat "$out/machine.txt" "$out/baselines.md"
  exit 0
fi
if [[ "$mode" == node ]]; then
  node_client
  cat "$out/machine.txt" "$out/node-client.md"
  exit 0
fi

java -jar "$jar" "${jmh[@]}" -prof gc -rf json -rff "$out/jmh.json" > "$out/jmh.txt"
echo "load average after JMH: $(cat /proc/loadavg)" >> "$out/machine.txt"
java -cp "$jar" dev.mcpfusion.benchmarks.Ratios "$out/jmh.json" > "$out/ratios.md"
java -cp "$jar" dev.mcpfusion.benchmarks.context.ContextCost > "$out/context.md"
(cd "$root" && java -cp "$jar" dev.mcpfusion.benchmarks.coldstart.ColdStart --runs "$runs" \
    --sample "$sample" --cds-dir "$out/cds") > "$out/coldstart.md"
echo "load average after cold start: $(cat /proc/loadavg)" >> "$out/machine.txt"
# Item 4: HTTP (both eras) and stdio against the plain SDK; quick ~3 min, full ~16 min.
java -cp "$jar" dev.mcpfusion.benchmarks.wire.WireBenchmark "$mode" > "$out/wire.md"
echo "load average after wire: $(cat /proc/loadavg)" >> "$out/machine.txt"
baselines
node_client
echo "load average after: $(cat /proc/loadavg)" >> "$out/machine.txt"
cat "$out/machine.txt" "$out/ratios.md" "$out/context.md" "$out/coldstart.md" "$out/wire.md" "$out/baselines.md" "$out/node-client.md"
