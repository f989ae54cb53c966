#!/usr/bin/env bash
# Builds the billing sample's OCI image to samples/billing/target/jib-image.tar with Jib's Maven
# plugin (profile `image`): no Docker daemon and no registry. The base is scratch; the runtime is
# a jlink image of the build's JDK plus the C libraries it links, copied from this machine, so the
# image runs on the same architecture (x86-64 glibc Linux) as the build.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The JDK modules the sample and its libraries use (Jetty, Jackson, Hibernate Validator, the
# OpenTelemetry SDK, Micrometer); check.sh starts the image, so a missing one fails there.
MODULES=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.scripting,java.sql,java.xml,jdk.crypto.ec,jdk.management,jdk.unsupported,jdk.zipfs

root=samples/billing/target/image-root
rm -rf "$root"
mkdir -p "$root/opt" "$root/tmp"
java_home="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')"
"$java_home/bin/jlink" --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages \
  --output "$root/opt/java"

# The shared libraries the runtime's binaries need from the system, and the program loader.
binaries=("$root"/opt/java/bin/* "$root"/opt/java/lib/*.so "$root"/opt/java/lib/server/*.so)
for lib in $(ldd "${binaries[@]}" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u); do
  case "$lib" in
    *"/opt/java/"*) continue ;;
  esac
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done

mvn -B -ntp -pl samples/billing -am -Pimage package -DskipTests
echo "== image: samples/billing/target/jib-image.tar"
