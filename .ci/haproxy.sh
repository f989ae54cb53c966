#!/usr/bin/env bash
# Installs HAProxy from the distribution's packages when it is not on PATH. The fleet test
# (samples/billing FleetTest) starts its own haproxy, on a free loopback port, in front of the
# billing instances it starts; it needs only the binary. Idempotent: does nothing when haproxy is
# already installed.
set -euo pipefail

if command -v haproxy >/dev/null 2>&1; then
  echo "== haproxy present: $(haproxy -v | sed -n 1p)"
  exit 0
fi

as_root=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "haproxy is not installed and this user is not root and has no sudo;" \
      "install the Debian package haproxy, then run the build again" >&2
    exit 1
  fi
fi

echo "== installing haproxy from the distribution's packages"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]+"${as_root[@]}"}" apt-get update -qq
"${as_root[@]+"${as_root[@]}"}" apt-get install -y -qq --no-install-recommends haproxy >/dev/null
# Where an init system runs, the package starts a system service with its own configuration; the
# fleet test never uses it (it starts its own haproxy), so it is left as the distribution sets it.
echo "== haproxy installed: $(haproxy -v | sed -n 1p)"
