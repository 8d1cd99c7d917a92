"""Versioned migrations (server/storage/migrations.py): an old database is brought to this
server's version at open, once, by whichever replica gets there first; a database written by a
newer server is refused with its reason."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import psycopg
import pytest

from server.eventlog import Chunk
from server.storage import (
    Retention,
    SqliteRunStore,
    StoredRun,
    StoreUnavailable,
    postgres_schema,
    sqlite_schema,
)
from server.storage.migrations import Migration, check_steps
from server.storage.postgres import PostgresRunStore
from tests.postgres_server import PostgresServer


def _run(store: Any, run_id: str, owner: str) -> None:
    body = orjson.dumps([{"type": "stdout", "text": "x", "t": 0}])
    store.save(
        StoredRun(run_id, "code", "ok", {}, time.time(), 1.0, 1, owner=owner), [Chunk(0, 1, body)]
    )


def test_each_backends_steps_are_numbered_without_gaps() -> None:
    for steps in (sqlite_schema.STEPS, postgres_schema.STEPS):
        check_steps(steps)
    with pytest.raises(ValueError, match="consecutive"):
        check_steps([Migration(1, "a", print), Migration(3, "c", print)])


def _versions(url: str) -> list[int]:
    with psycopg.connect(url) as db:
        return [r[0] for r in db.execute("SELECT version FROM schema_migrations ORDER BY 1")]


def test_a_postgres_database_at_version_1_is_upgraded_and_counts_what_it_holds(
    postgres: PostgresServer,
) -> None:
    url = postgres.create_database()
    with psycopg.connect(url, autocommit=True) as db:
        assert postgres_schema.migrate(db, postgres_schema.STEPS[:1]) == [1]
        # what a version-1 server stored: two runs of one key, one of another
        for run_id, quota, size in (("r1", "k1", 100), ("r2", "k1", 50), ("r3", "k2", 7)):
            db.execute(
                "INSERT INTO runs (id, code, status, options, created, duration_ms, n_events,"
                " owner, bytes, quota) VALUES (%s, 'c', 'ok', '{}', %s, 1, 1, %s, %s, %s)",
                (run_id, float(size), quota, size, quota),
            )
    store = PostgresRunStore(url)
    assert store.migrated == [2]
    assert _versions(url) == [1, 2]
    assert (store.usage().runs, store.usage().bytes) == (3, 157)
    # the counts are live: k1 over a 60-byte share loses its oldest (r2, created first)
    assert store.evict(Retention(1 << 40, max_owner_bytes=60), quota="k1") == ["r2", "r1"]
    assert (store.usage().runs, store.usage().bytes) == (1, 7)
    store.close()
    again = PostgresRunStore(url)  # the second open finds nothing to do
    assert again.migrated == [] and _versions(url) == [1, 2]
    again.close()


def test_replicas_opening_a_fresh_postgres_database_at_once_migrate_it_once(
    postgres: PostgresServer,
) -> None:
    url = postgres.create_database()
    migrated: list[list[int]] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            store = PostgresRunStore(url)
            migrated.append(store.migrated)
            store.close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(migrated) == [[], [], [], [1, 2]]
    assert _versions(url) == [1, 2]


def test_a_postgres_database_from_a_newer_server_is_refused(postgres: PostgresServer) -> None:
    url = postgres.create_database()
    PostgresRunStore(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("INSERT INTO schema_migrations (version, summary) VALUES (99, 'future')")
    with pytest.raises(StoreUnavailable, match="schema version 99"):
        PostgresRunStore(url)


def test_an_sqlite_file_from_a_newer_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    SqliteRunStore(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreUnavailable, match="schema version 99"):
        SqliteRunStore(path)


VERSION_3 = """
CREATE TABLE runs (id TEXT PRIMARY KEY, code TEXT NOT NULL, status TEXT NOT NULL,
    options TEXT NOT NULL, created REAL NOT NULL, duration_ms REAL NOT NULL,
    n_events INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '', bytes INTEGER NOT NULL DEFAULT 0,
    shared INTEGER NOT NULL DEFAULT 0, instance TEXT NOT NULL DEFAULT '',
    heartbeat REAL NOT NULL DEFAULT 0);
CREATE TABLE log_chunks (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, body BLOB NOT NULL);
CREATE TABLE owner_bytes (owner TEXT PRIMARY KEY, bytes INTEGER NOT NULL, runs INTEGER NOT NULL);
CREATE TRIGGER runs_added AFTER INSERT ON runs BEGIN
    INSERT INTO owner_bytes VALUES (new.owner, new.bytes, 1), ('*', new.bytes, 1)
    ON CONFLICT (owner) DO UPDATE SET bytes = bytes + excluded.bytes, runs = runs + 1;
END;
INSERT INTO runs VALUES ('r1', 'c', 'ok', '{}', 1.0, 1.0, 1, 'own1', 0, 0, '', 0);
INSERT INTO log_chunks (run_id, first_seq, last_seq, body) VALUES ('r1', 0, 0, '[{"t":0}]');
PRAGMA user_version = 3;
"""


def test_a_version_3_sqlite_store_counts_its_runs_per_quota_key(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(VERSION_3)
    old.close()
    store = SqliteRunStore(path)
    assert store.migrated == [sqlite_schema.VERSION]
    run = store.get("r1")
    assert run is not None and run.quota == "own1" and run.bytes == len("c") + len('[{"t":0}]')
    _run(store, "r2", owner="own1")
    assert store.usage().runs == 2
    cap = store.get("r2").bytes  # type: ignore[union-attr]
    assert store.evict(Retention(1 << 40, max_owner_bytes=cap), quota="own1") == ["r1"]
    store.close()


# The layout before chunks: one row per event (what a file written by an older server holds).
VERSION_0 = """
CREATE TABLE runs (id TEXT PRIMARY KEY, code TEXT NOT NULL, status TEXT NOT NULL,
    options TEXT NOT NULL, created REAL NOT NULL, duration_ms REAL NOT NULL,
    n_events INTEGER NOT NULL);
CREATE TABLE events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
"""


def test_a_file_with_one_row_per_event_is_converted_once_and_reads_the_same(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    runs = {"a": 2500, "b": 3}  # more events than one converted chunk holds, and a few
    old = sqlite3.connect(path)
    old.executescript(VERSION_0)
    expected: dict[str, list[dict[str, Any]]] = {}
    for run_id, n in runs.items():
        old.execute("INSERT INTO runs VALUES (?, 'c', 'ok', '{}', 1.0, 2.0, ?)", (run_id, n))
        expected[run_id] = [{"type": "node", "run_id": run_id, "seq": i, "t": i} for i in range(n)]
        rows = [(run_id, e["seq"], orjson.dumps(e)) for e in expected[run_id]]
        old.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
    old.commit()
    old.close()
    for _ in range(2):  # the second open finds the file already converted
        store = SqliteRunStore(path)
        for run_id, events in expected.items():
            assert store.events(run_id) == events
            assert store.events(run_id, 998, 5) == events[999:1004]
            run = store.get(run_id)
            assert run is not None and run.n_events == len(events)
        store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == sqlite_schema.VERSION
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "events" not in tables
    db.close()
