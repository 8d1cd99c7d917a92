"""More hostile snippets through the real server and sandbox (beyond test_abuse_ws.py): each run
ends with a clear status, the server and /healthz stay up, a parallel session's run completes
correctly, no process of a slot uid survives, and nothing on the host changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.app import create_app
from server.sandbox.command import APP_ROOT, ENV
from server.sandbox.reaper import pids_of_uid
from server.sandbox.settings import SandboxSettings
from server.settings import Settings
from tests.server.live import Client, assert_dense, connect, serve
from tests.server.test_abuse_ws import GOOD

# Find the event socket among the worker's fds (the snippet is not told which one it is).
SOCKETS = """import os, stat
socks = [fd for fd in range(3, 64) if _is_sock(fd)]
"""
IS_SOCK = """import os, stat
def _is_sock(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False
"""
FINISH = """import torch
a = torch.tensor([1.0], requires_grad=True)
(a * 3).sum().backward()
print('still running', a.grad)
"""

HOSTILE: dict[str, tuple[str, set[str]]] = {
    "ignore_xcpu_and_term_then_spin": (
        "import signal\n"
        "for s in (signal.SIGXCPU, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
        "    signal.signal(s, signal.SIG_IGN)\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals))\n"
        "while True:\n    pass\n",
        {"timeout"},
    ),
    "threads_print_after_main_ends": (
        "import threading, time\n"
        "def spam():\n    while True:\n        print('bg'); time.sleep(0.001)\n"
        "for _ in range(4):\n    threading.Thread(target=spam).start()\n"
        "time.sleep(0.05)\nprint('main done')\n",
        {"ok", "limit"},
    ),
    "close_fds_0_to_1023": (
        "import os\nos.closerange(0, 1024)\n" + FINISH,
        {"error"},
    ),
    "dup2_devnull_over_fds": (
        "import os\nnull = os.open('/dev/null', os.O_RDWR)\n"
        "for fd in range(0, 64):\n    if fd != null:\n"
        "        try:\n            os.dup2(null, fd)\n        except OSError:\n            pass\n"
        + FINISH,
        {"error"},
    ),
    "garbage_frame_then_continue": (
        IS_SOCK
        + SOCKETS
        + "for fd in socks:\n    os.write(fd, b'\\x00\\x00\\x00\\x05hello')\n"
        + FINISH,
        {"error"},
    ),
    "half_frame_then_continue": (
        IS_SOCK
        + SOCKETS
        + "for fd in socks:\n    os.write(fd, b'\\x00\\x00\\x10\\x00[{\"type\"')\n"
        + FINISH,
        {"error", "timeout"},
    ),
    "setsid_setpgid_escape_then_sleep": (
        "import os, time\n"
        "if os.fork() == 0:\n    os.setsid()\n    time.sleep(300)\n"
        "os.setpgid(0, 0)\ntime.sleep(300)\n",
        {"timeout"},
    ),
    "sigstop_self": ("import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\n", {"timeout"}),
    "mmap_dev_zero_over_the_limit": (
        "import mmap, os\nfd = os.open('/dev/zero', os.O_RDWR)\n"
        "m = mmap.mmap(fd, 4 << 30, mmap.MAP_PRIVATE)\nm[-1:] = b'x'\n",
        {"error"},
    ),
    "mmap_anonymous_noreserve": (
        "import mmap\nm = mmap.mmap(-1, 8 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS"
        " | 0x4000)\n",
        {"error"},
    ),
    "zip_bomb": (
        "import zlib\nbomb = zlib.compress(bytes(64 << 20), 9)\nout = []\n"
        "while True:\n    out.append(zlib.decompress(bomb))\n",
        {"error", "timeout"},
    ),
    "huge_int_to_str": ("print(str(10 ** 100000))\n", {"error"}),
    "huge_int_to_str_unlimited": (
        "import sys\nsys.set_int_max_str_digits(0)\nprint(len(str(10 ** 20_000_000)))\n",
        {"timeout", "error"},
    ),
    "ctypes_prctl_unshare_setns_personality": (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "def call(name, *args):\n    r = getattr(libc, name)(*args)\n"
        "    print(name, r, ctypes.get_errno() if r == -1 else 0)\n"
        "call('unshare', 0x10000000)\ncall('unshare', 0x20000)\n"
        "call('setns', 0, 0)\ncall('personality', 0x0040000)\n"
        "call('prctl', 38, 1, 0, 0, 0)\n"  # PR_SET_NO_NEW_PRIVS: harmless, allowed
        "call('prctl', 24, 0, 0, 0, 0)\n",  # PR_CAPBSET_DROP of CAP_CHOWN: no capability
        {"ok"},
    ),
    "af_unix_and_netlink_sockets": (
        "import socket\n"
        "u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
        "for name in ('\\0/org/freedesktop', '/run/docker.sock', '/run/dbus/system_bus_socket'):\n"
        "    try:\n        u.connect(name)\n        print('connected', name)\n"
        "    except OSError as e:\n        print(type(e).__name__)\n"
        "for family in (socket.AF_NETLINK, socket.AF_PACKET, socket.AF_INET6):\n"
        "    try:\n        socket.socket(family, socket.SOCK_RAW)\n        print('made', family)\n"
        "    except OSError as e:\n        print(type(e).__name__)\n",
        {"ok"},
    ),
    "recursive_repr_of_a_tensor_subclass": (
        "import torch\nclass T(torch.Tensor):\n    def __repr__(self):\n        return repr(self)\n"
        "x = T([1.0, 2.0])\nx.requires_grad_()\n(x * x).sum().backward()\n"
        "print(x)\nprint(repr(x))\n",
        {"error"},
    ),
    "a_million_tiny_prints": ("for i in range(10 ** 6):\n    print()\n", {"limit"}),
    "generator_yielding_forever_in_no_grad": (
        "import torch\ndef gen():\n    with torch.no_grad():\n        while True:\n"
        "            yield torch.ones(1) * 2\nfor t in gen():\n    pass\n",
        {"timeout", "limit"},
    ),
    "raise_own_cpu_limit": (
        "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
        "try:\n    resource.setrlimit(resource.RLIMIT_CPU, (-1, -1))\n"
        "except (ValueError, OSError) as e:\n    print(type(e).__name__)\n"
        "resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))\nwhile True:\n    pass\n",
        {"timeout"},
    ),
    "child_keeps_a_dup_of_the_event_socket": (
        IS_SOCK + SOCKETS + "import time\nkeep = [os.dup(fd) for fd in socks]\n"
        "if os.fork() == 0:\n    time.sleep(0.3)\n"
        "    for fd in keep:\n        os.write(fd, b'\\x00\\x00\\x00\\x02[]')\n"
        "    time.sleep(300)\n" + FINISH,
        {"ok", "error"},
    ),
    "replace_os_exit_and_stdout_then_atexit": (
        "import atexit, os, sys\nprint('before')\n"
        "atexit.register(lambda: os.write(2, b'atexit ran'))\n"
        "os._exit = None\nsys.stdout = None\n",
        {"ok"},
    ),
    "break_builtins_the_tracer_uses": (
        "import builtins\nbuiltins.isinstance = None\nbuiltins.len = None\nimport torch\n"
        "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n",
        {"error"},
    ),
    "sigalrm_self": ("import signal\nsignal.alarm(1)\nwhile True:\n    pass\n", {"error"}),
    "shell_subprocess": (
        "import subprocess\nr = subprocess.run(['/bin/sh', '-c', 'id -u; ls /'], "
        "capture_output=True, text=True)\nprint(r.stdout)\n",
        {"ok"},
    ),
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Path]]:
    db = tmp_path_factory.mktemp("abuse_more") / "runs.sqlite3"
    # the wall clock is well past the CPU limit's hard second, so that a spinning snippet
    # always meets the CPU limit first
    sandbox = SandboxSettings(wall_seconds=6, cpu_seconds=2, max_output_bytes=256 * 1024)
    application = create_app(Settings(db_path=db, sandbox=sandbox, rate_limit_burst=400))
    with serve(application) as base:
        yield base, application, db


async def _run(base: str, code: str) -> list[dict[str, Any]]:
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=60)
        return c.events


def _host_state() -> set[str]:
    """What a run could have left on the host: entries of the app's directories."""
    dirs = (APP_ROOT, APP_ROOT / "server", APP_ROOT / "server" / "sandbox", APP_ROOT / "engine")
    return {str(p) for d in dirs for p in d.iterdir()}


def _output(events: list[dict[str, Any]]) -> str:
    return "".join(e["text"] for e in events if e["type"] == "stdout")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_run_ends_cleanly_and_others_are_served(
    app: tuple[str, Any, Path], name: str
) -> None:
    base, application, _ = app
    code, statuses = HOSTILE[name]
    before = _host_state()

    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        bad = asyncio.create_task(_run(base, code))
        await asyncio.sleep(0.3)
        good = await _run(base, GOOD)
        return await bad, good

    bad, good = asyncio.run(go())
    assert_dense(bad)
    assert [e["type"] for e in bad].count("run_finished") == 1
    assert bad[-1]["status"] in statuses, (name, bad[-4:])
    assert_dense(good)
    assert (good[-1]["status"], _output(good)) == ("ok", "tensor([5.4366])\n"), good[-3:]
    assert httpx.get(f"http://{base}/healthz").json()["status"] == "ok"
    runner = application.state.runner
    assert [p for uid in runner.slot_uids() for p in pids_of_uid(uid)] == []
    assert _host_state() == before
    check = CHECKS.get(name)
    if check is not None:
        check(bad)


def _check_cpu(events: list[dict[str, Any]]) -> None:
    assert "CPU time limit" in events[-2]["message"]


def _check_threads(events: list[dict[str, Any]]) -> None:
    assert "main done\n" in _output(events)


def _check_ctypes(events: list[dict[str, Any]]) -> None:
    lines = _output(events).splitlines()
    assert lines[:4] == ["unshare -1 1", "unshare -1 1", "setns -1 1", "personality -1 1"]
    assert lines[4] == "prctl 0 0"
    assert lines[5] == "prctl -1 1"


def _check_sockets(events: list[dict[str, Any]]) -> None:
    assert _output(events).split() == [
        "ConnectionRefusedError",
        "FileNotFoundError",
        "FileNotFoundError",
        "PermissionError",
        "PermissionError",
        "PermissionError",
    ]


def _check_repr(events: list[dict[str, Any]]) -> None:
    [error] = [e for e in events if e["type"] == "error"]
    assert error["error_type"] == "RecursionError"


def _check_no_escape(events: list[dict[str, Any]]) -> None:
    assert "still running" not in _output(events)


def _check_exit(events: list[dict[str, Any]]) -> None:
    stderr = "".join(e["text"] for e in events if e["type"] == "stderr")
    assert _output(events) == "before\n" and "atexit ran" not in stderr


def _check_shell(events: list[dict[str, Any]]) -> None:
    uid, *listing = _output(events).split()
    assert int(uid) >= 1000  # the slot's uid, not root
    assert not {"home", "var", "run", "srv", "opt"} & set(listing)  # host dirs are not bound


CHECKS = {
    "replace_os_exit_and_stdout_then_atexit": _check_exit,
    "shell_subprocess": _check_shell,
    "ignore_xcpu_and_term_then_spin": _check_cpu,
    "raise_own_cpu_limit": _check_cpu,
    "threads_print_after_main_ends": _check_threads,
    "ctypes_prctl_unshare_setns_personality": _check_ctypes,
    "af_unix_and_netlink_sockets": _check_sockets,
    "recursive_repr_of_a_tensor_subclass": _check_repr,
}

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


def test_secrets_of_the_host_and_the_server_are_out_of_reach(app: tuple[str, Any, Path]) -> None:
    """/proc/self/environ, other processes' command lines, the database, the repository."""
    base, _, db = app
    paths = {
        "DB": str(db),
        "GIT": str(APP_ROOT / ".git" / "HEAD"),
        "TESTS": str(Path(__file__)),
        "SETTINGS": str(APP_ROOT / "server" / "settings.py"),
    }
    code = "".join(f"{k} = {v!r}\n" for k, v in paths.items()) + SNOOP
    events = asyncio.run(_run(base, code))
    assert events[-1]["status"] == "ok", events[-4:]
    found = json.loads(_output(events))
    # the worker is not dumpable after dropping to its uid; were it readable, only ENV is there
    environ = found["environ"]
    assert environ == "PermissionError" or {e.split("=", 1)[0] for e in environ if e} <= set(ENV)
    assert len(found["pids"]) <= 3  # bubblewrap's init, the worker (and its own children)
    assert not [c for c in found["cmdlines"] if "uvicorn" in c or "pytest" in c]
    assert found["db"] == "FileNotFoundError"
    assert found["git"] == "FileNotFoundError"  # only the code the worker runs is bound
    assert found["tests"] == "FileNotFoundError"
    assert found["settings"] == "FileNotFoundError"
