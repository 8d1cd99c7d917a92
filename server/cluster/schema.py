"""The cluster's own tables (the run log itself is the run store's): the job queue and the
runners' heartbeats. Made idempotently by whichever process starts first."""

from __future__ import annotations

import psycopg

# (an arbitrary constant: the advisory lock that serializes concurrent first starts)
_LOCK = 7_214_031_883
_DDL = """
CREATE TABLE IF NOT EXISTS run_jobs (
    run_id text PRIMARY KEY,
    code text NOT NULL,
    options jsonb NOT NULL,
    owner text NOT NULL,
    quota text NOT NULL,
    state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed')),
    stop text,
    runner text,
    created timestamptz NOT NULL DEFAULT clock_timestamp(),
    claimed timestamptz
);
CREATE INDEX IF NOT EXISTS run_jobs_queued ON run_jobs (created) WHERE state = 'queued';
CREATE TABLE IF NOT EXISTS runners (
    id text PRIMARY KEY,
    slots integer NOT NULL,
    heartbeat timestamptz NOT NULL
);
"""


async def ensure_schema(db: psycopg.AsyncConnection[object]) -> None:
    """Create the tables when missing (a job row exists while its run is queued or running:
    it is deleted once the run's end is stored)."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        await db.execute(_DDL)
