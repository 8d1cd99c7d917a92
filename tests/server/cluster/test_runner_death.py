"""A runner that dies (SIGKILL) mid-run: whoever notices ends its run `interrupted`, with
every event it had stored; and a runner stopped by SIGTERM ends its runs `interrupted` itself."""

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


@pytest.mark.parametrize("how", ["killed", "terminated"])
def test_a_runner_gone_mid_run_leaves_the_run_interrupted_with_what_was_saved(
    cluster: Cluster, how: str
) -> None:
    a = cluster.replica("a")
    cluster.runner("pool", slots=1)

    async def scenario() -> None:
        owner = await Socket.open(a, owner_cookie(a))
        await owner.send(
            {"type": "run", "code": SEED.read_text(), "options": {"pause_in_backward": True}}
        )
        run_id = (await owner.until(kind("run_started"), "run_started"))["run_id"]
        paused = await owner.until(kind("paused"), "the pause")
        if how == "killed":
            cluster.kill("pool")  # nothing of it cleans up: the replica's sweep notices
        else:
            assert cluster.stop("pool") == 0
        end = await owner.until(kind("run_finished"), "run_finished")
        assert end["status"] == "interrupted"
        events = dense(owner.events, run_id)
        # everything the replica had streamed is kept, the pause included, then the end
        assert [e["seq"] for e in events if e["type"] == "paused"][:1] == [paused["seq"]]
        assert events[-1] == end
        stored = httpx.get(f"http://{a}/api/runs/{run_id}", timeout=60).json()
        assert stored["status"] == "interrupted"
        assert stored["events"] == events
        await owner.close()

    asyncio.run(scenario())
