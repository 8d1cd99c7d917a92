"""Two runner pools share one queue: 8 runs queued at once through two replicas each run
exactly once (one claim, one run_started, one run_finished, every client told its end once).
Twice the slots keeps both pools claiming against each other all through; the figure with
100 sessions is bench/bench_cluster.py's."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import psycopg
import pytest

from deploy.cluster import Cluster
from deploy.replicas_check import Socket, kind, owner_cookie
from server.storage.postgres import PostgresRunStore

RUNS = 8
# the last run waits for all the others on 4 slots: a bound on a hang, on a loaded
# 2-core machine (not a speed target)
QUEUED_WAIT_S = 1800.0
CODE = "import torch\na = torch.ones(2, requires_grad=True)\n(a * 3).sum().backward()\n"


async def one(base: str, cookie: str) -> tuple[str, list[dict[str, object]]]:
    sock = await Socket.open(base, cookie)
    try:
        await sock.send({"type": "run", "code": CODE})
        end = await sock.until(kind("run_finished"), "run_finished", QUEUED_WAIT_S)
        return str(end["run_id"]), sock.events
    finally:
        await sock.close()


@pytest.mark.timeout(3600)
def test_two_pools_run_each_queued_run_exactly_once(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    limits = {"rate_limit_burst": "100000", "rate_limit_per_minute": "100000"}
    with Cluster(logs=logs, disconnect_grace_s="600", **limits) as cluster:
        replicas = [cluster.replica("a"), cluster.replica("b")]
        cluster.runner("pool1", slots=2)
        cluster.runner("pool2", slots=2)

        async def everyone() -> list[tuple[str, list[dict[str, object]]]]:
            cookies = [owner_cookie(base) for base in replicas]
            return await asyncio.gather(
                *(one(replicas[i % 2], cookies[i % 2]) for i in range(RUNS))
            )

        results = asyncio.run(everyone())
        assert cluster.stop("pool1") == 0 and cluster.stop("pool2") == 0

        run_ids = [run_id for run_id, _ in results]
        assert len(set(run_ids)) == RUNS
        for run_id, events in results:  # each client: its run, whole, ending once
            mine = [e for e in events if e.get("run_id") == run_id]
            assert [e["seq"] for e in mine] == list(range(len(mine)))
            assert [e["type"] for e in mine].count("run_finished") == 1
            assert mine[-1]["status"] == "ok", mine[-1]

        store = PostgresRunStore(cluster.url)
        try:
            for run_id in run_ids:  # each stored run was run once: one start, one end
                row = store.get(run_id)
                assert row is not None and row.status == "ok"
                types = [e["type"] for e in store.events(run_id)]
                assert types.count("run_started") == 1 and types.count("run_finished") == 1
        finally:
            store.close()
        with psycopg.connect(cluster.url) as db:
            assert db.execute("SELECT count(*) FROM runs").fetchone() == (RUNS,)
            assert db.execute("SELECT count(*) FROM run_jobs").fetchone() == (0,)

    claimed = [
        int(re.findall(r"claimed (\d+) runs", (logs / f"{pool}.log").read_text())[-1])
        for pool in ("pool1", "pool2")
    ]
    assert sum(claimed) == RUNS, claimed
