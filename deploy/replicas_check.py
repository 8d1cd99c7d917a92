"""The replicas check (deploy/replicas-check.sh): PostgreSQL, two app replicas and a runner
pool on this machine, and a seed example run through replica A, followed and resumed through
replica B, with A killed mid-run. Exits non-zero, saying what failed, when any step does.

The run pauses before each backward node (pause_in_backward) and goes on only when its owner
says `continue`: "mid-run" is a state of the run, not a moment on the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.cluster import Cluster  # noqa: E402

SEED = ROOT / "examples" / "03_custom_exp_function.py"
COOKIE = "backscope_owner"
WAIT_S = float(
    __import__("os").environ.get("CHECK_WAIT_S", "180")
)  # a bound for a loaded machine, not a speed target


class Failed(AssertionError):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise Failed(what)
    print(f"ok   {what}", flush=True)


class Socket:
    """One websocket to a replica, speaking the protocol; `events` holds what came in."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []
        self._seen = 0  # events `until` has looked at

    @classmethod
    async def open(cls, base: str, cookie: str | None = None) -> Socket:
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else None
        ws = await websockets.connect(f"ws://{base}/ws", additional_headers=headers, max_size=None)
        return cls(ws)

    async def send(self, command: dict[str, Any]) -> None:
        await self.ws.send(orjson.dumps(command).decode())

    async def until(self, test: Any, what: str, wait_s: float = WAIT_S) -> dict[str, Any]:
        """Read until an event passes `test`; that event (the frame's later events too are
        kept in `events`). An event already read passes first. `wait_s` bounds a hang, on a
        loaded machine: it is not a speed target."""
        for event in self.events[self._seen :]:
            self._seen += 1
            if test(event):
                return dict(event)
        deadline = time.monotonic() + wait_s
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failed(f"no {what} within {wait_s:.0f} s")
            batch = orjson.loads(await asyncio.wait_for(self.ws.recv(), left))
            self.events.extend(batch)
            for event in batch:
                self._seen += 1
                if test(event):
                    return dict(event)

    async def close(self) -> None:
        await self.ws.close()


def owner_cookie(base: str) -> str:
    """A fresh owner token, as a browser gets it by loading the page (from replica A)."""
    token = httpx.get(f"http://{base}/", headers={"Accept": "text/html"}).cookies.get(COOKIE)
    if not token:
        raise Failed("the replica gave no owner cookie")
    return str(token)


def kind(name: str) -> Any:
    return lambda e: e.get("type") == name


def dense(events: list[dict[str, Any]], run_id: str) -> list[dict[str, Any]]:
    mine = [e for e in events if e.get("run_id") == run_id]
    seqs = [e["seq"] for e in mine]
    if seqs != list(range(len(seqs))):
        raise Failed(f"seq is not dense and complete: {seqs[:50]}")
    return mine


async def scenario(cluster: Cluster) -> None:
    a = cluster.replica("replica-a")
    b = cluster.replica("replica-b")
    cluster.runner("runners", slots=2)
    check(True, f"PostgreSQL, replicas A ({a}) and B ({b}), a runner pool of 2 slots")
    health = httpx.get(f"http://{b}/healthz").json()
    check(health["sandbox"] == "queue", "replica B runs code through the queue (/healthz)")

    cookie = owner_cookie(a)
    owner = await Socket.open(a, cookie)
    await owner.send(
        {"type": "run", "code": SEED.read_text(), "options": {"pause_in_backward": True}}
    )
    started = await owner.until(kind("run_started"), "run_started through A")
    run_id = started["run_id"]
    await owner.until(kind("paused"), "the run pausing in backward (through A)")
    check(True, f"run {run_id} started through A, paused before a backward node")

    # the owner follows it through B: everything so far, then resumes from the middle
    via_b = await Socket.open(b, cookie)
    await via_b.send({"type": "resume", "run_id": run_id, "after_seq": -1})
    paused_b = await via_b.until(kind("paused"), "the paused event through B")
    from_b = dense(via_b.events, run_id)
    from_a = dense(owner.events, run_id)
    check(from_b[: len(from_a)] == from_a[: len(from_b)], "B serves the same events as A")
    half = paused_b["seq"] // 2
    again = await Socket.open(b, cookie)
    await again.send({"type": "resume", "run_id": run_id, "after_seq": half})
    await again.until(lambda e: e.get("seq") == paused_b["seq"], "resume{after_seq} through B")
    seqs = [e["seq"] for e in again.events if e.get("run_id") == run_id]
    check(seqs == list(range(half + 1, paused_b["seq"] + 1)), f"resume after seq {half} via B")
    await again.close()

    # a stranger through B may watch, not command
    stranger = await Socket.open(b)
    await stranger.send({"type": "resume", "run_id": run_id, "after_seq": -1})
    await stranger.until(kind("paused"), "the stranger watching through B")
    await stranger.send({"type": "continue", "run_id": run_id})
    refusal = await stranger.until(kind("command_error"), "a refusal for the stranger")
    check(refusal["message"].startswith("read_only"), "a stranger through B cannot command it")

    # replica A dies mid-run; the owner goes on through B and the runner finishes the run
    cluster.kill("replica-a")
    check(True, "replica A killed (SIGKILL) while the run is paused")
    await via_b.send({"type": "continue", "run_id": run_id})
    finished = await via_b.until(kind("run_finished"), "run_finished through B")
    check(finished["status"] == "ok", f"the runner finished the run: {finished['status']}")
    events = dense(via_b.events, run_id)
    check(events[0]["type"] == "run_started", "B sent the run from run_started to run_finished")
    watched = await stranger.until(kind("run_finished"), "run_finished for the stranger")
    check(watched["seq"] == finished["seq"], "the stranger watched it to the same end")

    # what B serves of the stored run: the whole log, the same as the socket got
    stored = httpx.get(f"http://{b}/api/runs/{run_id}", timeout=60).json()
    check(stored["status"] == "ok", "B serves the stored run, status ok")
    check(stored["events"] == events, f"B serves all {len(events)} events, as streamed")
    for sock in (owner, via_b, stranger):
        with contextlib.suppress(Exception):
            await sock.close()


def main() -> int:
    logs = Path(tempfile.mkdtemp(prefix="backscope-replicas-"))
    try:
        with Cluster(logs=logs, disconnect_grace_s="30") as cluster:
            asyncio.run(scenario(cluster))
    except Failed as exc:
        print(f"FAIL {exc}\n(process logs in {logs})", file=sys.stderr)
        return 1
    shutil.rmtree(logs, ignore_errors=True)  # kept only for a failure to be read
    print("replicas check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
