"""The server's database for tests that run a server on each backend: the `database` fixture
(an SQLite file, or a fresh database on the session's PostgreSQL server), its settings and
environment, and a look at what it stores as another process would."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from server.storage import RunStore, open_store
from tests.postgres_server import PostgresServer, postgres

__all__ = ["Database", "database", "postgres"]

_STORED = (
    "SELECT status, (SELECT coalesce(max(last_seq), -1) + 1 FROM log_chunks"
    " WHERE run_id = {0}) FROM runs WHERE id = {0}"
)


class Database:
    """The server's database: an SQLite file (`url` None) or a PostgreSQL database."""

    def __init__(self, path: Path, url: str | None) -> None:
        self.path, self.url = path, url
        self.env = {"BACKSCOPE_DATABASE_URL": url} if url else {}
        # for live_server(db.path, **db.settings)
        self.settings: dict[str, Any] = {"database_url": url} if url else {}

    def store(self) -> RunStore:
        """The run store on this database (close it after use)."""
        return open_store(self.url if self.url is not None else self.path)[0]

    def stored(self, run_id: str) -> tuple[str, int] | None:
        """(status, events stored) of a run, read as another process would."""
        if self.url is not None:
            with psycopg.connect(self.url) as db:
                row = db.execute(_STORED.format("%s"), (run_id, run_id)).fetchone()
            return None if row is None else (str(row[0]), int(row[1]))
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            row = con.execute(_STORED.format("?"), (run_id, run_id)).fetchone()
        except sqlite3.OperationalError:  # the tables are not there yet
            return None
        finally:
            con.close()
        return None if row is None else (str(row[0]), int(row[1]))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    url = None
    if request.param == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.create_database()
    return Database(tmp_path / "runs.sqlite3", url)
