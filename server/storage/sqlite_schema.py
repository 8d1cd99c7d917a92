"""The SQLite layout of stored runs, and the conversion of files written by older servers
(numbered steps: server/storage/migrations.py).

Version 4 (PRAGMA user_version): a run's log is rows of `log_chunks`, one JSON array of events
per row with its seq range, in an ordinary rowid table with an index on (run_id, first_seq).
New rows go at the end of the table whatever it already holds, so saving a run costs what
the run is, not what the store is. Each run names the quota key its bytes count against
(`quota`, kept per key in `quota_bytes`). (Version 3 counted bytes per owner, and a client
without an owner token is a new owner on every connection. Version 2 kept the chunks in a
WITHOUT ROWID table keyed by (run_id, first_seq): each save inserted megabytes of rows at a
random place of one B-tree, and saves slowed down with every run stored — 6 s for 2,000 small
chunks on a 700 MB store.)
Version 0 kept one row per event in `events`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator

from server.storage.migrations import Migration, upgrade

RUNS = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    duration_ms REAL NOT NULL,
    n_events INTEGER NOT NULL
)"""
# columns added by versions 3 and 4 (to an older `runs` table too)
RUN_COLUMNS = (
    ("owner", "TEXT NOT NULL DEFAULT ''"),
    ("bytes", "INTEGER NOT NULL DEFAULT 0"),
    ("shared", "INTEGER NOT NULL DEFAULT 0"),
    ("instance", "TEXT NOT NULL DEFAULT ''"),
    ("heartbeat", "REAL NOT NULL DEFAULT 0"),
    ("quota", "TEXT NOT NULL DEFAULT ''"),
)
# what version 3 counted per owner (replaced by the same per quota key)
_OLD = (
    "DROP TRIGGER IF EXISTS runs_added",
    "DROP TRIGGER IF EXISTS runs_removed",
    "DROP TRIGGER IF EXISTS runs_grown",
    "DROP TABLE IF EXISTS owner_bytes",
    "DROP INDEX IF EXISTS runs_owner",
)
TABLES = (
    """CREATE TABLE IF NOT EXISTS log_chunks (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        body BLOB NOT NULL
    )""",
    "CREATE UNIQUE INDEX IF NOT EXISTS log_chunks_seq ON log_chunks (run_id, first_seq)",
    # eviction walks runs oldest first, never-shared before shared, or one quota key's
    "CREATE INDEX IF NOT EXISTS runs_age ON runs (shared, created)",
    "CREATE INDEX IF NOT EXISTS runs_quota ON runs (quota, created)",
    "CREATE INDEX IF NOT EXISTS runs_running ON runs (status) WHERE status = 'running'",
    # bytes and runs per quota key, and the store's total under key '*', kept by triggers: a
    # save checks its caps without summing over every stored run
    """CREATE TABLE IF NOT EXISTS quota_bytes (
        quota TEXT PRIMARY KEY,
        bytes INTEGER NOT NULL,
        runs INTEGER NOT NULL
    )""",
    """CREATE TRIGGER IF NOT EXISTS runs_added AFTER INSERT ON runs BEGIN
        INSERT INTO quota_bytes VALUES (new.quota, new.bytes, 1), ('*', new.bytes, 1)
        ON CONFLICT (quota) DO UPDATE SET bytes = bytes + excluded.bytes, runs = runs + 1;
    END""",
    """CREATE TRIGGER IF NOT EXISTS runs_removed AFTER DELETE ON runs BEGIN
        UPDATE quota_bytes SET bytes = bytes - old.bytes, runs = runs - 1
        WHERE quota IN (old.quota, '*');
    END""",
    """CREATE TRIGGER IF NOT EXISTS runs_grown AFTER UPDATE OF bytes, quota ON runs BEGIN
        UPDATE quota_bytes SET bytes = bytes - old.bytes, runs = runs - 1
        WHERE quota IN (old.quota, '*');
        INSERT INTO quota_bytes VALUES (new.quota, new.bytes, 1), ('*', new.bytes, 1)
        ON CONFLICT (quota) DO UPDATE SET bytes = bytes + excluded.bytes, runs = runs + 1;
    END""",
)
TOTAL = "*"
COLUMNS = (
    "id, code, status, options, created, duration_ms, n_events, owner, bytes, shared, instance,"
    " quota"
)
# how many version-0 event rows become one chunk
_MIGRATE_CHUNK = 1000


def migrate(db: sqlite3.Connection) -> list[int]:
    """Create the tables, or bring an older file to the latest version (inside the caller's
    transaction); returns the versions applied."""
    current = int(db.execute("PRAGMA user_version").fetchone()[0])
    return upgrade(db, STEPS, current, _record)


def _record(db: sqlite3.Connection, step: Migration[sqlite3.Connection]) -> None:
    db.execute(f"PRAGMA user_version = {int(step.version)}")


def _to_4(db: sqlite3.Connection) -> None:
    """Create the tables, or bring a file of version 0, 2 or 3 to version 4."""
    db.execute(RUNS)
    have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    for name, decl in RUN_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE runs ADD COLUMN {name} {decl}")
    db.execute("UPDATE runs SET quota = owner WHERE quota = ''")
    for statement in (*_OLD, *TABLES):
        db.execute(statement)
    if _has_table(db, "events"):  # version 0: one row per event
        rows = db.execute("SELECT run_id, seq, body FROM events ORDER BY run_id, seq")
        db.executemany(
            "INSERT INTO log_chunks (run_id, first_seq, last_seq, body) VALUES (?, ?, ?, ?)",
            _regroup(rows),
        )
        db.execute("DROP TABLE events")
    if _has_table(db, "event_chunks"):  # version 2
        db.execute(
            "INSERT INTO log_chunks (run_id, first_seq, last_seq, body)"
            " SELECT run_id, first_seq, last_seq, body FROM event_chunks"
            " ORDER BY run_id, first_seq"
        )
        db.execute("DROP TABLE event_chunks")
    db.execute(
        "UPDATE runs SET bytes = length(CAST(code AS BLOB)) + coalesce((SELECT"
        " sum(length(body)) FROM log_chunks WHERE log_chunks.run_id = runs.id), 0)"
    )
    db.execute("DELETE FROM quota_bytes")
    db.execute(
        "INSERT INTO quota_bytes SELECT quota, sum(bytes), count(*) FROM runs GROUP BY quota"
        " UNION ALL SELECT '*', coalesce(sum(bytes), 0), count(*) FROM runs"
    )


# the steps (server/storage/migrations.py); versions 1 to 3 were never steps of their own
STEPS: tuple[Migration[sqlite3.Connection], ...] = (
    Migration(4, "chunks in a rowid table, bytes counted per quota key", _to_4),
)
VERSION = STEPS[-1].version


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,))
    return found.fetchone() is not None


def _regroup(rows: Iterable[tuple[str, int, bytes]]) -> Iterator[tuple[str, int, int, bytes]]:
    """Version-0 rows (run, seq, one event's JSON), in order, as chunk rows; a chunk never
    spans two runs or a gap in seq."""
    run_id, first, bodies = "", 0, list[bytes]()
    for rid, seq, body in rows:
        full = len(bodies) >= _MIGRATE_CHUNK
        if bodies and (rid != run_id or seq != first + len(bodies) or full):
            yield run_id, first, first + len(bodies) - 1, b"[" + b",".join(bodies) + b"]"
            bodies = []
        if not bodies:
            run_id, first = rid, seq
        bodies.append(body)
    if bodies:
        yield run_id, first, first + len(bodies) - 1, b"[" + b",".join(bodies) + b"]"
