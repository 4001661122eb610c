#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real (nginx for the reverse-proxy
# tests; iproute2 for the network-namespace egress tests; Chromium for the Web UI's browser
# tests, which Playwright drives at /usr/bin/chromium, never downloading a browser of its
# own), once, from the distribution's own repository.
# Called by `nox -s tests`, so a fresh machine runs those tests instead of skipping them.
# No-op when they are already there; when not root and apt-get is unavailable, says what is
# missing and lets the tests report it.
set -euo pipefail

missing=()
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  missing+=(nginx-light)
fi
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
if ! command -v ip >/dev/null 2>&1 && [ ! -x /usr/sbin/ip ] && [ ! -x /sbin/ip ]; then
  missing+=(iproute2)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test_packages: missing ${missing[*]} (install them with your package manager)" >&2
  exit 0
fi

echo "test_packages: apt-get install ${missing[*]} (once)"
# Never start the package's service (nginx would take port 80): the tests start their own.
guard=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d
  guard=/usr/sbin/policy-rc.d
fi
trap '[ -n "$guard" ] && rm -f "$guard"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
