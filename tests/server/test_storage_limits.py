"""What the store keeps (issue 13, items 4 and 5), against the real server and sandbox: a cap
on a run's log (the run ends `limit`), a cap on the store and on one owner's share with
eviction (never-shared runs first), options that cannot raise server limits, refused runs not
stored; and, at the store, a save that adds rows at the end whatever is stored."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import orjson

from server.eventlog import Chunk
from server.sandbox.settings import SandboxSettings
from server.storage import SqliteRunStore, StoredRun
from tests import web
from tests.server.live import Client, connect, live_server, owner_cookie, run_to_end

NOISY = "for i in range(3000):\n    print('x' * 100)\n"  # ~300 KB of stdout


def test_a_run_past_the_servers_log_cap_ends_limit_and_stores_bounded(tmp_path: Path) -> None:
    cap = 100_000
    sandbox = SandboxSettings(max_output_bytes=10 << 20)
    with live_server(tmp_path / "runs.sqlite3", max_run_bytes=cap, sandbox=sandbox) as base:
        events = asyncio.run(run_to_end(base, NOISY))
        assert events[-1]["status"] == "limit"
        errors = [e for e in events if e["type"] == "error"]
        assert any("passed 100000 bytes" in e["message"] for e in errors), errors
        run_id = events[0]["run_id"]
        stored = web.get(f"http://{base}/api/runs/{run_id}").json()
        assert stored["status"] == "limit"
    store = SqliteRunStore(tmp_path / "runs.sqlite3")
    run = store.get(run_id)
    store.close()
    # what arrived before the stop took effect: within a few worker frames of the cap
    assert run is not None and run.bytes < cap + (4 << 20)


def test_client_options_cannot_raise_the_inline_limit(tmp_path: Path) -> None:
    code = "import torch\nx = torch.arange(200000.0)\n"
    with live_server(tmp_path / "runs.sqlite3", max_inline_limit=64) as base:
        events = asyncio.run(run_to_end(base, code, inline_limit=1 << 20))
    assert events[-1]["status"] == "ok"
    assert events[0]["options"]["inline_limit"] == 64
    size = len(orjson.dumps(events))
    assert size < 200_000 * 2, size  # 200,000 inline numbers would be over a megabyte


def test_a_refused_run_is_not_stored(tmp_path: Path) -> None:
    sandbox = SandboxSettings(max_code_bytes=1000)
    with live_server(tmp_path / "runs.sqlite3", sandbox=sandbox) as base:
        events = asyncio.run(run_to_end(base, "x = 1\n" * 1000))
        assert events[-1]["status"] == "limit"
        response = web.get(f"http://{base}/api/runs/{events[0]['run_id']}")
        assert response.status_code == 404
        assert web.get(f"http://{base}/healthz").json()["storage"]["runs"] == 0


async def _own_run(base: str, cookie: str, code: str) -> str:
    c = Client(await connect(base, cookie=cookie))
    await c.send({"type": "run", "code": code})
    await c.until("run_finished")
    await c.ws.close()
    return str(c.events[0]["run_id"])


def test_the_store_evicts_oldest_never_shared_runs_first(tmp_path: Path) -> None:
    """Each run stores ~60 KB; the store holds ~4 of them."""
    code = "print('y' * 60000)\n"
    db = tmp_path / "runs.sqlite3"
    with live_server(db, max_store_bytes=260_000, max_owner_bytes=0) as base:
        cookie = owner_cookie(base)
        first = asyncio.run(_own_run(base, cookie, code))
        shared = asyncio.run(_own_run(base, cookie, code))
        # someone else opens the second: it is shared now, and kept longer
        assert web.get(f"http://{base}/api/runs/{shared}").status_code == 200
        later = [asyncio.run(_own_run(base, cookie, code)) for _ in range(4)]
        kept = {r: web.get(f"http://{base}/api/runs/{r}").status_code for r in [first, *later]}
        assert web.get(f"http://{base}/api/runs/{shared}").status_code == 200
        health = web.get(f"http://{base}/healthz").json()["storage"]
    assert kept[first] == 404 and kept[later[-1]] == 200
    assert health["bytes"] <= 260_000


def test_one_owner_over_its_share_loses_its_own_oldest_runs_not_others(tmp_path: Path) -> None:
    code = "print('z' * 60000)\n"
    with live_server(tmp_path / "runs.sqlite3", max_owner_bytes=130_000) as base:
        victim = asyncio.run(_own_run(base, owner_cookie(base), code))
        hog = owner_cookie(base)
        hogs = [asyncio.run(_own_run(base, hog, code)) for _ in range(4)]
        assert web.get(f"http://{base}/api/runs/{victim}").status_code == 200
        statuses = [web.get(f"http://{base}/api/runs/{r}").status_code for r in hogs]
    assert statuses[0] == 404 and statuses[-1] == 200


def _run(store: SqliteRunStore, run_id: str, chunks: int, owner: str = "o") -> None:
    body = orjson.dumps([{"type": "stdout", "text": "x" * 100, "t": 0}] * 10)
    run = StoredRun(run_id, "code", "ok", {}, time.time(), 1.0, chunks * 10, owner=owner)
    store.save(run, [Chunk(k * 10, 10, body) for k in range(chunks)])


def test_a_saved_run_goes_at_the_end_of_the_log_table(tmp_path: Path) -> None:
    """Why saves no longer slow down with what is stored: a run's chunk rows are appended
    (increasing rowids, one index entry each), not inserted into a B-tree ordered by a
    random run id (the old WITHOUT ROWID table). The timing is bench_server.py's."""
    db = tmp_path / "runs.sqlite3"
    store = SqliteRunStore(db)
    for i in range(5):
        _run(store, f"{i:x}{'f' * 10}", 50)
    _run(store, "0" * 12, 50)  # sorts before every stored id
    store.close()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT run_id, id FROM log_chunks ORDER BY id").fetchall()
    ddl = con.execute("SELECT sql FROM sqlite_master WHERE name = 'log_chunks'").fetchone()[0]
    con.close()
    assert "WITHOUT ROWID" not in ddl
    assert [r for r, _ in rows[-50:]] == ["0" * 12] * 50


def test_a_client_storing_run_after_run_without_a_token_evicts_its_own_runs(
    tmp_path: Path,
) -> None:
    """A script (no owner cookie) is a new owner on every connection, but its runs count
    against its address: filling the store evicts its own oldest runs, not a browser's."""
    code = "print('w' * 60000)\n"
    with live_server(tmp_path / "runs.sqlite3", max_store_bytes=260_000, max_owner_bytes=0) as base:
        victim = asyncio.run(_own_run(base, owner_cookie(base), code))
        flood = [asyncio.run(run_to_end(base, code))[0]["run_id"] for _ in range(6)]
        kept = web.get(f"http://{base}/api/runs/{victim}").status_code
        statuses = [web.get(f"http://{base}/api/runs/{r}").status_code for r in flood]
        health = web.get(f"http://{base}/healthz").json()["storage"]
    assert kept == 200
    assert statuses[0] == 404 and statuses[-1] == 200
    assert health["bytes"] <= 260_000


def _events(body: dict[str, Any]) -> list[dict[str, Any]]:
    return list(body["events"])
