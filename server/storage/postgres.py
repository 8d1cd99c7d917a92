"""Runs in PostgreSQL (psycopg 3): the RunStore of sqlite.py, for several app replicas and
runner processes writing one database.

Called from threads (asyncio.to_thread) like the SQLite store, through a pool of connections.
Writes that count bytes (begin, append, finish, save, evict, interrupt) take one advisory lock
for their transaction, as SQLite's single writer does: the store's total is one counter, and
an eviction must see every save before it (two replicas evicting at once would otherwise both
delete for the same overflow). Reads never wait for writes.

>>> store = PostgresRunStore("postgresql://backscope@db/backscope")   # migrated at open
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import orjson
import psycopg
from psycopg_pool import ConnectionPool

from server.eventlog import Chunk, window
from server.storage.interface import RUNNING, Retention, StoredRun, Usage, run_row, stored_run
from server.storage.postgres_schema import COLUMNS, TOTAL, WRITE_LOCK, Conn, migrate

T = TypeVar("T")

_PLACES = ", ".join(["%s"] * 13)
_INSERT_RUN = f"INSERT INTO runs ({COLUMNS}, heartbeat) VALUES ({_PLACES})"
_INSERT_CHUNK = "INSERT INTO log_chunks (run_id, first_seq, last_seq, body) VALUES (%s, %s, %s, %s)"
# the oldest run (shared or not, as asked) of the quota key that holds the most bytes
_LARGEST_HOLDERS_OLDEST = (
    "SELECT runs.id FROM runs JOIN quota_bytes ON quota_bytes.quota = runs.quota"
    " WHERE runs.shared = %s AND runs.status != %s ORDER BY quota_bytes.bytes DESC, runs.created"
    " LIMIT 1"
)
# chunks read per query while cutting a page (a run's log can be far larger than a page)
_BATCH = 32


class PostgresRunStore:
    """Runs in a PostgreSQL database (see storage/postgres_schema.py for the layout)."""

    kind = "postgresql"

    def __init__(self, url: str, pool_size: int = 8, connect_timeout_s: float = 10.0) -> None:
        self.url = url
        self._closed = False
        # one connection first: its error says why (refused, no such database, password),
        # where a pool would only time out
        timeout = max(2, int(connect_timeout_s))
        with psycopg.connect(url, autocommit=True, connect_timeout=timeout) as db:
            self.migrated = migrate(db)
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"autocommit": True, "connect_timeout": timeout},
            # a connection the server dropped (a restart, a failover) is replaced before use
            # rather than failing a save or a read (an empty query per use)
            check=ConnectionPool.check_connection,
            open=False,
            name="backscope-runs",
        )
        self._pool.open(wait=True, timeout=connect_timeout_s)

    # -- writing --------------------------------------------------------------------------
    def _transaction(self, body: Callable[[Conn], T], counted: bool = True) -> T:
        if self._closed:
            raise RuntimeError("the store is closed")
        with self._pool.connection() as db, db.transaction():
            if counted:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            return body(db)

    def _insert_chunks(self, db: Conn, run_id: str, chunks: Sequence[Chunk]) -> None:
        rows = [(run_id, c.first, c.last, c.body) for c in chunks if c.count]
        if not rows:
            return
        with db.cursor() as cur:
            cur.executemany(_INSERT_CHUNK, rows)
        last = rows[-1][2]
        size = sum(len(r[3]) for r in rows)
        db.execute(
            "UPDATE runs SET bytes = bytes + %s, n_events = greatest(n_events, %s),"
            " heartbeat = %s WHERE id = %s",
            (size, last + 1, time.time(), run_id),
        )

    def begin(self, run: StoredRun) -> None:
        """Store a run that has started (status `running`), its log to come by `append`."""
        self._transaction(lambda db: db.execute(_INSERT_RUN, run_row(run)))

    def append(self, run_id: str, chunks: Sequence[Chunk]) -> None:
        """Add the next chunks of a run's log (cost: these chunks, whatever is stored).

        Committed without waiting for the WAL flush, so the write lock is not held through a
        disk sync: a database crash loses at most its last fraction of a second of appends,
        within what the server's flush interval already accepts (finish waits for the disk).
        """

        def write(db: Conn) -> None:
            db.execute("SET LOCAL synchronous_commit TO OFF")
            self._insert_chunks(db, run_id, chunks)

        self._transaction(write)

    def finish(self, run: StoredRun, chunks: Sequence[Chunk]) -> None:
        """Add a begun run's last chunks and its final status, duration and event count."""

        def write(db: Conn) -> None:
            self._insert_chunks(db, run.id, chunks)
            db.execute(
                "UPDATE runs SET status = %s, duration_ms = %s, n_events = %s, heartbeat = %s,"
                " shared = shared OR %s WHERE id = %s",
                (run.status, run.duration_ms, run.n_events, time.time(), run.shared, run.id),
            )

        self._transaction(write)

    def save(self, run: StoredRun, chunks: Sequence[Chunk]) -> None:
        """Store a whole run at once (replacing one of the same id)."""

        def write(db: Conn) -> None:
            self._delete(db, run.id)
            db.execute(_INSERT_RUN, run_row(run))
            self._insert_chunks(db, run.id, chunks)

        self._transaction(write)

    @staticmethod
    def _delete(db: Conn, run_id: str) -> None:
        db.execute("DELETE FROM log_chunks WHERE run_id = %s", (run_id,))
        db.execute("DELETE FROM runs WHERE id = %s", (run_id,))

    def mark_shared(self, run_id: str) -> None:
        """Someone other than its owner opened the run: evict it after never-shared ones."""
        self._transaction(
            lambda db: db.execute(
                "UPDATE runs SET shared = true WHERE id = %s AND NOT shared", (run_id,)
            ),
            counted=False,
        )

    def evict(self, retention: Retention, quota: str = "", incoming: int = 0) -> list[str]:
        """Delete runs until the store (and the quota key `quota`) have room for `incoming`
        more bytes and none is older than the retention allows (see Retention); returns the
        ids deleted."""

        def write(db: Conn) -> list[str]:
            gone: list[str] = []

            def take(query: str, args: tuple[Any, ...]) -> bool:
                row = db.execute(query, args).fetchone()
                if row is None:
                    return False
                self._delete(db, row[0])
                gone.append(row[0])
                return True

            if retention.max_age_s > 0:
                cutoff = time.time() - retention.max_age_s
                while take(
                    "SELECT id FROM runs WHERE created < %s AND status != %s"
                    " ORDER BY created LIMIT 1",
                    (cutoff, RUNNING),
                ):
                    pass
            if quota and retention.max_owner_bytes:
                while self._held(db, quota) + incoming > retention.max_owner_bytes and take(
                    "SELECT id FROM runs WHERE quota = %s AND status != %s"
                    " ORDER BY created LIMIT 1",
                    (quota, RUNNING),
                ):
                    pass
            for shared in (False, True):
                while self._held(db, TOTAL) + incoming > retention.max_store_bytes and take(
                    _LARGEST_HOLDERS_OLDEST, (shared, RUNNING)
                ):
                    pass
            return gone

        return self._transaction(write)

    @staticmethod
    def _held(db: Conn, quota: str) -> int:
        found = db.execute("SELECT bytes FROM quota_bytes WHERE quota = %s", (quota,)).fetchone()
        return int(found[0]) if found else 0

    def unfinished(self) -> list[tuple[str, str, float]]:
        """(id, instance, heartbeat) of every run still marked running."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT id, instance, heartbeat FROM runs WHERE status = %s", (RUNNING,)
            ).fetchall()
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def interrupt(self, run_id: str, status: str) -> bool:
        """End a run left `running` by a server that is gone: its log gets a run_finished
        with `status` after the last event saved. False when it was not running any more."""

        def write(db: Conn) -> bool:
            row = db.execute(
                "SELECT n_events, created, heartbeat FROM runs WHERE id = %s AND status = %s",
                (run_id, RUNNING),
            ).fetchone()
            if row is None:
                return False
            found = db.execute(
                "SELECT max(last_seq) FROM log_chunks WHERE run_id = %s", (run_id,)
            ).fetchone()
            seq = -1 if found is None or found[0] is None else int(found[0])
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
            self._insert_chunks(db, run_id, [Chunk(seq + 1, 1, orjson.dumps([finished]))])
            db.execute(
                "UPDATE runs SET status = %s, n_events = %s, duration_ms = %s WHERE id = %s",
                (status, seq + 2, duration_ns / 1e6, run_id),
            )
            return True

        return self._transaction(write)

    # -- reading --------------------------------------------------------------------------
    def _read(self, body: Callable[[Conn], T]) -> T:
        if self._closed:
            raise RuntimeError("the store is closed")
        with self._pool.connection() as db:
            return body(db)

    def get(self, run_id: str) -> StoredRun | None:
        row = self._read(
            lambda db: db.execute(f"SELECT {COLUMNS} FROM runs WHERE id = %s", (run_id,)).fetchone()
        )
        return None if row is None else stored_run(row)

    def chunks(
        self, run_id: str, after: int = -1, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]:
        """The events with seq > `after` (at most `limit`), as stored chunks cut to fit; with
        `max_bytes`, no more chunks once their bodies reach it (always at least one)."""

        def read(db: Conn) -> list[Chunk]:
            # the chunk holding `after` + 1 starts at or before it: find it by the index first
            found = db.execute(
                "SELECT max(first_seq) FROM log_chunks WHERE run_id = %s AND first_seq <= %s",
                (run_id, after + 1),
            ).fetchone()
            start = found[0] if found is not None and found[0] is not None else 0
            stored: list[Chunk] = []
            n = size = 0
            cursor = start - 1
            while True:
                batch = db.execute(
                    "SELECT first_seq, last_seq, body FROM log_chunks"
                    " WHERE run_id = %s AND first_seq > %s ORDER BY first_seq LIMIT %s",
                    (run_id, cursor, _BATCH),
                ).fetchall()
                for first, last, body in batch:
                    cursor = first
                    if last <= after:
                        continue
                    stored.append(Chunk(first, last - first + 1, bytes(body)))
                    n += last - max(first - 1, after)
                    size += len(body)
                    if (limit is not None and n >= limit) or (
                        max_bytes is not None and size >= max_bytes
                    ):
                        return stored
                if len(batch) < _BATCH:
                    return stored

        return window(self._read(read), after, limit)

    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The events with seq > `after` (at most `limit`) as dicts."""
        return [e for c in self.chunks(run_id, after, limit) for e in c.events()]

    def usage(self) -> Usage:
        def read(db: Conn) -> tuple[int, int, int]:
            row = db.execute(
                "SELECT runs, bytes, pg_database_size(current_database()) FROM quota_bytes"
                " WHERE quota = %s",
                (TOTAL,),
            ).fetchone()
            if row is None:
                size = db.execute("SELECT pg_database_size(current_database())").fetchone()
                return 0, 0, int(size[0]) if size else 0
            return int(row[0]), int(row[1]), int(row[2])

        return Usage(*self._read(read))

    def close(self) -> None:
        self._closed = True
        self._pool.close()
