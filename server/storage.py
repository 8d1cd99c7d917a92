"""Stored runs: code, status, timings and the complete event list, in an SQLite file.

One small interface (`RunStore`) so another database can stand behind it later.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson

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
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
"""


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
    def save(self, run: StoredRun, events: list[dict[str, Any]]) -> None: ...
    def get(self, run_id: str) -> StoredRun | None: ...
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
        self._db.executescript(_SCHEMA)

    def save(self, run: StoredRun, events: list[dict[str, Any]]) -> None:
        rows = [(run.id, e["seq"], orjson.dumps(e)) for e in events]
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        run.id,
                        run.code,
                        run.status,
                        orjson.dumps(run.options).decode(),
                        run.created,
                        run.duration_ms,
                        run.n_events,
                    ),
                )
                self._db.execute("DELETE FROM events WHERE run_id = ?", (run.id,))
                self._db.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def get(self, run_id: str) -> StoredRun | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return StoredRun(row[0], row[1], row[2], orjson.loads(row[3]), row[4], row[5], row[6])

    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]:
        q = "SELECT body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq"
        args: tuple[Any, ...] = (run_id, after)
        if limit is not None:
            q += " LIMIT ?"
            args = (*args, limit)
        with self._lock:
            rows = self._db.execute(q, args).fetchall()
        return [orjson.loads(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def now() -> float:
    return time.time()
