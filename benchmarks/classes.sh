#!/usr/bin/env bash
# Classes loaded to the first reply: runs a stdio server with -Xlog:class+load, drives it with the
# raw Node client (initialize, notifications/initialized, tools/list, one billing_get_invoice call,
# then stdin closes), and counts the classes it loaded by origin. Counts, not timings: the result
# does not depend on how busy the machine is.
#
#   mvn -B -q -pl samples/billing -am package -DskipTests
#   benchmarks/classes.sh                     # the billing sample jar
#   benchmarks/classes.sh path/to/other.jar   # any runnable stdio jar serving billing_get_invoice
#
# The origin is the library a class belongs to, read from its package (the sample is one shaded jar,
# so the jar a class came from names no library). Classes loaded while the JVM shuts down after
# stdin closes are counted too (a few dozen at most; the JVM cannot log "the first reply went out").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="${1:-$root/samples/billing/${TARGET:-target}/fusion-sample-billing.jar}"
[[ -f "$jar" ]] || { echo "missing $jar: mvn -B -q -pl samples/billing -am package -DskipTests" >&2; exit 2; }
# CLASS_LOG=path keeps the JVM's class-load log there (to see which class pulled a library in).
log="${CLASS_LOG:-$(mktemp)}"
[[ -n "${CLASS_LOG:-}" ]] || trap 'rm -f "$log"' EXIT
# -Xshare:auto (the default) maps the JDK's own archive; the count is of classes, wherever from.
node "$root/benchmarks/node-client.mjs" --calls 0 --label classes -- \
  java -Xlog:disable -Xlog:all=warning:stderr -Xlog:class+load=info:file="$log" -jar "$jar" > /dev/null
awk '
  / source: / {
    name = $0; sub(/^.*\[class,load\] /, "", name); sub(/ .*$/, "", name)
    origin = "other"
    if (name ~ /^(java|javax|jdk|sun|com\.sun)\./) origin = "JDK"
    else if (name ~ /^tools\.jackson\.databind\./) origin = "jackson-databind"
    else if (name ~ /^tools\.jackson\.core\./) origin = "jackson-core"
    else if (name ~ /^(tools\.jackson|com\.fasterxml\.jackson)\./) origin = "jackson (other)"
    else if (name ~ /^reactor\./ || name ~ /^org\.reactivestreams\./) origin = "reactor-core"
    else if (name ~ /^com\.networknt\./) origin = "networknt json-schema-validator"
    else if (name ~ /^io\.modelcontextprotocol\.json\.schema\./) origin = "MCP SDK schema validator"
    else if (name ~ /^io\.modelcontextprotocol\./) origin = "MCP SDK"
    else if (name ~ /^org\.hibernate\.validator\./ || name ~ /^jakarta\.validation\./ || name ~ /^org\.glassfish\.expressly\./ || name ~ /^jakarta\.el\./ || name ~ /^org\.jboss\.logging\./ || name ~ /^com\.fasterxml\.classmate\./) origin = "Bean Validation (hibernate, jakarta, el, jboss-logging, classmate)"
    else if (name ~ /^dev\.toonformat\./) origin = "jtoon"
    else if (name ~ /^org\.slf4j\./) origin = "slf4j"
    else if (name ~ /^org\.yaml\./) origin = "snakeyaml"
    else if (name ~ /^dev\.mcpfusion\.core\./) origin = "fusion-core"
    else if (name ~ /^dev\.mcpfusion\.http\./ || name ~ /^org\.eclipse\.jetty\./) origin = "fusion-http / Jetty"
    else if (name ~ /^dev\.mcpfusion\./) origin = "fusion (annotations, sample, generated)"
    count[origin]++; total++
  }
  END {
    printf "| origin | classes |\n|---|---:|\n"
    n = 0; for (o in count) keys[n++] = o
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (count[keys[j]] > count[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 0; i < n; i++) printf "| %s | %d |\n", keys[i], count[keys[i]]
    printf "| **total** | **%d** |\n", total
  }' "$log"
