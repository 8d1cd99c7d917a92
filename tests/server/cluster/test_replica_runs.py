"""A run started through replica A, as its owner and a stranger meet it through replica B:
the owner follows, resumes and steps it; the stranger watches and is refused commands."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from deploy.cluster import Cluster
from deploy.replicas_check import SEED, Socket, dense, kind, owner_cookie


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with Cluster(logs=tmp_path / "logs", disconnect_grace_s="60") as c:
        yield c


def test_owner_steps_through_another_replica_and_a_stranger_cannot(cluster: Cluster) -> None:
    a, b = cluster.replica("a"), cluster.replica("b")
    cluster.runner("pool", slots=1)

    async def scenario() -> None:
        cookie = owner_cookie(a)
        owner_a = await Socket.open(a, cookie)
        await owner_a.send(
            {"type": "run", "code": SEED.read_text(), "options": {"pause_in_backward": True}}
        )
        run_id = (await owner_a.until(kind("run_started"), "run_started"))["run_id"]
        first = await owner_a.until(kind("paused"), "the first pause")

        owner_b = await Socket.open(b, cookie)
        await owner_b.send({"type": "resume", "run_id": run_id, "after_seq": first["seq"] - 1})
        again = await owner_b.until(kind("paused"), "the pause, resumed through B")
        assert again["seq"] == first["seq"]

        stranger = await Socket.open(b)
        await stranger.send({"type": "resume", "run_id": run_id, "after_seq": -1})
        await stranger.until(kind("paused"), "the pause, watched through B")
        for command in ({"type": "step"}, {"type": "stop"}, {"type": "continue"}):
            await stranger.send({**command, "run_id": run_id})
            refusal = await stranger.until(kind("command_error"), "a refusal")
            assert refusal["message"].startswith("read_only"), refusal

        # the owner steps through B: each step goes to the runner, which pauses again later
        await owner_b.send({"type": "step", "run_id": run_id})
        event = await owner_b.until(
            lambda e: e.get("type") in ("paused", "run_finished") and e["seq"] > first["seq"],
            "what follows a step",
        )
        if event["type"] == "paused":  # (the seed has more than one node to step through)
            await owner_b.send({"type": "continue", "run_id": run_id})
            event = await owner_b.until(kind("run_finished"), "run_finished through B")
        end = event
        assert end["status"] == "ok"
        # A's socket, still open, got the same run to its end as well
        end_a = await owner_a.until(kind("run_finished"), "run_finished through A")
        assert end_a == end
        events = dense(owner_a.events, run_id)
        assert events[0]["type"] == "run_started" and events[-1] == end
        seqs_b = [e["seq"] for e in owner_b.events if e.get("run_id") == run_id]
        assert seqs_b == list(range(first["seq"], end["seq"] + 1))  # from where it resumed
        stored = httpx.get(f"http://{b}/api/runs/{run_id}", timeout=60).json()
        assert stored["status"] == "ok" and stored["events"] == events
        for sock in (owner_a, owner_b, stranger):
            await sock.close()

    asyncio.run(scenario())
