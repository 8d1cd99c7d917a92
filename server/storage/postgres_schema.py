"""The PostgreSQL layout of stored runs, as numbered migration steps (migrations.py), recorded
in `schema_migrations` (one row per step applied, with when).

The same tables as SQLite's version 4 (sqlite_schema.py): `runs`, `log_chunks` (one JSON array
of events per row, appended at the end whatever the table holds), and `quota_bytes` (bytes and
runs per quota key, and the store's total under '*', kept by a trigger so a save checks its caps
without summing over every run). Steps run in one transaction under an advisory lock, so
replicas starting together migrate once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from server.storage.migrations import Migration, upgrade
from server.storage.sqlite_schema import COLUMNS, TOTAL

__all__ = ["COLUMNS", "STEPS", "TOTAL", "VERSION", "migrate"]

# advisory lock keys (pg_advisory_xact_lock; scoped to the database): one migrator at a time,
# and one writer at a time (the store's total bytes is one row every save updates)
MIGRATE_LOCK = 0x6273_0001
WRITE_LOCK = 0x6273_0002

_VERSIONS = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    summary TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)"""

_TABLES = (
    """CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        code TEXT NOT NULL,
        status TEXT NOT NULL,
        options TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        n_events BIGINT NOT NULL,
        owner TEXT NOT NULL DEFAULT '',
        bytes BIGINT NOT NULL DEFAULT 0,
        shared BOOLEAN NOT NULL DEFAULT false,
        instance TEXT NOT NULL DEFAULT '',
        heartbeat DOUBLE PRECISION NOT NULL DEFAULT 0,
        quota TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE log_chunks (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        run_id TEXT NOT NULL,
        first_seq BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        body BYTEA NOT NULL
    )""",
    "CREATE UNIQUE INDEX log_chunks_seq ON log_chunks (run_id, first_seq)",
    # eviction walks runs oldest first, never-shared before shared, or one quota key's
    "CREATE INDEX runs_age ON runs (shared, created)",
    "CREATE INDEX runs_quota ON runs (quota, created)",
    "CREATE INDEX runs_running ON runs (status) WHERE status = 'running'",
)

_QUOTAS = (
    """CREATE TABLE quota_bytes (
        quota TEXT PRIMARY KEY,
        bytes BIGINT NOT NULL,
        runs BIGINT NOT NULL
    )""",
    # '*' first, then the run's key: every writer takes the rows in the same order
    """CREATE FUNCTION runs_counted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
            UPDATE quota_bytes SET bytes = bytes - OLD.bytes, runs = runs - 1
            WHERE quota = '*';
            UPDATE quota_bytes SET bytes = bytes - OLD.bytes, runs = runs - 1
            WHERE quota = OLD.quota;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
            INSERT INTO quota_bytes VALUES ('*', NEW.bytes, 1) ON CONFLICT (quota) DO UPDATE
            SET bytes = quota_bytes.bytes + excluded.bytes, runs = quota_bytes.runs + 1;
            INSERT INTO quota_bytes VALUES (NEW.quota, NEW.bytes, 1) ON CONFLICT (quota) DO UPDATE
            SET bytes = quota_bytes.bytes + excluded.bytes, runs = quota_bytes.runs + 1;
        END IF;
        RETURN NULL;
    END
    $$""",
    """CREATE TRIGGER runs_counted AFTER INSERT OR DELETE OR UPDATE OF bytes, quota ON runs
    FOR EACH ROW EXECUTE FUNCTION runs_counted()""",
    # the counts of what the store already holds
    "INSERT INTO quota_bytes SELECT quota, sum(bytes), count(*) FROM runs GROUP BY quota",
    "INSERT INTO quota_bytes SELECT '*', coalesce(sum(bytes), 0), count(*) FROM runs",
)


Conn = psycopg.Connection[tuple[Any, ...]]


def _statements(*statements: str) -> Callable[[Conn], None]:
    def apply(db: Conn) -> None:
        for statement in statements:
            db.execute(statement)

    return apply


# the steps, oldest first: a new layout is a new step at the end (never edit a shipped one)
STEPS: tuple[Migration[Conn], ...] = (
    Migration(1, "runs and their logs", _statements(*_TABLES)),
    Migration(2, "bytes and runs counted per quota key", _statements(*_QUOTAS)),
)
VERSION = STEPS[-1].version


def current_version(db: Conn) -> int:
    """The version the database is at (0: none of our tables yet)."""
    db.execute(_VERSIONS)
    row = db.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return int(row[0]) if row else 0


def _record(db: Conn, step: Migration[Conn]) -> None:
    db.execute(
        "INSERT INTO schema_migrations (version, summary) VALUES (%s, %s)",
        (step.version, step.summary),
    )


def migrate(db: Conn, steps: tuple[Migration[Conn], ...] = STEPS) -> list[int]:
    """Bring the database to the last of `steps` (in one transaction, one migrator at a
    time); returns the versions applied."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
        return upgrade(db, steps, current_version(db), _record)
