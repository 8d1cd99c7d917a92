"""Hostile snippets and clients through the real server and sandbox: each run ends with a clear
status that says why, the server and /healthz stay up, another client's run beside it completes
correctly, no process of a slot uid survives, and nothing on the host changes.

Each snippet runs on a server whose only short clock is the one allowed to end it (see
tests/server/hostile_snippets.py), so the outcome never depends on the machine's speed.
(Hostile snippets against the sandbox alone: tests/server/test_sandbox_hostile.py.)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from server.app import create_app
from server.sandbox.command import APP_ROOT, ENV, sandbox_layout
from server.sandbox.settings import SandboxSettings
from server.settings import Settings
from tests import web
from tests.server.hostile_snippets import (
    HOSTILE,
    MAX_EVENT_BYTES,
    PROCESSES,
    Clock,
    Events,
    messages,
    out,
)
from tests.server.live import (
    Client,
    assert_dense,
    assert_serving,
    connect,
    live_server,
    run_to_end,
    serve,
)
from tests.server.sandbox_helpers import GENEROUS_CPU_S, GENEROUS_WALL_S

GOOD = """import torch
a = torch.tensor([1.0], requires_grad=True)
(a.exp() * 2).sum().backward()
print(a.grad)
"""
GOOD_OUT = "tensor([5.4366])\n"

# the one short clock of each server; the other is generous. The good run beside a snippet runs
# on the server without short clocks: on a loaded machine even a tiny run can take seconds.
CLOCKS: dict[Clock, dict[str, float]] = {
    "none": {"wall_seconds": GENEROUS_WALL_S, "cpu_seconds": GENEROUS_CPU_S},
    "cpu": {"wall_seconds": GENEROUS_WALL_S, "cpu_seconds": 2},
    "wall": {"wall_seconds": 5.0, "cpu_seconds": GENEROUS_CPU_S},
}
FINISH_WITHIN_S = GENEROUS_WALL_S + 60  # how long a test waits for a run's end


class Servers:
    """One live server per clock, started when first needed, stopped with the module."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.live: dict[Clock, tuple[str, Any]] = {}
        self._stops: list[Any] = []

    def get(self, clock: Clock) -> tuple[str, Any]:
        if clock not in self.live:
            sandbox = SandboxSettings(
                **CLOCKS[clock],
                pause_seconds=30,
                processes=PROCESSES,
                max_output_bytes=256 * 1024,
                max_event_bytes=MAX_EVENT_BYTES,
            )
            settings = Settings(
                db_path=self.root / f"{clock}.sqlite3", sandbox=sandbox, rate_limit_burst=1000
            )
            application = create_app(settings)
            cm = serve(application)
            self.live[clock] = (cm.__enter__(), application)
            self._stops.append(cm)
        return self.live[clock]

    def close(self) -> None:
        for cm in reversed(self._stops):
            cm.__exit__(None, None, None)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    s = Servers(tmp_path_factory.mktemp("hostile"))
    yield s
    s.close()


async def _run(base: str, code: str) -> Events:
    return await run_to_end(base, code, timeout=FINISH_WITHIN_S)


# what tests running beside this one (pytest-xdist) may create in the app's directories
TEST_OUTPUTS = {"__pycache__", "test-artifacts"}


def _host_state() -> set[str]:
    """What a run could have left on the host: entries of the app's directories."""
    dirs = (APP_ROOT, APP_ROOT / "server", APP_ROOT / "server" / "sandbox", APP_ROOT / "engine")
    return {str(p) for d in dirs for p in d.iterdir() if p.name not in TEST_OUTPUTS}


# The snippets go to the workers in groups of this many (each group on one worker, starting the
# servers its snippets need): most of a snippet's time is its clock running out or its sandbox
# starting, so the 51 of them in one file would hold one worker for a third of the suite.
GROUP = 10


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xdist_group(f"hostile-{i // GROUP}"))
        for i, name in enumerate(sorted(HOSTILE))
    ],
)
def test_hostile_run_ends_cleanly_and_others_are_served(servers: Servers, name: str) -> None:
    case = HOSTILE[name]
    base, application = servers.get(case.clock)
    beside, _ = servers.get("none")
    before = _host_state()

    async def go() -> tuple[Events, Events]:
        bad = asyncio.create_task(_run(base, case.code))
        await asyncio.sleep(0.3)
        good = await _run(beside, GOOD)
        return await bad, good

    bad, good = asyncio.run(go())
    assert_dense(bad)
    assert [e["type"] for e in bad].count("run_finished") == 1
    assert bad[-1]["status"] in case.statuses, (name, bad[-4:])
    if bad[-1]["status"] != "ok":
        assert messages(bad), "a failed run says why"
    assert_dense(good)
    assert (good[-1]["status"], out(good)) == ("ok", GOOD_OUT), good[-3:]
    assert_serving(base, application)
    assert _host_state() == before
    if case.check is not None:
        case.check(bad)


def test_three_megabytes_of_code_is_refused_before_it_runs(servers: Servers) -> None:
    base, _ = servers.get("none")

    async def go() -> tuple[Events, Events]:
        async with await connect(base) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": "x = 1\n" * (3 * 1024 * 1024 // 6)})
            refused = await c.next_batch(timeout=30)
            # the socket stays usable: the next run on it is served
            await c.send({"type": "run", "code": GOOD})
            await c.until("run_finished", timeout=FINISH_WITHIN_S)
            return refused, c.events[len(refused) :]

    refused, good = asyncio.run(go())
    assert [e["type"] for e in refused] == ["command_error"]
    assert "too large" in refused[0]["message"]
    assert (good[-1]["status"], out(good)) == ("ok", GOOD_OUT)


