#!/usr/bin/env bash
# Checks the tarball build.sh wrote: its config starts the billing sample (entry point and
# arguments), and — where this runs as root and may chroot — the image's file system really starts
# it: the entry point is run in a chroot of the unpacked layers and must answer /health/ready.
set -euo pipefail
cd "$(dirname "$0")/../.."
tarball=samples/billing/target/jib-image.tar
work="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  umount "$work/root/proc" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

tar -xf "$tarball" -C "$work"
config="$(cat "$work/config.json")"
entrypoint='"Entrypoint":["/opt/java/bin/java","-Xlog:disable","-Xlog:all=warning:stderr","-cp","/app/resources:/app/classes:/app/libs/*","dev.mcpfusion.samples.billing.BillingMain"]'
cmd='"Cmd":["--http","8080","--bind","0.0.0.0"]'
for expected in "$entrypoint" "$cmd"; do
  if [[ "$config" != *"$expected"* ]]; then
    echo "image config lacks $expected" >&2
    echo "$config" >&2
    exit 1
  fi
done
echo "== image config: the entry point starts BillingMain with --http 8080 --bind 0.0.0.0"

if [ "$(id -u)" != 0 ] || ! command -v chroot > /dev/null; then
  echo "== not root: the image's file system was not started (config checked only)"
  exit 0
fi
mkdir -p "$work/root"
for layer in $(grep -o '[0-9a-f]\{64\}\.tar\.gz' "$work/manifest.json"); do
  tar --warning=no-unknown-keyword -xzf "$work/$layer" -C "$work/root"
done
mkdir -p "$work/root/proc"
if ! mount -t proc proc "$work/root/proc" 2>/dev/null; then
  echo "== cannot mount /proc for a chroot here: the image's file system was not started"
  exit 0
fi
# The entry point as the image states it, with a free port picked by the server.
chroot "$work/root" /opt/java/bin/java -Xlog:disable -Xlog:all=warning:stderr \
  -cp '/app/resources:/app/classes:/app/libs/*' dev.mcpfusion.samples.billing.BillingMain \
  --http 0 > /dev/null 2> "$work/stderr" &
pid=$!
port=""
for _ in $(seq 1 300); do
  port="$(sed -n 's#^billing MCP server listening on http://127.0.0.1:\([0-9]*\)/mcp$#\1#p' "$work/stderr")"
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
if [ -z "$port" ]; then
  echo "the image's entry point did not start the sample:" >&2
  cat "$work/stderr" >&2
  exit 1
fi
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
answer="$(cat <&3)"
exec 3<&-
if [[ "$answer" != "HTTP/1.1 200"* ]]; then
  echo "the sample in the image did not answer /health/ready with 200: $answer" >&2
  exit 1
fi
kill -TERM "$pid"
wait "$pid" || true
pid=""
echo "== image started in a chroot: BillingMain answered /health/ready on port $port and stopped on SIGTERM"
