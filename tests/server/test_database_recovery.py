"""A corrupt or truncated database (issue 13, item 12): the server starts, moves the file
aside (never deletes it), starts a fresh one, and says so in its log and at /healthz."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import orjson
import pytest

from server.eventlog import Chunk
from server.storage import SqliteRunStore, StoredRun
from tests import web
from tests.server.live import live_server, run_to_end


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database\n" + os.urandom(64 * 1024))


def _truncated(path: Path) -> None:
    store = SqliteRunStore(path)
    body = orjson.dumps([{"type": "stdout", "text": "x" * 1000}] * 100)
    for i in range(40):
        run = StoredRun(f"run{i}", "code", "ok", {}, 1.0, 1.0, 100 * 50)
        store.save(run, [Chunk(k * 100, 100, body) for k in range(50)])
    store.close()
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)


@pytest.mark.parametrize("damage", [_garbage, _truncated], ids=["garbage", "truncated"])
def test_a_bad_database_is_moved_aside_and_a_fresh_one_serves(
    tmp_path: Path, damage: object, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "runs.sqlite3"
    damage(db)  # type: ignore[operator]
    before = db.read_bytes()
    with caplog.at_level(logging.ERROR), live_server(db) as base:
        health = web.get(f"http://{base}/healthz").json()
        events = asyncio.run(run_to_end(base, "print(1)"))
        assert events[-1]["status"] == "ok"
        stored = web.get(f"http://{base}/api/runs/{events[0]['run_id']}").json()
        assert stored["status"] == "ok"
    storage = health["storage"]
    assert storage["status"] == "recovered"
    moved = Path(storage["moved_to"])
    assert moved.parent == tmp_path and moved.name.startswith("runs.sqlite3.corrupt-")
    assert moved.read_bytes() == before  # kept as it was, for whoever wants to look
    assert any("could not be used" in r.getMessage() for r in caplog.records)


def test_a_sound_database_is_not_moved(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite3"
    with live_server(db) as base:
        run_id = asyncio.run(run_to_end(base, "print(1)"))[0]["run_id"]
    with live_server(db) as base:
        assert web.get(f"http://{base}/healthz").json()["storage"]["status"] == "ok"
        assert web.get(f"http://{base}/api/runs/{run_id}").json()["status"] == "ok"
    assert [p.name for p in tmp_path.iterdir() if "corrupt" in p.name] == []
