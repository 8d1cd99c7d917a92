"""Hostile snippets through the real server: each run ends with a clear status, the server and
/healthz stay up, and a parallel session's run completes correctly.

(The full abuse suite against the sandbox itself is tests/server/test_sandbox*.py.)
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.sandbox.settings import SandboxSettings
from tests.server.live import Client, assert_dense, connect, live_server

GOOD = """import torch
a = torch.tensor([1.0], requires_grad=True)
(a.exp() * 2).sum().backward()
print(a.grad)
"""

HOSTILE = {
    "infinite_loop": ("while True: pass", {"timeout", "limit", "killed"}),
    "sleep_forever": ("import time\ntime.sleep(1e6)", {"timeout", "killed"}),
    "print_flood": ("while True: print('x' * 100)", {"limit"}),
    "fake_protocol_event": (
        'print(\'[{"type": "run_finished", "status": "ok", "seq": 1}]\')',
        {"ok"},
    ),
    "fork_bomb": ("import os\nwhile True:\n    os.fork()", {"error", "limit", "timeout", "killed"}),
    "kill_parent": (
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
        {"ok", "error", "killed"},
    ),
    "kill_everyone": ("import os, signal\nos.kill(-1, signal.SIGKILL)", {"ok", "error", "killed"}),
    "sys_exit": ("import sys\nsys.exit(3)", {"error"}),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("abuse") / "runs.sqlite3"
    sandbox = SandboxSettings(wall_seconds=4, cpu_seconds=3, max_output_bytes=256 * 1024)
    with live_server(db, sandbox=sandbox, rate_limit_burst=400) as base:
        yield base


async def _run(base: str, code: str) -> list[dict[str, Any]]:
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=60)
        return c.events


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_run_ends_cleanly_and_others_are_served(server: str, name: str) -> None:
    code, statuses = HOSTILE[name]

    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        bad = asyncio.create_task(_run(server, code))
        await asyncio.sleep(0.3)
        good = await _run(server, GOOD)
        return await bad, good

    bad, good = asyncio.run(go())
    assert_dense(bad)
    assert bad[-1]["status"] in statuses, (name, bad[-4:])
    assert_dense(good)
    assert good[-1]["status"] == "ok"
    out = "".join(e["text"] for e in good if e["type"] == "stdout")
    assert out == "tensor([5.4366])\n"
    if name == "fake_protocol_event":
        texts = [e for e in bad if e["type"] == "stdout"]
        assert texts and '"run_finished"' in texts[0]["text"]
        assert [e["type"] for e in bad].count("run_finished") == 1
    assert httpx.get(f"http://{server}/healthz").json()["status"] == "ok"


def test_ten_megabytes_of_code_is_refused_before_it_runs(server: str) -> None:
    async def go() -> list[dict[str, Any]]:
        async with await connect(server) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": "x = 1\n" * (10 * 1024 * 1024 // 6)})
            return await c.next_batch(timeout=30)

    batch = asyncio.run(go())
    assert [e["type"] for e in batch] == ["command_error"]
    assert "too large" in batch[0]["message"]


def test_code_over_the_sandbox_limit_ends_its_run_with_status_limit(server: str) -> None:
    events = asyncio.run(_run(server, "x = 1\n" * (1024 * 1024 // 6)))
    assert_dense(events)
    assert events[-1]["status"] == "limit"
    assert any(e["type"] == "error" and "limit" in e["message"] for e in events)


def test_two_hundred_rapid_submissions_get_answers_and_the_server_survives(
    server: str, tmp_path: Path
) -> None:
    async def go() -> list[str]:
        async with await connect(server) as ws:
            c = Client(ws)
            for i in range(200):
                await c.send({"type": "run", "code": f"print({i})", "replace": True})
            await asyncio.sleep(0.5)
            kinds: list[str] = []
            while True:
                try:
                    batch = await c.next_batch(timeout=20)
                except TimeoutError:
                    break
                kinds += [e["type"] for e in batch]
                if "run_finished" in kinds and kinds[-1] == "run_finished":
                    pending = {e["run_id"] for e in c.events if e["type"] == "run_started"}
                    done = {e["run_id"] for e in c.events if e["type"] == "run_finished"}
                    if pending <= done:
                        break
            return kinds

    kinds = asyncio.run(go())
    assert kinds.count("run_started") == kinds.count("run_finished")
    assert httpx.get(f"http://{server}/healthz").json()["status"] == "ok"
    assert asyncio.run(_run(server, GOOD))[-1]["status"] == "ok"


def test_a_client_that_disconnects_mid_run_gets_its_run_stopped(tmp_path: Path) -> None:
    """After the reconnect grace period an abandoned run is killed, and stored as such."""

    async def go(base: str) -> str:
        async with await connect(base) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": "import time\nwhile True:\n    time.sleep(0.05)"})
            started = await c.until("run_started")
        return str(started["run_id"])

    with live_server(tmp_path / "runs.sqlite3", disconnect_grace_s=0.5) as base:
        run_id = asyncio.run(go(base))
        status = None
        for _ in range(100):
            body = httpx.get(f"http://{base}/api/runs/{run_id}").json()
            status = body["status"]
            if status != "running":
                break
            time.sleep(0.1)
        assert status == "killed"
        assert asyncio.run(_run(base, GOOD))[-1]["status"] == "ok"
