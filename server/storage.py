"""Stored runs: code, status, timings and the complete event list, in an SQLite file.

One small interface (`RunStore`) so another database can stand behind it later.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

from server.eventlog import Chunk, window

# Schema version 2 (PRAGMA user_version): events are stored as the chunks the server sent,
# one JSON array per row with its seq range. Version 0 kept one row per event in `events`;
# opening such a file converts it once (see _migrate).
VERSION = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    duration_ms REAL NOT NULL,
    n_events INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS event_chunks (
    run_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_id, first_seq)
) WITHOUT ROWID;
"""
# how many version-0 event rows become one chunk
_MIGRATE_CHUNK = 1000


@dataclass
class StoredRun:
    id: str
    code: str
    status: str
    options: dict[str, Any]
    created: float
    duration_ms: float
    n_events: int


class RunStore(Protocol):
    def save(self, run: StoredRun, chunks: Sequence[Chunk]) -> None: ...
    def get(self, run_id: str) -> StoredRun | None: ...
    def chunks(
        self, run_id: str, after: int = -1, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]: ...
    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]: ...


class SqliteRunStore:
    """Runs in one SQLite file (WAL, one connection guarded by a lock)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        # another server process may be opening the same file: wait for its migration
        self._db.execute("PRAGMA busy_timeout=30000")
        self._transaction(self._migrate, immediate=True)

    def _transaction(self, body: Callable[[], None], immediate: bool = False) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
            try:
                body()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _migrate(self) -> None:
        """Create the tables, or bring a version-0 file (one row per event) to chunks."""
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version >= VERSION:
            return
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        old = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='events'")
        if old.fetchone() is not None:
            rows = db.execute("SELECT run_id, seq, body FROM events ORDER BY run_id, seq")
            db.executemany("INSERT INTO event_chunks VALUES (?, ?, ?, ?)", _regroup(rows))
            db.execute("DROP TABLE events")
        db.execute(f"PRAGMA user_version = {VERSION}")

    def save(self, run: StoredRun, chunks: Sequence[Chunk]) -> None:
        rows = [(run.id, c.first, c.last, c.body) for c in chunks if c.count]
        meta = (
            run.id,
            run.code,
            run.status,
            orjson.dumps(run.options).decode(),
            run.created,
            run.duration_ms,
            run.n_events,
        )

        def write() -> None:
            self._db.execute("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)", meta)
            self._db.execute("DELETE FROM event_chunks WHERE run_id = ?", (run.id,))
            self._db.executemany("INSERT INTO event_chunks VALUES (?, ?, ?, ?)", rows)

        self._transaction(write)

    def get(self, run_id: str) -> StoredRun | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return StoredRun(row[0], row[1], row[2], orjson.loads(row[3]), row[4], row[5], row[6])

    def chunks(
        self, run_id: str, after: int = -1, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]:
        """The events with seq > `after` (at most `limit`), as stored chunks cut to fit; with
        `max_bytes`, no more chunks once their bodies reach it (always at least one)."""
        q = (
            "SELECT first_seq, last_seq, body FROM event_chunks"
            " WHERE run_id = ? AND last_seq > ? ORDER BY first_seq"
        )
        stored: list[Chunk] = []
        with self._lock:
            n = size = 0
            for first, last, body in self._db.execute(q, (run_id, after)):
                stored.append(Chunk(first, last - first + 1, body))
                n += last - max(first - 1, after)
                size += len(body)
                if (limit is not None and n >= limit) or (
                    max_bytes is not None and size >= max_bytes
                ):
                    break
        return window(stored, after, limit)

    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The events with seq > `after` (at most `limit`) as dicts."""
        return [e for c in self.chunks(run_id, after, limit) for e in c.events()]

    def close(self) -> None:
        with self._lock:
            self._db.close()


# what one read of a stored run holds in memory at most (plus one chunk): a run's log can be
# large, and many clients reading it at once must not each load all of it
PAGE_BYTES = 4 << 20


async def pages(
    store: RunStore, run_id: str, after: int = -1, limit: int | None = None
) -> AsyncIterator[Chunk]:
    """The chunks of a stored run after `after` (at most `limit` events), read a page at a
    time in a thread as the consumer asks for them."""
    while limit is None or limit > 0:
        page = await asyncio.to_thread(store.chunks, run_id, after, limit, PAGE_BYTES)
        if not page:
            return
        for chunk in page:
            yield chunk
        after = page[-1].last
        if limit is not None:
            limit -= sum(chunk.count for chunk in page)


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


def now() -> float:
    return time.time()
