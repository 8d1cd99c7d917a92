"""The shared run queue: one row per queued or running job in `run_jobs` (schema.py).

Claiming is `UPDATE ... WHERE run_id IN (SELECT ... FOR UPDATE SKIP LOCKED)`: concurrent
runners each lock different rows, so a job is taken exactly once and nobody waits on another's
claim. A job row is deleted once its run's end is stored (`done`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

JOBS_CHANNEL = "backscope_jobs"  # "a job was queued": idle runners wake and claim

_CLAIM = """
UPDATE run_jobs SET state = 'claimed', runner = %s, claimed = clock_timestamp()
WHERE run_id IN (
    SELECT run_id FROM run_jobs WHERE state = 'queued'
    ORDER BY created LIMIT %s FOR UPDATE SKIP LOCKED
)
RETURNING run_id, code, options, owner, quota, stop, state, runner
"""
_FIELDS = "run_id, code, options, owner, quota, stop, state, runner"


@dataclass(frozen=True)
class Job:
    """A run asked for: by whom (the owner key's digest, the quota key's digest), and where
    it is (`queued`, or `claimed` by `runner`); `stop` when its owner stopped it already."""

    run_id: str
    code: str
    options: dict[str, Any]
    owner: str
    quota: str
    stop: str | None = None
    state: str = "queued"
    runner: str | None = None


def _job(row: tuple[Any, ...]) -> Job:
    return Job(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7])


class JobQueue:
    """The queue's operations, on a pool of the database's connections."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.pool = pool

    async def enqueue(self, job: Job) -> None:
        """Queue a job and wake the runners (the notification goes out at commit)."""
        async with self.pool.connection() as db, db.transaction():
            await db.execute(
                "INSERT INTO run_jobs (run_id, code, options, owner, quota, stop)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (job.run_id, job.code, Jsonb(job.options), job.owner, job.quota, job.stop),
            )
            await db.execute("SELECT pg_notify(%s, '')", (JOBS_CHANNEL,))

    async def claim(self, runner: str, n: int) -> list[Job]:
        """Take up to `n` queued jobs, oldest first, for `runner`."""
        if n <= 0:
            return []
        async with self.pool.connection() as db:
            rows = await (await db.execute(_CLAIM, (runner, n))).fetchall()
        return [_job(r) for r in rows]

    async def get(self, run_id: str) -> Job | None:
        async with self.pool.connection() as db:
            cur = await db.execute(f"SELECT {_FIELDS} FROM run_jobs WHERE run_id = %s", (run_id,))
            row = await cur.fetchone()
        return None if row is None else _job(row)

    async def stop(self, run_id: str, reason: str) -> None:
        """Note that the job's owner stopped it (a runner that claims it later ends it)."""
        async with self.pool.connection() as db:
            await db.execute(
                "UPDATE run_jobs SET stop = coalesce(stop, %s) WHERE run_id = %s",
                (reason, run_id),
            )

    async def done(self, run_id: str, runner: str | None = None) -> bool:
        """The job's run has its end stored: forget the job. With `runner`, only while that
        runner holds it (two sweepers of a dead runner: one of them ends each run)."""
        async with self.pool.connection() as db:
            if runner is None:
                cur = await db.execute("DELETE FROM run_jobs WHERE run_id = %s", (run_id,))
            else:
                cur = await db.execute(
                    "DELETE FROM run_jobs WHERE run_id = %s AND runner = %s", (run_id, runner)
                )
            return cur.rowcount > 0

    async def claimed(self) -> list[tuple[str, str]]:
        """(run_id, runner) of every claimed job."""
        async with self.pool.connection() as db:
            cur = await db.execute("SELECT run_id, runner FROM run_jobs WHERE state = 'claimed'")
            return [(r[0], r[1]) for r in await cur.fetchall()]

    async def waiting(self) -> int:
        async with self.pool.connection() as db:
            cur = await db.execute("SELECT count(*) FROM run_jobs WHERE state = 'queued'")
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    # -- runners ---------------------------------------------------------------------------
    async def heartbeat(self, runner: str, slots: int) -> None:
        async with self.pool.connection() as db:
            await db.execute(
                "INSERT INTO runners (id, slots, heartbeat) VALUES (%s, %s, clock_timestamp())"
                " ON CONFLICT (id) DO UPDATE SET heartbeat = clock_timestamp(), slots = %s",
                (runner, slots, slots),
            )

    async def runners(self) -> dict[str, float]:
        """Each runner's seconds since its last heartbeat (the database's clock)."""
        async with self.pool.connection() as db:
            cur = await db.execute(
                "SELECT id, extract(epoch FROM clock_timestamp() - heartbeat) FROM runners"
            )
            return {r[0]: float(r[1]) for r in await cur.fetchall()}

    async def forget_runner(self, runner: str) -> None:
        async with self.pool.connection() as db:
            await db.execute("DELETE FROM runners WHERE id = %s", (runner,))
