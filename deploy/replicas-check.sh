#!/usr/bin/env bash
# Starts a throwaway PostgreSQL, two app replicas (A, B) and a runner pool on this machine,
# without containers; runs a seed example through A over the websocket, follows and resumes it
# through B (its owner, and a stranger who may only watch), kills A mid-run and checks that B
# serves the run the runner finished, with every event. Exits non-zero when any step fails.
# Needs: Debian's postgresql (tools/system-deps.sh), the venv (make setup).
# Usage: deploy/replicas-check.sh        (PYTHON: the interpreter, default .venv/bin/python)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$repo/.venv/bin/python}
cd "$repo"
exec "$PY" deploy/replicas_check.py
