"""Runs of a runner that died: whoever notices (another runner, a replica) ends them
`interrupted`, with what the runner had stored.

A runner is gone when, on this host, its process is (its pid and start time, as for a server:
runs/instances.py), or, elsewhere, its heartbeat is older than `stale_s`. The job row is
deleted first, conditionally on that runner holding it: of two sweepers, one ends each run.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

from server.cluster.bus import EVENTS, Bus
from server.cluster.queue import JobQueue
from server.eventlog import Chunk
from server.runs.instances import instance_gone
from server.storage import RUNNING, RunStore, StoredRun

_log = logging.getLogger(__name__)
INTERRUPTED = "interrupted"


def runner_gone(runner: str, age_s: float | None, stale_s: float, me: str = "") -> bool:
    """Whether the runner `runner` (host:pid:start) has stopped; `age_s`: seconds since its
    heartbeat (None: it has none)."""
    if runner == me:
        return False
    if age_s is None:
        age_s = float("inf")
    return instance_gone(runner, time.time() - age_s, stale_s)


async def end_orphans(
    queue: JobQueue, store: RunStore, bus: Bus, stale_s: float, me: str = ""
) -> list[str]:
    """End `interrupted` the runs of every runner that is gone; returns their ids."""
    beats = await queue.runners()
    claimed = await queue.claimed()
    dead = {r for _, r in claimed if runner_gone(r, beats.get(r), stale_s, me)}
    dead |= {r for r, age in beats.items() if runner_gone(r, age, stale_s, me)}
    ended: list[str] = []
    for run_id, runner in claimed:
        if runner not in dead or not await queue.done(run_id, runner):
            continue
        last = await asyncio.to_thread(_interrupt, store, run_id, runner)
        await bus.notify(EVENTS, f"{run_id} {last} {INTERRUPTED}")
        ended.append(run_id)
    for runner in dead:
        await queue.forget_runner(runner)
    if ended:
        _log.warning("runs of runners that are gone, ended interrupted: %s", ended[:20])
    return ended


def _interrupt(store: RunStore, run_id: str, runner: str) -> int:
    """End the stored run (or store one that never got its first write); its last seq."""
    row = store.get(run_id)
    if row is None:
        finished: dict[str, Any] = {
            "type": "run_finished",
            "t": 0,
            "status": INTERRUPTED,
            "events": 1,
            "duration_ns": 0,
            "run_id": run_id,
            "seq": 0,
        }
        run = StoredRun(run_id, "", INTERRUPTED, {}, time.time(), 0.0, 1, instance=runner)
        store.save(run, [Chunk(0, 1, orjson.dumps([finished]))])
        return 0
    if row.status == RUNNING:
        store.interrupt(run_id, INTERRUPTED)
        row = store.get(run_id) or row
    return row.n_events - 1
