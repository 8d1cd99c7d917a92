"""Round 3 of hostile snippets and broken messages against the real server and sandbox (beyond
test_abuse_ws.py, test_abuse_more.py and test_sandbox_abuse.py): resource games in C, crashes,
reaching into the worker from the snippet, and protocol abuse. Every run ends with a clear
status, a parallel run is served correctly, and no process of a slot uid survives."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.sandbox.reaper import pids_of_uid
from server.sandbox.settings import MiB, SandboxSettings
from server.settings import Settings
from tests.server.live import Client, assert_dense, connect, serve
from tests.server.test_abuse_ws import GOOD

Events = list[dict[str, Any]]
PROCESSES = 16  # the fixture's per-slot process limit

# each: code, the statuses it may end with, and a check of its events (or None)
HOSTILE: dict[str, tuple[str, set[str], Callable[[Events], None] | None]] = {}


def hostile(name: str, code: str, statuses: set[str]) -> Callable[[Any], Any]:
    def register(check: Callable[[Events], None] | None) -> Any:
        HOSTILE[name] = (code, statuses, check)
        return check

    return register


def _out(events: Events, stream: str = "stdout") -> str:
    return "".join(e["text"] for e in events if e["type"] == stream)


def _messages(events: Events) -> str:
    return " | ".join(str(e.get("message")) for e in events if e["type"] == "error")


@hostile(
    "five_thousand_threads",
    "import threading, time\nn = 0\ntry:\n    for i in range(5000):\n"
    "        threading.Thread(target=time.sleep, args=(100,), daemon=True).start()\n"
    "        n += 1\nexcept RuntimeError as e:\n    print('refused:', e)\nprint(n)\n",
    {"ok"},
)
def _threads(events: Events) -> None:
    refused, count = _out(events).splitlines()
    assert refused == "refused: can't start new thread"
    assert int(count) < PROCESSES  # threads count against the slot uid's process limit


hostile(
    "multiprocessing_pool",
    "import multiprocessing as mp\nwith mp.Pool(4) as p:\n    print(p.map(abs, [-1, -2]))\n",
    {"error"},
)(None)


@hostile(
    "raw_clone_syscalls_through_ctypes",
    "import ctypes, time\nlibc = ctypes.CDLL(None, use_errno=True)\nn = 0\n"
    "for i in range(200):\n    r = libc.syscall(56, 17, 0, 0, 0, 0)\n"  # clone(SIGCHLD): a fork
    "    if r == 0:\n        time.sleep(100)\n    if r < 0:\n        break\n    n += 1\n"
    "print(n, ctypes.get_errno())\n",
    {"ok"},
)
def _clone(events: Events) -> None:
    forked, errno = map(int, _out(events).split())
    assert forked < PROCESSES and errno == 11  # EAGAIN: the process limit


@hostile(
    "numpy_giant_then_large_allocation",
    "import numpy as np\ntry:\n    np.empty(10 ** 11)\nexcept MemoryError as e:\n"
    "    print(type(e).__name__)\ntry:\n    np.ones(10 ** 9)\nexcept MemoryError as e:\n"
    "    print(type(e).__name__)\n",
    {"ok"},
)
def _numpy_memory(events: Events) -> None:
    assert _out(events) == "MemoryError\nMemoryError\n"


@hostile(
    "numpy_matmul_burns_cpu_in_c",
    "import numpy as np\na = np.random.rand(600, 600)\nwhile True:\n    a = a @ a\n"
    "    a /= a.max()\n",
    {"timeout"},
)
def _cpu_in_c(events: Events) -> None:
    # on a loaded machine the wall clock may come first; either ends the burner in C
    assert "CPU time limit" in _messages(events) or "wall-clock limit" in _messages(events)


def _wall(events: Events) -> None:
    assert "wall-clock limit" in _messages(events)


hostile("select_forever", "import select\nselect.select([], [], [], 1e6)\n", {"timeout"})(_wall)
hostile(
    "blocking_recv_forever",
    "import socket\na, b = socket.socketpair()\na.recv(1)\n",
    {"timeout"},
)(_wall)


def _crash(events: Events) -> None:
    assert "SIGSEGV" in _messages(events)


# the C stack overflows (sys.setrecursionlimit lifts the guard): a crash, reported, not a hang
hostile(
    "c_stack_overflow_in_repr",
    "import sys\nsys.setrecursionlimit(10 ** 6)\nl = []\nfor _ in range(10 ** 6):\n"
    "    l = [l]\nprint(len(repr(l)))\n",
    {"error"},
)(_crash)
hostile(
    "forged_code_object",
    "f = lambda: 0\ncode = f.__code__.replace(co_code=b'\\x97\\x00' + b'\\x64\\xff' * 50"
    " + b'\\x53\\x00', co_consts=())\nprint(type(f)(code, {})())\n",
    {"error"},
)(_crash)
hostile(
    "python_recursion_a_million_deep",
    "import sys\nsys.setrecursionlimit(10 ** 6)\ndef f(n):\n    return f(n + 1) + 1\nf(0)\n",
    {"error", "timeout"},
)(None)


@hostile(
    "binary_garbage_on_fd_1_after_closing_sys_stdout",
    "import os, sys\nsys.stdout.close()\nos.write(1, bytes(range(256)) + b'\\n')\n"
    "os.write(2, b'fd2\\n')\n",
    {"ok"},
)
def _binary(events: Events) -> None:
    text = _out(events)
    assert text.startswith("".join(map(chr, range(128)))) and "\ufffd" in text
    assert _out(events, "stderr") == "fd2\n"


@hostile(
    "huge_events_through_the_tracers_sink",
    "import sys\nsink = sys.stdout.tr.sink\nbig = 'x' * (4 << 20)\n"
    "while True:\n    sink([{'type': 'tensor_values', 'values': big}])\n",
    {"limit"},
)
def _event_bytes(events: Events) -> None:
    assert f"more than {16 * MiB} bytes of events" in _messages(events)


@hostile(
    "forged_summary_from_the_workers_channel",
    "import gc\nch = [o for o in gc.get_objects() if type(o).__name__ == 'Channel']\n"
    "ch[0].send({'summary': {'status': 'ok'}})\nprint('after the forged summary')\n",
    {"error"},
)
def _summary(events: Events) -> None:
    assert "a frame after the final summary" in _messages(events)


@hostile(
    "forged_stdout_event_with_a_number_for_text",
    "import sys\nsys.stdout.tr.sink([{'type': 'stdout', 'text': 5}])\nprint('after')\n",
    {"error"},
)
def _text_not_str(events: Events) -> None:
    assert "a stdout event whose text is not a string" in _messages(events)
    assert all(isinstance(e["text"], str) for e in events if e["type"] == "stdout")


@hostile(
    "output_without_newlines",
    "import sys\nfor i in range(100_000):\n    sys.stdout.write('x')\n",
    {"limit"},
)
def _no_newline(events: Events) -> None:
    assert "an output line longer than" in _messages(events)


@hostile(
    "import_the_server_inside_the_sandbox",
    "import server.sandbox.runner as r\nprint(r.Sandbox().mode.name)\n",
    {"ok"},
)
def _server_inside(events: Events) -> None:
    assert _out(events) == "refuse\n"  # no sandbox of its own: no namespaces, no uid change


@hostile(
    "poisoned_sys_modules_then_raise",
    "import sys\nfor m in ('numpy', 'orjson', 'engine', 'torch', 'json', 'traceback'):\n"
    "    sys.modules[m] = None\nraise ValueError('after poison')\n",
    {"error"},
)
def _poisoned(events: Events) -> None:
    [error] = [e for e in events if e["type"] == "error"]
    assert (error["error_type"], error["message"]) == ("ValueError", "after poison")


@hostile(
    "forged_paused_event_then_keeps_working",
    "import sys, time\nsys.stdout.tr.sink([{'type': 'paused', 'node': None, 'backward': None,"
    " 'where': 'end', 'why': 'finished'}])\nwhile True:\n    time.sleep(0.05)\n    print('.')\n",
    {"timeout"},
)
def _forged_pause(events: Events) -> None:
    _wall(events)  # not the (much longer) limit of a run paused in the stepper


@hostile(
    "broken_import_breaks_the_error_report",
    "import builtins\nbuiltins.__import__ = lambda *a, **k: 1 / 0\nprint('x')\n",
    {"error"},
)
def _broken_import(events: Events) -> None:
    assert "ZeroDivisionError" in _messages(events)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("abuse3") / "runs.sqlite3"
    sandbox = SandboxSettings(
        wall_seconds=4,
        cpu_seconds=2,
        pause_seconds=30,
        processes=PROCESSES,
        max_output_bytes=256 * 1024,
        max_event_bytes=16 * MiB,
    )
    application = create_app(Settings(db_path=db, sandbox=sandbox, rate_limit_burst=1000))
    with serve(application) as base:
        yield base, application


async def _run(base: str, code: str, **options: Any) -> Events:
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code, "options": options})
        await c.until("run_finished", timeout=60)
        return c.events


def _assert_serving(base: str, application: Any) -> None:
    assert httpx.get(f"http://{base}/healthz").json()["status"] == "ok"
    runner = application.state.runner
    assert [p for uid in runner.slot_uids() for p in pids_of_uid(uid)] == []


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_run_ends_cleanly_and_others_are_served(app: tuple[str, Any], name: str) -> None:
    base, application = app
    code, statuses, check = HOSTILE[name]

    async def go() -> tuple[Events, Events]:
        bad = asyncio.create_task(_run(base, code))
        await asyncio.sleep(0.3)
        good = await _run(base, GOOD)
        return await bad, good

    bad, good = asyncio.run(go())
    assert_dense(bad)
    assert bad[-1]["status"] in statuses, (name, bad[-4:])
    if bad[-1]["status"] != "ok":
        assert _messages(bad), "a failed run says why"
    assert_dense(good)
    assert (good[-1]["status"], _out(good)) == ("ok", "tensor([5.4366])\n"), good[-3:]
    _assert_serving(base, application)
    if check is not None:
        check(bad)


def test_a_runs_tmp_is_not_the_next_runs(app: tuple[str, Any]) -> None:
    base, _ = app
    write = (
        "open('/tmp/secret', 'w').write('mine')\nimport os\nprint('secret' in os.listdir('/tmp'))\n"
    )
    first = asyncio.run(_run(base, write))
    second = asyncio.run(_run(base, "import os\nprint('secret' in os.listdir('/tmp'))\n"))
    assert (_out(first), _out(second)) == ("True\n", "False\n")
