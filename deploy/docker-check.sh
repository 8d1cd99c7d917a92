#!/usr/bin/env bash
# Builds the image from a clean clone and checks it the way a user meets it:
# it serves the app, runs a seed example over the websocket in the real sandbox (mode from
# /healthz), holds runs to the limits /healthz reports (host details hidden, memory over all of a
# run's processes, a forged pause does not stop the wall clock, a real one does), and keeps a
# stored run across a container restart on the volume.
# Usage: deploy/docker-check.sh [DOCKER_COMMAND...]   (default: docker)
#   BUILD_ARGS / RUN_ARGS: extra flags for `build` / `run`. On a machine whose daemon has no
#   bridge network (e.g. the private daemon of docker-local):
#     eval "$(docker-local env)"; DOCKER_BUILDKIT=0 BUILD_ARGS="--network host" \
#       RUN_ARGS="--network host" deploy/docker-check.sh docker
# Needs: git, curl, and a Python with `websockets` (PYTHON, default .venv/bin/python).
set -euo pipefail
DOCKER=("${@:-docker}")
[ $# -gt 0 ] || DOCKER=(docker)
repo=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$repo/.venv/bin/python}
PORT=${PORT:-8765}
tag=backscope-check
vol=backscope-check-data-$$
work=$(mktemp -d)
cid=""
cleanup() {
  [ -z "$cid" ] || "${DOCKER[@]}" rm -f "$cid" >/dev/null 2>&1 || true
  "${DOCKER[@]}" volume rm -f "$vol" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${FROM_WORKTREE:-}" ]; then
  # trial runs before committing: the files a clone would have (tracked + new, not ignored)
  echo "== copy of the work tree (FROM_WORKTREE)"
  mkdir -p "$work/src"
  (cd "$repo" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work/src")
else
  echo "== clean clone"
  git clone -q "$repo" "$work/src"
fi
echo "== build"
t0=$(date +%s)
# shellcheck disable=SC2086
"${DOCKER[@]}" build ${BUILD_ARGS:-} -t "$tag" "$work/src"
echo "build took $(( $(date +%s) - t0 )) s"
size=$("${DOCKER[@]}" image inspect -f '{{.Size}}' "$tag")
echo "image size: $(( size / 1024 / 1024 )) MiB"

start() {
  # shellcheck disable=SC2086
  cid=$("${DOCKER[@]}" run -d ${RUN_ARGS:--p $PORT:$PORT} -v "$vol:/data" \
    --security-opt seccomp="$work/src/deploy/seccomp-bwrap.json" \
    "$tag" backscope serve --host 0.0.0.0 --port "$PORT")
  for _ in $(seq 60); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return 0
    sleep 1
  done
  "${DOCKER[@]}" logs "$cid" | tail -20
  echo "container did not become healthy" >&2
  return 1
}

echo "== run"
start
health=$(curl -fsS "http://127.0.0.1:$PORT/healthz")
echo "healthz: $health"
curl -fsS "http://127.0.0.1:$PORT/" | grep -qi "<html\|<!doctype" && echo "serves the page: yes"

run_id=$("$PY" - "$PORT" <<'PYEOF'
import asyncio, json, sys, urllib.request
import websockets

port = sys.argv[1]
examples = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/examples"))
seed = examples[0]

async def main():
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "run", "code": seed["code"]}))
        events = []
        while not events or events[-1]["type"] != "run_finished":
            events += json.loads(await asyncio.wait_for(ws.recv(), 120))
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(len(seqs))), "seq not dense"
    nodes = sum(e["type"] == "node" for e in events)
    print(f"seed example {seed['id']!r}: {len(events)} events, {nodes} nodes, "
          f"status {events[-1]['status']}", file=sys.stderr)
    assert events[-1]["status"] == "ok", events[-3:]
    print(events[0]["run_id"])

asyncio.run(main())
PYEOF
)
echo "== limits in the image (what /healthz says is in force)"
"$PY" - "$PORT" <<'PYEOF'
import asyncio, json, sys, urllib.request
import websockets

port = sys.argv[1]
limits = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz"))["runner"]["limits"]
print("limits:", json.dumps(limits, indent=1), file=sys.stderr)

async def run(code, pause_for=None, **options):
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "run", "code": code, "options": options}))
        events = []
        while not events or events[-1]["type"] != "run_finished":
            batch = json.loads(await asyncio.wait_for(ws.recv(), 120))
            events += batch
            if pause_for is not None and any(e["type"] == "paused" for e in batch):
                await asyncio.sleep(pause_for)
                await ws.send(json.dumps({"type": "continue"}))
    errors = " | ".join(e.get("message", "") for e in events if e["type"] == "error")
    text = "".join(e["text"] for e in events if e["type"] == "stdout")
    return events[-1]["status"], errors, text

async def main():
    status, _, text = await run(
        "import os\nfor p in ('/proc/cmdline', '/proc/self/mountinfo', '/proc/version'):\n"
        "    print(os.path.exists(p))\n")
    assert (status, text) == ("ok", "False\nFalse\nFalse\n"), (status, text)
    print("host details hidden: yes", file=sys.stderr)
    status, errors, _ = await run(
        "import os, time\nfor i in range(4):\n    if os.fork() == 0:\n"
        "        b = bytearray(400 << 20)\n        for j in range(0, len(b), 4096):\n"
        "            b[j] = 1\n        time.sleep(60)\n        os._exit(0)\n"
        "for i in range(4):\n    os.wait()\n")
    assert status == "limit" and "memory limit" in errors, (status, errors)
    print(f"4 children x 400 MB: {status}: {errors}", file=sys.stderr)
    status, errors, _ = await run(
        "from engine.autograd import observer\nimport time\ntr = observer.TRACER\n"
        "try:\n    tr.emit('paused', node=None, backward=None, where='end', why='finished')\n"
        "except TypeError:\n    tr.emit({'type': 'paused', 'node': None, 'backward': None,"
        " 'where': 'end', 'why': 'finished'})\n"
        "tr.flush()\ntime.sleep(45)\n", pause_in_backward=True)
    assert status == "timeout" and "wall-clock limit" in errors, (status, errors)
    print(f"forged pause then sleep 45 s: {status}: {errors}", file=sys.stderr)
    status, errors, _ = await run(
        "import torch\nx = torch.ones(2, requires_grad=True)\n(x * x).sum().backward()\n",
        pause_for=35, pause_in_backward=True)
    assert status == "ok", (status, errors)
    print("a real pause of 35 s (past the 30 s wall clock): ok", file=sys.stderr)

asyncio.run(main())
PYEOF
limits=$(curl -fsS "http://127.0.0.1:$PORT/healthz" | "$PY" -c \
  'import json,sys; print(json.dumps(json.load(sys.stdin)["runner"]["limits"]))')
echo "limits after the runs: $limits"

echo "== restart with the same volume"
"${DOCKER[@]}" rm -f "$cid" >/dev/null
cid=""
start
status=$(curl -fsS "http://127.0.0.1:$PORT/api/runs/$run_id" | "$PY" -c \
  'import json,sys; b=json.load(sys.stdin); print(b["status"], len(b["events"]))')
echo "stored run $run_id after restart: $status"
echo "OK"
