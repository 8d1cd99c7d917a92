#!/usr/bin/env bash
# Installs the Debian packages the test suite uses (bubblewrap and libseccomp for the sandbox),
# when missing.
set -euo pipefail
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
# tests/deploy check and run the cluster's load balancer config with Debian's nginx (the binary)
[ -x /usr/sbin/nginx ] || need+=(nginx)
# pyseccomp loads libseccomp.so.2 with ctypes (the sandbox's seccomp deny list)
compgen -G '/usr/lib/*/libseccomp.so.2' >/dev/null || compgen -G '/lib/*/libseccomp.so.2' \
  >/dev/null || need+=(libseccomp2)
# Browser tests drive Debian's Chromium (Playwright's own browser download does not work here).
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${need[*]} (run: sudo apt-get install ${need[*]})" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
