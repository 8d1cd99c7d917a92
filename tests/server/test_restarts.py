"""Restarts and crashes against a real server process and sandbox (issue 13, item 11): a
SIGTERM ends in-flight runs `interrupted` and stores them; after a SIGKILL the next start
marks the runs it left `interrupted`, with the log stored up to the last flush. On SQLite and
on PostgreSQL (BACKSCOPE_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from tests import web
from tests.server.databases import Database, database, postgres
from tests.server.hostile_snippets import out
from tests.server.live import Client, assert_dense, connect, server_process

__all__ = ["database", "postgres"]  # fixtures

SLEEPER = "import time\nprint('up', flush=True)\ntime.sleep(1e6)\n"


async def _started(base: str) -> tuple[Client, dict[str, Any]]:
    """A sleeping run that has printed 'up'; its client and the stdout event."""
    c = Client(await connect(base))
    await c.send({"type": "run", "code": SLEEPER})
    return c, await c.until("stdout")


def _check_interrupted(base: str, run_id: str) -> list[dict[str, Any]]:
    body = web.get(f"http://{base}/api/runs/{run_id}").json()
    assert body["status"] == "interrupted", body["status"]
    events = body["events"]
    assert_dense(events)
    assert events[-1]["status"] == "interrupted"
    assert out(events) == "up\n"
    return list(events)


def test_sigterm_ends_in_flight_runs_interrupted_and_stores_them(database: Database) -> None:
    db, env = database.path, database.env

    async def scenario(base: str, proc: Any) -> str:
        client, _ = await _started(base)
        proc.send_signal(signal.SIGTERM)  # what `docker stop` sends
        # uvicorn shuts down, then re-raises the signal it caught: the exit is by SIGTERM
        assert await asyncio.to_thread(proc.wait, 120) in (0, -signal.SIGTERM)
        await client.ws.close()
        return str(client.events[0]["run_id"])

    with server_process(db, env) as (base, proc):
        run_id = asyncio.run(scenario(base, proc))
    with server_process(db, env) as (base, _):
        _check_interrupted(base, run_id)


def test_after_sigkill_the_next_start_marks_the_run_interrupted(database: Database) -> None:
    db, env = database.path, database.env

    async def scenario(base: str, proc: Any) -> tuple[str, int]:
        client, printed = await _started(base)
        run_id = str(client.events[0]["run_id"])
        # the server stores the log every few seconds while the run goes on: wait until the
        # printed line is stored, then kill the server without warning
        while (database.stored(run_id) or ("", 0))[1] <= printed["seq"]:
            await asyncio.sleep(0.2)
        assert (database.stored(run_id) or ("", 0))[0] == "running"
        proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(proc.wait, 60)
        await client.ws.close()
        return run_id, int(printed["seq"])

    with server_process(db, env) as (base, proc):
        run_id, printed_seq = asyncio.run(scenario(base, proc))
    with server_process(db, env) as (base, _):
        events = _check_interrupted(base, run_id)
        health = web.get(f"http://{base}/healthz").json()
        assert health["storage"]["interrupted_on_start"] == 1
    assert events[-1]["seq"] >= printed_seq + 1
