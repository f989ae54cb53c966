#!/usr/bin/env bash
# Runs every benchmark of BENCHMARKS.md from the built jars and writes the results to one folder.
#   mvn -B -q -pl benchmarks -am package -DskipTests && benchmarks/run.sh quick   # < 10 min on 2 cores (~8; a few more with JAVA25_HOME)
#   benchmarks/run.sh full                                                        # JMH defaults of each class
#   benchmarks/run.sh baselines                                                   # only the TS SDK / Quarkus comparison, full counts
# The baseline step needs the baselines built apart (docs/benchmarks.md): `npm install` in
# benchmarks/baselines/ts-sdk, and mvn -f benchmarks/baselines/quarkus-mcp/pom.xml package. Without
# node, the TS build or the Quarkus jar, that server is left out with a line saying so.
# Environment: TARGET (build folder name, default "target"), OUT (results folder), JAVA25_HOME (a
# JDK 25 for ColdStart's JDK 25 default and AOT cache rows; skipped, with a note, without it).
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
  baselines) ;;
  *) echo "usage: $0 [quick|full|baselines]" >&2; exit 2 ;;
esac
for f in "$jar" "$sample"; do
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
if [[ "$mode" == baselines ]]; then
  baselines
  cat "$out/machine.txt" "$out/baselines.md"
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
echo "load average after: $(cat /proc/loadavg)" >> "$out/machine.txt"
cat "$out/machine.txt" "$out/ratios.md" "$out/context.md" "$out/coldstart.md" "$out/wire.md" "$out/baselines.md"
