"""Where runs are stored (server/storage/location.py): BACKSCOPE_DATABASE_URL names an SQLite
file or a PostgreSQL database, anything else is refused, and a database the server cannot use
stops `backscope serve` with its reason (no traceback); a server on PostgreSQL serves and
stores runs as on SQLite."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.settings import Settings
from server.storage import StoreUnavailable, locate, open_store
from server.storage.location import redact
from server.storage.postgres import PostgresRunStore
from server.storage.sqlite import SqliteRunStore
from tests import web
from tests.postgres_server import PostgresServer
from tests.server.live import live_server, run_to_end

ROOT = Path(__file__).resolve().parents[3]


def test_a_url_names_an_sqlite_file_or_a_postgres_database(tmp_path: Path) -> None:
    default = tmp_path / "runs.sqlite3"
    assert locate(None, default) == default
    assert locate("", default) == default
    assert locate("sqlite:////var/lib/x.db", default) == Path("/var/lib/x.db")
    for url in ("postgresql://u:p@db:5432/runs", "postgres://db/runs?sslmode=require"):
        assert locate(url, default) == url
    assert Settings(database_url="sqlite:///a.db").database() == Path("a.db")


@pytest.mark.parametrize("url", ["mysql://u:hunter2@db/x", "redis://db", "runs.sqlite3"])
def test_any_other_url_is_refused_without_its_password(url: str, tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable, match="unsupported database URL") as caught:
        locate(url, tmp_path / "runs.sqlite3")
    assert "hunter2" not in str(caught.value)


def test_redact_hides_only_the_password() -> None:
    assert redact("postgresql://u:s3cret@db:5/x") == "postgresql://u:***@db:5/x"
    assert redact("postgresql://u@db/x") == "postgresql://u@db/x"


def test_an_unreachable_postgres_server_is_a_reason_not_a_traceback(tmp_path: Path) -> None:
    url = f"postgresql://u:hunter2@/runs?host={tmp_path}"  # no server on this socket
    with pytest.raises(StoreUnavailable, match="could not open the run database") as caught:
        open_store(url)
    assert "hunter2" not in str(caught.value) and str(tmp_path) in str(caught.value)


def test_a_missing_database_on_a_running_server_says_so(postgres: PostgresServer) -> None:
    with pytest.raises(StoreUnavailable, match='database "nope" does not exist'):
        open_store(postgres.url("nope"))


def test_open_store_gives_each_backend(tmp_path: Path, postgres: PostgresServer) -> None:
    store, recovery = open_store(tmp_path / "runs.sqlite3")
    assert isinstance(store, SqliteRunStore) and recovery.moved_to is None
    store.close()
    store, recovery = open_store(postgres.create_database())
    assert isinstance(store, PostgresRunStore) and recovery.moved_to is None
    store.close()


@pytest.mark.parametrize("url", ["mysql://db/x", "postgresql://u:hunter2@/runs?host=/nonexistent"])
def test_backscope_serve_stops_with_the_reason(url: str, tmp_path: Path) -> None:
    env = {**os.environ, "BACKSCOPE_DATABASE_URL": url, "BACKSCOPE_DB_PATH": str(tmp_path / "x")}
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", "--port", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("backscope: ") and "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr


def test_a_server_on_postgres_stores_runs_and_serves_them_after_a_restart(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    url = postgres.create_database()
    with live_server(tmp_path / "unused.sqlite3", database_url=url) as base:
        events = asyncio.run(run_to_end(base, "print('hello')\n"))
        assert events[-1]["status"] == "ok"
    run_id = events[0]["run_id"]
    assert not (tmp_path / "unused.sqlite3").exists()
    with live_server(tmp_path / "unused.sqlite3", database_url=url) as base:
        stored = web.get(f"http://{base}/api/runs/{run_id}").json()
        health = web.get(f"http://{base}/healthz").json()["storage"]
    assert stored["status"] == "ok" and stored["events"] == events
    assert health["runs"] == 1 and health["bytes"] > 0 and health["file_bytes"] > 0
    assert health["database"] == "postgresql"
