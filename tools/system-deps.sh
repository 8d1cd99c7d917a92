#!/usr/bin/env bash
# Installs the Debian packages the test suite uses (bubblewrap for the sandbox), when missing.
set -euo pipefail
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
# Browser tests drive Debian's Chromium (Playwright's own browser download does not work here).
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${need[*]} (run: sudo apt-get install ${need[*]})" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
