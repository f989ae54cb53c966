#!/usr/bin/env bash
# Installs redis-server from the distribution's packages when it is not on PATH. fusion-redis's
# tests start their own private redis-server on a free loopback port; they need only the binary.
# Idempotent: does nothing when redis-server is already installed.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  echo "== redis-server present: $(redis-server --version)"
  exit 0
fi

as_root=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "redis-server is not installed and this user is not root and has no sudo;" \
      "install the Debian package redis-server, then run the build again" >&2
    exit 1
  fi
fi

echo "== installing redis-server from the distribution's packages"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]+"${as_root[@]}"}" apt-get update -qq
"${as_root[@]+"${as_root[@]}"}" apt-get install -y -qq --no-install-recommends redis-server >/dev/null
# The package starts a system service on port 6379 where an init system runs; the tests never use
# it (each starts its own server), so it is left as the distribution configures it.
echo "== redis-server installed: $(redis-server --version)"