def test_ten_megabytes_in_one_frame_closes_that_socket_and_only_it(servers: Servers) -> None:
    base, application = servers.get("none")

    async def go() -> int | None:
        async with await connect(base) as ws:
            try:  # the close may come while the frame is still being sent
                await ws.send(json.dumps({"type": "run", "code": "x = 1\n" * (10 * 2**20 // 6)}))
                while True:
                    await ws.recv()
            except websockets.exceptions.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd is not None else None

    # the frame is refused by the websocket layer before it is buffered whole: 1009
    assert asyncio.run(go()) == 1009
    assert_serving(base, application)


def test_code_over_the_sandbox_limit_ends_its_run_with_status_limit(servers: Servers) -> None:
    base, _ = servers.get("none")
    events = asyncio.run(_run(base, "x = 1\n" * (1024 * 1024 // 6)))
    assert_dense(events)
    assert events[-1]["status"] == "limit"
    assert any(e["type"] == "error" and "limit" in e["message"] for e in events)


def test_two_hundred_rapid_submissions_get_answers_and_the_server_survives(
    servers: Servers,
) -> None:
    base, application = servers.get("none")

    async def go() -> list[str]:
        async with await connect(base) as ws:
            c = Client(ws)
            for i in range(200):
                await c.send({"type": "run", "code": f"print({i})", "replace": True})
            kinds: list[str] = []
            while True:
                try:
                    batch = await c.next_batch(timeout=60)
                except TimeoutError:
                    break
                kinds += [e["type"] for e in batch]
                if kinds[-1] == "run_finished":
                    started = {e["run_id"] for e in c.events if e["type"] == "run_started"}
                    done = {e["run_id"] for e in c.events if e["type"] == "run_finished"}
                    if started <= done:
                        break
            return kinds

    kinds = asyncio.run(go())
    assert kinds.count("run_started") == kinds.count("run_finished")
    assert_serving(base, application)
    assert asyncio.run(_run(base, GOOD))[-1]["status"] == "ok"


def test_a_client_that_disconnects_mid_run_gets_its_run_stopped(tmp_path: Path) -> None:
    """After the reconnect grace period an abandoned run is killed, and stored as such."""

    async def go(base: str) -> str:
        async with await connect(base) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": "import time\nwhile True:\n    time.sleep(0.05)"})
            started = await c.until("run_started")
        return str(started["run_id"])

    sandbox = SandboxSettings(**CLOCKS["none"])
    with live_server(tmp_path / "runs.sqlite3", sandbox=sandbox, disconnect_grace_s=0.5) as base:
        run_id = asyncio.run(go(base))
        status = None
        deadline = time.monotonic() + FINISH_WITHIN_S
        while time.monotonic() < deadline:
            status = web.get(f"http://{base}/api/runs/{run_id}").json()["status"]
            if status != "running":
                break
            time.sleep(0.1)
        # killed after the grace period, not by a clock (the clocks are far away)
        assert status == "killed"
        assert asyncio.run(_run(base, GOOD))[-1]["status"] == "ok"


def test_a_runs_tmp_is_not_the_next_runs(servers: Servers) -> None:
    base, _ = servers.get("none")
    write = (
        "open('/tmp/secret', 'w').write('mine')\nimport os\nprint('secret' in os.listdir('/tmp'))\n"
    )
    first = asyncio.run(_run(base, write))
    second = asyncio.run(_run(base, "import os\nprint('secret' in os.listdir('/tmp'))\n"))
    assert (out(first), out(second)) == ("True\n", "False\n")


SNOOP = """import json, os
found = {}
try:
    found["environ"] = open('/proc/self/environ', 'rb').read().decode().split('\\0')
except OSError as e:
    found["environ"] = type(e).__name__
found["pids"] = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
found["cmdlines"] = []
for p in found["pids"]:
    try:
        found["cmdlines"].append(open(f'/proc/{p}/cmdline', 'rb').read().decode(errors='replace'))
    except OSError:
        pass
for name, path in (("db", DB), ("git", GIT), ("tests", TESTS), ("settings", SETTINGS)):
    try:
        open(path, 'rb').read(16)
        found[name] = "read"
    except OSError as e:
        found[name] = type(e).__name__
print(json.dumps(found))
"""


def test_secrets_of_the_host_and_the_server_are_out_of_reach(servers: Servers) -> None:
    """/proc/self/environ, other processes' command lines, the database, the repository."""
    base, _ = servers.get("none")
    app = Path(sandbox_layout().app)  # the app inside the sandbox; its host path is not there
    paths = {
        "DB": str(servers.root / "none.sqlite3"),
        "GIT": str(app / ".git" / "HEAD"),
        "TESTS": str(app / Path(__file__).relative_to(APP_ROOT)),
        "SETTINGS": str(app / "server" / "settings.py"),
    }
    code = "".join(f"{k} = {v!r}\n" for k, v in paths.items()) + SNOOP
    events = asyncio.run(_run(base, code))
    assert events[-1]["status"] == "ok", events[-4:]
    found = json.loads(out(events))
    # there is no procfs in the sandbox (and the worker is not dumpable after dropping to its
    # uid); were it readable, only ENV is there
    environ = found["environ"]
    if environ not in ("FileNotFoundError", "PermissionError"):
        assert {e.split("=", 1)[0] for e in environ if e} <= set(ENV)
    assert len(found["pids"]) <= 3  # bubblewrap's init, the worker (and its own children)
    assert not [c for c in found["cmdlines"] if "uvicorn" in c or "pytest" in c]
    assert found["db"] == "FileNotFoundError"
    assert found["git"] == "FileNotFoundError"  # only the code the worker runs is bound
    assert found["tests"] == "FileNotFoundError"
    assert found["settings"] == "FileNotFoundError"
