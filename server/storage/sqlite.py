"""Runs in one SQLite file: a writer connection behind a lock, a reader connection per thread
(WAL: reads never wait for a save)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from server.eventlog import Chunk, window
from server.storage.interface import RUNNING, Retention, StoredRun, Usage, run_row, stored_run
from server.storage.sqlite_schema import COLUMNS, TOTAL, migrate

# the oldest run (shared or not, as asked) of the quota key that holds the most bytes
_LARGEST_HOLDERS_OLDEST = (
    "SELECT runs.id FROM runs JOIN quota_bytes ON quota_bytes.quota = runs.quota"
    " WHERE runs.shared = ? AND runs.status != ? ORDER BY quota_bytes.bytes DESC, runs.created"
    " LIMIT 1"
)
_INSERT_CHUNK = "INSERT INTO log_chunks (run_id, first_seq, last_seq, body) VALUES (?, ?, ?, ?)"


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    # another server process may be writing the same file: wait for it
    db.execute("PRAGMA busy_timeout=30000")
    return db


class SqliteRunStore:
    """Runs in one SQLite file (see storage/sqlite_schema.py for the layout)."""

    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._closed = False
        self._db = connect(path)
        fresh = self._db.execute("PRAGMA page_count").fetchone()[0] == 0
        if fresh:  # pages freed by evictions can be given back (only settable while empty)
            self._db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self.migrated: list[int] = []
        self._transaction(lambda: self.migrated.extend(migrate(self._db)), immediate=True)
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []

    # -- writing --------------------------------------------------------------------------
    def _transaction(self, body: Callable[[], None], immediate: bool = True) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._db.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
            try:
                body()
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _insert_chunks(self, run_id: str, chunks: Sequence[Chunk]) -> None:
        rows = [(run_id, c.first, c.last, c.body) for c in chunks if c.count]
        if not rows:
            return
        self._db.executemany(_INSERT_CHUNK, rows)
        last = rows[-1][2]
        size = sum(len(r[3]) for r in rows)
        self._db.execute(
            "UPDATE runs SET bytes = bytes + ?, n_events = max(n_events, ?), heartbeat = ?"
            " WHERE id = ?",
            (size, last + 1, time.time(), run_id),
        )

    def begin(self, run: StoredRun) -> None:
        """Store a run that has started (status `running`), its log to come by `append`."""

        def write() -> None:
            self._db.execute(
                f"INSERT INTO runs ({COLUMNS}, heartbeat) VALUES ({', '.join('?' * 13)})",
                run_row(run),
            )

        self._transaction(write)

    def append(self, run_id: str, chunks: Sequence[Chunk]) -> None:
        """Add the next chunks of a run's log (cost: these chunks, whatever is stored)."""
        self._transaction(lambda: self._insert_chunks(run_id, chunks))

    def finish(self, run: StoredRun, chunks: Sequence[Chunk]) -> None:
        """Add a begun run's last chunks and its final status, duration and event count."""

        def write() -> None:
            self._insert_chunks(run.id, chunks)
            self._db.execute(
                "UPDATE runs SET status = ?, duration_ms = ?, n_events = ?, heartbeat = ?,"
                " shared = max(shared, ?) WHERE id = ?",
                (run.status, run.duration_ms, run.n_events, time.time(), int(run.shared), run.id),
            )

        self._transaction(write)

    def save(self, run: StoredRun, chunks: Sequence[Chunk]) -> None:
        """Store a whole run at once (replacing one of the same id)."""

        def write() -> None:
            self._delete(run.id)
            self._db.execute(
                f"INSERT INTO runs ({COLUMNS}, heartbeat) VALUES ({', '.join('?' * 13)})",
                run_row(run),
            )
            self._insert_chunks(run.id, chunks)

        self._transaction(write)

    def _delete(self, run_id: str) -> None:
        self._db.execute("DELETE FROM log_chunks WHERE run_id = ?", (run_id,))
        self._db.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    def mark_shared(self, run_id: str) -> None:
        """Someone other than its owner opened the run: evict it after never-shared ones."""

        def write() -> None:
            self._db.execute("UPDATE runs SET shared = 1 WHERE id = ? AND shared = 0", (run_id,))

        self._transaction(write)

    def evict(self, retention: Retention, quota: str = "", incoming: int = 0) -> list[str]:
        """Delete runs until the store (and the quota key `quota`) have room for `incoming`
        more bytes and none is older than the retention allows (see Retention); returns the
        ids deleted."""
        gone: list[str] = []

        def take(query: str, args: tuple[Any, ...]) -> bool:
            row = self._db.execute(query, args).fetchone()
            if row is None:
                return False
            self._delete(row[0])
            gone.append(row[0])
            return True

        def write() -> None:
            if retention.max_age_s > 0:
                cutoff = time.time() - retention.max_age_s
                while take(
                    "SELECT id FROM runs WHERE created < ? AND status != ?"
                    " ORDER BY created LIMIT 1",
                    (cutoff, RUNNING),
                ):
                    pass
            if quota and retention.max_owner_bytes:
                while self._held(quota) + incoming > retention.max_owner_bytes and take(
                    "SELECT id FROM runs WHERE quota = ? AND status != ? ORDER BY created LIMIT 1",
                    (quota, RUNNING),
                ):
                    pass
            for shared in (0, 1):
                while self._held(TOTAL) + incoming > retention.max_store_bytes and take(
                    _LARGEST_HOLDERS_OLDEST, (shared, RUNNING)
                ):
                    pass

        self._transaction(write)
        return gone

    def _held(self, quota: str) -> int:
        row = self._db.execute("SELECT bytes FROM quota_bytes WHERE quota = ?", (quota,))
        found = row.fetchone()
        return int(found[0]) if found else 0

    def unfinished(self) -> list[tuple[str, str, float]]:
        """(id, instance, heartbeat) of every run still marked running."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, instance, heartbeat FROM runs WHERE status = ?", (RUNNING,)
            ).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def interrupt(self, run_id: str, status: str) -> bool:
        """End a run left `running` by a server that is gone: its log gets a run_finished
        with `status` after the last event saved. False when it was not running any more."""

        done = [False]

        def write() -> None:
            row = self._db.execute(
                "SELECT n_events, created, heartbeat FROM runs WHERE id = ? AND status = ?",
                (run_id, RUNNING),
            ).fetchone()
            if row is None:
                return
            last = self._db.execute(
                "SELECT max(last_seq) FROM log_chunks WHERE run_id = ?", (run_id,)
            ).fetchone()[0]
            seq = -1 if last is None else int(last)
            duration_ns = max(0, int((row[2] - row[1]) * 1e9))
            finished = {
                "type": "run_finished",
                "t": duration_ns,
                "status": status,
                "events": seq + 2,
                "duration_ns": duration_ns,
                "run_id": run_id,
                "seq": seq + 1,
            }
            self._insert_chunks(run_id, [Chunk(seq + 1, 1, orjson.dumps([finished]))])
            self._db.execute(
                "UPDATE runs SET status = ?, n_events = ?, duration_ms = ? WHERE id = ?",
                (status, seq + 2, duration_ns / 1e6, run_id),
            )
            done[0] = True

        self._transaction(write)
        return done[0]

    # -- reading --------------------------------------------------------------------------
    def _reader(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = connect(self.path)
            self._local.db = db
            with self._lock:
                self._readers.append(db)
        return db

    def get(self, run_id: str) -> StoredRun | None:
        row = (
            self._reader().execute(f"SELECT {COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
        )
        return None if row is None else stored_run(row)

    def chunks(
        self, run_id: str, after: int = -1, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]:
        """The events with seq > `after` (at most `limit`), as stored chunks cut to fit; with
        `max_bytes`, no more chunks once their bodies reach it (always at least one)."""
        q = (
            "SELECT first_seq, last_seq, body FROM log_chunks"
            " WHERE run_id = ? AND first_seq > ? ORDER BY first_seq"
        )
        db = self._reader()
        stored: list[Chunk] = []
        # the chunk holding `after` + 1 starts at or before it: find it by the index first
        start = db.execute(
            "SELECT max(first_seq) FROM log_chunks WHERE run_id = ? AND first_seq <= ?",
            (run_id, after + 1),
        ).fetchone()[0]
        n = size = 0
        for first, last, body in db.execute(q, (run_id, (start if start is not None else 0) - 1)):
            if last <= after:
                continue
            stored.append(Chunk(first, last - first + 1, body))
            n += last - max(first - 1, after)
            size += len(body)
            if (limit is not None and n >= limit) or (max_bytes is not None and size >= max_bytes):
                break
        return window(stored, after, limit)

    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The events with seq > `after` (at most `limit`) as dicts."""
        return [e for c in self.chunks(run_id, after, limit) for e in c.events()]

    def usage(self) -> Usage:
        db = self._reader()
        row = db.execute("SELECT runs, bytes FROM quota_bytes WHERE quota = ?", (TOTAL,))
        found = row.fetchone() or (0, 0)
        size = self.path.stat().st_size if self.path.exists() else 0
        return Usage(int(found[0]), int(found[1]), size)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for db in self._readers:
                db.close()
            self._readers.clear()
            self._db.close()
