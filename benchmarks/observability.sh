#!/usr/bin/env bash
# The whole tools/call with tracing and metrics on against off, and off against another build (the
# one before the metrics), side by side: JVMs alternate base-off, off, observed, `jvms` times.
#   mvn -B -q -pl benchmarks -am package -DskipTests          # this build's benchmarks.jar
#   benchmarks/observability.sh BASE_BENCHMARKS_JAR [jvms=3] [rounds=20] [batch=20000] [warmup s=10]
# BASE_BENCHMARKS_JAR is benchmarks/target/benchmarks.jar of the other build (e.g. a worktree of the
# commit before); the harness is compiled against it here, as it only uses API that build has.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/benchmarks/target/benchmarks.jar"
base="${1:?usage: $0 BASE_BENCHMARKS_JAR [jvms] [rounds] [batch] [warmup]}"
jvms="${2:-3}"
args=("${@:3}")
src="$root/benchmarks/src/main/java/dev/mcpfusion/benchmarks/observe/ObservabilityOverhead.java"
classes="$(mktemp -d)"
trap 'rm -rf "$classes"' EXIT
javac -nowarn -cp "$base" -d "$classes" "$src"
main=dev.mcpfusion.benchmarks.observe.ObservabilityOverhead
flags=(-Xlog:disable -Xlog:all=warning:stderr)
echo "date: $(date -u +%FT%TZ) nproc: $(nproc) load: $(cat /proc/loadavg)"
for ((j = 1; j <= jvms; j++)); do
  java "${flags[@]}" -cp "$classes:$base" "$main" off "${args[@]}" 2>/dev/null | grep RESULT | sed "s/side=off/side=base-off jvm=$j/"
  java "${flags[@]}" -cp "$jar" "$main" off "${args[@]}" 2>/dev/null | grep RESULT | sed "s/side=off/side=off jvm=$j/"
  java "${flags[@]}" -cp "$jar" "$main" observed "${args[@]}" 2>/dev/null | grep RESULT | sed "s/side=observed/side=observed jvm=$j/"
done
echo "load after: $(cat /proc/loadavg)"
