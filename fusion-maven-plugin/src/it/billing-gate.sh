#!/usr/bin/env bash
# Scripted end-to-end test of the lockfile gate with real Maven runs on the billing sample:
# lock, verify passes; each change (remove an action, add a required parameter, expose one more
# view field, change a description) makes `mvn verify` fail with the classified report; lock brings
# it back to green. Nothing is installed into ~/.m2: the freshly packaged fusion jars go into a
# private local repository, and ~/.m2 is only read (as a file:// mirror for third-party artifacts).
#
# Usage (from anywhere): fusion-maven-plugin/src/it/billing-gate.sh [build-dir-name, default target]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
T="${1:-target}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
M2="${M2_REPO:-$HOME/.m2/repository}"
V=0.1.0-SNAPSHOT

echo "== package the fusion jars ($T)"
(cd "$ROOT" && mvn -B -q -o -Dfusion.target="$T" -pl fusion-maven-plugin -am package -DskipTests)

echo "== private local repository in $WORK/repo"
for m in fusion-annotations fusion-processor fusion-core fusion-maven-plugin; do
  d="$WORK/repo/dev/mcpfusion/$m/$V"; mkdir -p "$d"
  cp "$ROOT/$m/$T/$m-$V.jar" "$d/"
  if [ -f "$ROOT/$m/$T/dependency-reduced-pom.xml" ]; then
    cp "$ROOT/$m/$T/dependency-reduced-pom.xml" "$d/$m-$V.pom"
  else
    cp "$ROOT/$m/pom.xml" "$d/$m-$V.pom"
  fi
done
mkdir -p "$WORK/repo/dev/mcpfusion/fusion-parent/$V"
cp "$ROOT/pom.xml" "$WORK/repo/dev/mcpfusion/fusion-parent/$V/fusion-parent-$V.pom"
cat > "$WORK/settings.xml" <<XML
<settings><mirrors><mirror><id>local-m2</id><mirrorOf>*</mirrorOf><url>file://$M2</url></mirror></mirrors></settings>
XML

fresh_project() {
  rm -rf "$WORK/billing"; mkdir -p "$WORK/billing/src/main"
  cp -r "$ROOT/samples/billing/src/main/java" "$WORK/billing/src/main/"
  # The launchers at the package root wire transports (fusion-http, ...) this minimal pom does not
  # depend on; the connector (model, presenter, store, tools) is all the lockfile reads.
  find "$WORK/billing/src/main/java/dev/mcpfusion/samples/billing" -maxdepth 1 -name '*.java' -delete
  cat > "$WORK/billing/pom.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>dev.mcpfusion</groupId><artifactId>fusion-parent</artifactId><version>$V</version><relativePath/></parent>
  <artifactId>billing-gate</artifactId>
  <dependencies><dependency><groupId>dev.mcpfusion</groupId><artifactId>fusion-core</artifactId></dependency></dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId>
      <configuration><annotationProcessorPaths><path><groupId>dev.mcpfusion</groupId><artifactId>fusion-processor</artifactId><version>$V</version></path></annotationProcessorPaths></configuration></plugin>
    <plugin><groupId>dev.mcpfusion</groupId><artifactId>fusion-maven-plugin</artifactId><version>$V</version>
      <executions><execution><goals><goal>check</goal></goals></execution></executions></plugin>
  </plugins></build>
</project>
XML
  if [ -f "$WORK/mcpfusion.lock" ]; then cp "$WORK/mcpfusion.lock" "$WORK/billing/"; fi
}
mvnw() { (cd "$WORK/billing" && mvn -B -ntp -s "$WORK/settings.xml" -Dmaven.repo.local="$WORK/repo" "$@"); }

SRC=src/main/java/dev/mcpfusion/samples/billing
expect_failure() { # $1 = label, $2 = expected report line
  local out; if out="$(mvnw verify 2>&1)"; then echo "FAIL: $1: mvn verify passed"; exit 1; fi
  if ! grep -qF -- "$2" <<<"$out"; then echo "FAIL: $1: no line '$2' in:"; echo "$out" | grep ERROR; exit 1; fi
  echo "ok: $1 -> $2"
  mvnw -q compile fusion:lock >/dev/null
  mvnw verify >/dev/null || { echo "FAIL: $1: verify still fails after fusion:lock"; exit 1; }
  echo "ok: $1 -> green again after fusion:lock"
}

echo "== lock the unchanged sample"
fresh_project
mvnw -q compile fusion:lock >/dev/null
mvnw verify >/dev/null && echo "ok: verify passes on the committed lockfile"
cp "$WORK/billing/mcpfusion.lock" "$WORK/mcpfusion.lock"
mvnw -q clean compile fusion:lock >/dev/null
cmp "$WORK/billing/mcpfusion.lock" "$WORK/mcpfusion.lock" && echo "ok: byte-identical after a clean rebuild"

fresh_project
perl -0pi -e 's/  \@Mutation\(.*?(?=  private static FusionError notFound)//s' "$WORK/billing/$SRC/tools/BillingTools.java"
expect_failure "remove an action" "BREAKING billing_void_invoice: tool removed"

fresh_project
perl -pi -e 's/public Invoice getInvoice\(\@NotBlank/public Invoice getInvoice(\@NotBlank String currency, \@NotBlank/' "$WORK/billing/$SRC/tools/BillingTools.java"
expect_failure "add a required parameter" "BREAKING billing_get_invoice: required field added: currency"

fresh_project
perl -pi -e 's/\@Hidden String webhookSecret/String webhookSecret/' "$WORK/billing/$SRC/model/Invoice.java"
perl -pi -e 's/InvoiceView\(String id, long totalCents, InvoiceStatus status\)/InvoiceView(String id, long totalCents, InvoiceStatus status, String webhookSecret)/' "$WORK/billing/$SRC/presenter/InvoiceView.java"
expect_failure "expose one more view field" "BREAKING billing_get_invoice: egress fields changed: [id, totalCents, status] → [id, totalCents, status, webhookSecret]"

fresh_project
perl -pi -e 's/"Get one invoice"/"Fetch one invoice"/' "$WORK/billing/$SRC/tools/BillingTools.java"
expect_failure "change a description" 'COSMETIC billing_get_invoice: description changed: "Get one invoice" → "Fetch one invoice"'

echo "== all lockfile gate checks passed"
