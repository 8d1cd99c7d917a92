"""The `store` fixture: every test here runs against SQLite and against a real PostgreSQL
server (tests/postgres_server.py), through the same RunStore interface."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from server.storage import RunStore, SqliteRunStore
from server.storage.postgres import PostgresRunStore
from tests.postgres_server import PostgresServer, postgres, postgres_url

__all__ = ["postgres", "postgres_url"]

BACKENDS = ("sqlite", "postgres")

# opens another store on the same database (another replica or process): call it again for
# more; every store it made is closed after the test
Opener = Callable[[], RunStore]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Opener]:
    if backend == "postgres":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = server.create_database()
        make: Opener = lambda: PostgresRunStore(url)  # noqa: E731
    else:
        path = tmp_path / "runs.sqlite3"
        make = lambda: SqliteRunStore(path)  # noqa: E731
    made: list[RunStore] = []

    def opener() -> RunStore:
        made.append(make())
        return made[-1]

    yield opener
    for store in made:
        store.close()


@pytest.fixture
def store(open_store: Opener) -> RunStore:
    """An empty store of each backend."""
    return open_store()
