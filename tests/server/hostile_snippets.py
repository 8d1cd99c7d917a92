"""Hostile snippets run through the real server and sandbox, each with the clock that may end it.

`clock` says which limit is allowed to end a snippet, and the test server it runs on has only that
clock short (tests/server/test_hostile_runs.py), so that no test depends on which limit wins a
race on a slow machine:
- "none": the snippet ends by itself (finishing, its own error, a crash) or by a cap that is not a
  clock (output, events, event bytes, memory, processes); both clocks are far away.
- "cpu": it spins; the CPU limit ends it long before the (generous) wall clock.
- "wall": it waits without using CPU; the wall clock ends it.
`statuses` lists the statuses a run may end with; a check looks at its events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from server.sandbox.command import sandbox_layout

Events = list[dict[str, Any]]
Check = Callable[[Events], None]
Clock = Literal["none", "cpu", "wall"]

PROCESSES = 16  # the test servers' per-slot process limit
MAX_EVENT_BYTES = 4 * 1024 * 1024  # the test servers' cap on a run's bytes of events


@dataclass(frozen=True)
class Hostile:
    code: str
    clock: Clock
    statuses: frozenset[str]
    check: Check | None


HOSTILE: dict[str, Hostile] = {}


def hostile(name: str, code: str, clock: Clock, statuses: set[str]) -> Callable[[Any], Any]:
    """Register a snippet; used as a decorator of its check, or called with None."""

    def register(check: Check | None) -> Any:
        assert name not in HOSTILE, name
        HOSTILE[name] = Hostile(code, clock, frozenset(statuses), check)
        return check

    return register


def out(events: Events, stream: str = "stdout") -> str:
    return "".join(e["text"] for e in events if e["type"] == stream)


def messages(events: Events) -> str:
    return " | ".join(str(e.get("message")) for e in events if e["type"] == "error")


def _cpu(events: Events) -> None:
    assert "CPU time limit" in messages(events)


def _wall(events: Events) -> None:
    assert "wall-clock limit" in messages(events)


def _crash(events: Events) -> None:
    assert "SIGSEGV" in messages(events)


# Find the event socket among the worker's fds (the snippet is not told which one it is).
IS_SOCK = """import os, stat
def _is_sock(fd):
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False
socks = [fd for fd in range(3, 64) if _is_sock(fd)]
"""
FINISH = """import torch
a = torch.tensor([1.0], requires_grad=True)
(a * 3).sum().backward()
print('still running', a.grad)
"""

# -- time: only a clock ends these ------------------------------------------------------------ ---
hostile("infinite_loop", "while True: pass", "cpu", {"timeout"})(_cpu)
hostile("sleep_forever", "import time\ntime.sleep(1e6)", "wall", {"timeout"})(_wall)
hostile(
    "ignore_xcpu_and_term_then_spin",
    "import signal\n"
    "for s in (signal.SIGXCPU, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals))\n"
    "while True:\n    pass\n",
    "cpu",
    {"timeout"},
)(_cpu)
hostile(
    "raise_own_cpu_limit",
    "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
    "try:\n    resource.setrlimit(resource.RLIMIT_CPU, (-1, -1))\n"
    "except (ValueError, OSError) as e:\n    print(type(e).__name__)\n"
    "resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))\nwhile True:\n    pass\n",
    "cpu",
    {"timeout"},
)(_cpu)
hostile(
    "numpy_matmul_burns_cpu_in_c",
    "import numpy as np\na = np.random.rand(600, 600)\nwhile True:\n    a = a @ a\n"
    "    a /= a.max()\n",
    "cpu",
    {"timeout"},
)(_cpu)
hostile(
    "setsid_setpgid_escape_then_sleep",
    "import os, time\n"
    "if os.fork() == 0:\n    os.setsid()\n    time.sleep(300)\n"
    "os.setpgid(0, 0)\ntime.sleep(300)\n",
    "wall",
    {"timeout"},
)(_wall)
hostile(
    "sigstop_self", "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\n", "wall", {"timeout"}
)(_wall)
hostile("select_forever", "import select\nselect.select([], [], [], 1e6)\n", "wall", {"timeout"})(
    _wall
)
hostile(
    "blocking_recv_forever",
    "import socket\na, b = socket.socketpair()\na.recv(1)\n",
    "wall",
    {"timeout"},
)(_wall)
# a forged `paused` event must not stop the wall clock: not the (much longer) limit of a run
# paused in the stepper
hostile(
    "forged_paused_event_then_keeps_working",
    "import sys, time\nsys.stdout.tr.sink([{'type': 'paused', 'node': None, 'backward': None,"
    " 'where': 'end', 'why': 'finished'}])\nwhile True:\n    time.sleep(0.05)\n    print('.')\n",
    "wall",
    {"timeout"},
)(_wall)

# -- processes: the per-slot process limit, or a clock for what keeps spinning -------------- -----
# every process of the bomb forks or fails; whichever ends it first (an error in the parent, the
# process cap, the wall clock: the CPU limit is per process, and many processes share the cores)
hostile(
    "fork_bomb",
    "import os\nwhile True:\n    os.fork()",
    "wall",
    {"error", "limit", "timeout", "killed"},
)(None)
hostile(
    "kill_parent",
    "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
    "none",
    {"ok", "error", "killed"},
)(None)
hostile(
    "kill_everyone",
    "import os, signal\nos.kill(-1, signal.SIGKILL)",
    "none",
    {"ok", "error", "killed"},
)(None)


@hostile(
    "five_thousand_threads",
    "import threading, time\nn = 0\ntry:\n    for i in range(5000):\n"
    "        threading.Thread(target=time.sleep, args=(100,), daemon=True).start()\n"
    "        n += 1\nexcept RuntimeError as e:\n    print('refused:', e)\nprint(n)\n",
    "none",
    {"ok"},
)
def _threads(events: Events) -> None:
    refused, count = out(events).splitlines()
    assert refused == "refused: can't start new thread"
    assert int(count) < PROCESSES  # threads count against the slot uid's process limit


@hostile(
    "raw_clone_syscalls_through_ctypes",
    "import ctypes, time\nlibc = ctypes.CDLL(None, use_errno=True)\nn = 0\n"
    "for i in range(200):\n    r = libc.syscall(56, 17, 0, 0, 0, 0)\n"  # clone(SIGCHLD): a fork
    "    if r == 0:\n        time.sleep(100)\n    if r < 0:\n        break\n    n += 1\n"
    "print(n, ctypes.get_errno())\n",
    "none",
    {"ok"},
)
def _clone(events: Events) -> None:
    forked, errno = map(int, out(events).split())
    assert forked < PROCESSES and errno == 11  # EAGAIN: the process limit


hostile(
    "multiprocessing_pool",
    "import multiprocessing as mp\nwith mp.Pool(4) as p:\n    print(p.map(abs, [-1, -2]))\n",
    "none",
    {"error"},
)(None)


@hostile(
    "threads_print_after_main_ends",
    "import threading, time\n"
    "def spam():\n    while True:\n        print('bg'); time.sleep(0.001)\n"
    "for _ in range(4):\n    threading.Thread(target=spam).start()\n"
    "time.sleep(0.05)\nprint('main done')\n",
    "none",
    {"ok", "limit"},
)
def _main_done(events: Events) -> None:
    # print() writes the text and its newline separately, so a thread's write may fall between
    # them ("main donebg\n\n"): look for the text alone
    assert "main done" in out(events), [e for e in events if e["type"] != "stdout"][-2:]


hostile(
    "child_keeps_a_dup_of_the_event_socket",
    IS_SOCK + "import time\nkeep = [os.dup(fd) for fd in socks]\n"
    "if os.fork() == 0:\n    time.sleep(0.3)\n"
    "    for fd in keep:\n        os.write(fd, b'\\x00\\x00\\x00\\x02[]')\n"
    "    time.sleep(300)\n" + FINISH,
    "none",
    {"ok", "error"},
)(None)


@hostile(
    "shell_subprocess",
    "import subprocess\nr = subprocess.run(['/bin/sh', '-c', 'id -u; ls /'], "
    "capture_output=True, text=True)\nprint(r.stdout)\n",
    "none",
    {"ok"},
)
def _shell(events: Events) -> None:
    uid, *listing = out(events).split()
    assert int(uid) >= 1000  # the slot's uid, not root
    # host dirs are not bound (/opt holds only the Python bound at /opt/python, if any)
    ours = {Path(inside).parts[1] for _, inside in sandbox_layout().binds}
    assert not ({"home", "var", "run", "srv", "opt", "work"} - ours) & set(listing)


# -- memory ------------------------------------------------------------------------------------ --
hostile(
    "mmap_dev_zero_over_the_limit",
    "import mmap, os\nfd = os.open('/dev/zero', os.O_RDWR)\n"
    "m = mmap.mmap(fd, 4 << 30, mmap.MAP_PRIVATE)\nm[-1:] = b'x'\n",
    "none",
    {"error"},
)(None)
hostile(
    "mmap_anonymous_noreserve",
    "import mmap\nm = mmap.mmap(-1, 8 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS"
    " | 0x4000)\n",
    "none",
    {"error"},
)(None)
hostile(
    "zip_bomb",
    "import zlib\nbomb = zlib.compress(bytes(64 << 20), 9)\nout = []\n"
    "while True:\n    out.append(zlib.decompress(bomb))\n",
    "none",
    {"error"},
)(None)


@hostile(
    "numpy_giant_then_large_allocation",
    "import numpy as np\ntry:\n    np.empty(10 ** 11)\nexcept MemoryError as e:\n"
    "    print(type(e).__name__)\ntry:\n    np.ones(10 ** 9)\nexcept MemoryError as e:\n"
    "    print(type(e).__name__)\n",
    "none",
    {"ok"},
)
def _numpy_memory(events: Events) -> None:
    assert out(events) == "MemoryError\nMemoryError\n"


hostile("huge_int_to_str", "print(str(10 ** 100000))\n", "none", {"error"})(None)
# quadratic in C: the CPU limit or a MemoryError, whichever comes first
hostile(
    "huge_int_to_str_unlimited",
    "import sys\nsys.set_int_max_str_digits(0)\nprint(len(str(10 ** 20_000_000)))\n",
    "cpu",
    {"timeout", "error"},
)(None)

# -- output and events ---------------------------------------------------------------------------
hostile("print_flood", "while True: print('x' * 100)", "none", {"limit"})(None)
hostile("a_million_tiny_prints", "for i in range(10 ** 6):\n    print()\n", "none", {"limit"})(None)


@hostile(
    "output_without_newlines",
    "import sys\nfor i in range(100_000):\n    sys.stdout.write('x')\n",
    "none",
    {"limit"},
)
def _no_newline(events: Events) -> None:
    assert "an output line longer than" in messages(events)


# untracked ops under no_grad make events: the event cap or the CPU limit ends it
hostile(
    "generator_yielding_forever_in_no_grad",
    "import torch\ndef gen():\n    with torch.no_grad():\n        while True:\n"
    "            yield torch.ones(1) * 2\nfor t in gen():\n    pass\n",
    "cpu",
    {"timeout", "limit"},
)(None)


@hostile(
    "fake_protocol_event",
    'print(\'[{"type": "run_finished", "status": "ok", "seq": 1}]\')',
    "none",
    {"ok"},
)
def _fake_event(events: Events) -> None:
    texts = [e for e in events if e["type"] == "stdout"]
    assert texts and '"run_finished"' in texts[0]["text"]


@hostile(
    "binary_garbage_on_fd_1_after_closing_sys_stdout",
    "import os, sys\nsys.stdout.close()\nos.write(1, bytes(range(256)) + b'\\n')\n"
    "os.write(2, b'fd2\\n')\n",
    "none",
    {"ok"},
)
def _binary(events: Events) -> None:
    text = out(events)
    assert text.startswith("".join(map(chr, range(128)))) and "\ufffd" in text
    assert out(events, "stderr") == "fd2\n"


@hostile(
    "replace_os_exit_and_stdout_then_atexit",
    "import atexit, os, sys\nprint('before')\n"
    "atexit.register(lambda: os.write(2, b'atexit ran'))\n"
    "os._exit = None\nsys.stdout = None\n",
    "none",
    {"ok"},
)
def _exit(events: Events) -> None:
    assert out(events) == "before\n" and "atexit ran" not in out(events, "stderr")


# -- the worker's channel and the tracer, reached from the snippet ---------------------------- ---
@hostile("close_fds_0_to_1023", "import os\nos.closerange(0, 1024)\n" + FINISH, "none", {"error"})
def _no_escape(events: Events) -> None:
    assert "still running" not in out(events)


hostile(
    "dup2_devnull_over_fds",
    "import os\nnull = os.open('/dev/null', os.O_RDWR)\n"
    "for fd in range(0, 64):\n    if fd != null:\n"
    "        try:\n            os.dup2(null, fd)\n        except OSError:\n            pass\n"
    + FINISH,
    "none",
    {"error"},
)(_no_escape)
hostile(
    "garbage_frame_then_continue",
    IS_SOCK + "for fd in socks:\n    os.write(fd, b'\\x00\\x00\\x00\\x05hello')\n" + FINISH,
    "none",
    {"error"},
)(None)
# a frame announced as 4 KiB that never comes whole: an error when the worker's end closes the
# channel, or the wall clock while the server waits for the rest
hostile(
    "half_frame_then_continue",
    IS_SOCK + "for fd in socks:\n    os.write(fd, b'\\x00\\x00\\x10\\x00[{\"type\"')\n" + FINISH,
    "wall",
    {"error", "timeout"},
)(None)


@hostile(
    "huge_events_through_the_tracers_sink",
    # (events that fit the protocol, so that the byte cap is what ends the run)
    "import sys\nsink = sys.stdout.tr.sink\nbig = 'x' * (4 << 20)\n"
    "ev = {'type': 'tensor_values', 't': 0, 'tensor_id': 0, 'shape': [1], 'dtype': 'str',\n"
    "      'offset': 0, 'total': 1, 'values': [big], 'last': True}\n"
    "while True:\n    sink([ev])\n",
    "none",
    {"limit"},
)
def _event_bytes(events: Events) -> None:
    assert f"more than {MAX_EVENT_BYTES} bytes of events" in messages(events)


@hostile(
    "forged_summary_from_the_workers_channel",
    "import gc\nch = [o for o in gc.get_objects() if type(o).__name__ == 'Channel']\n"
    "ch[0].send({'summary': {'status': 'ok'}})\nprint('after the forged summary')\n",
    "none",
    {"error"},
)
def _summary(events: Events) -> None:
    assert "a frame after the final summary" in messages(events)


@hostile(
    "forged_stdout_event_with_a_number_for_text",
    "import sys\nsys.stdout.tr.sink([{'type': 'stdout', 'text': 5}])\nprint('after')\n",
    "none",
    {"error"},
)
def _text_not_str(events: Events) -> None:
    assert "an event does not fit the protocol: Expected `str`, got `int`" in messages(events)
    assert all(isinstance(e["text"], str) for e in events if e["type"] == "stdout")


@hostile(
    "import_the_server_inside_the_sandbox",
    "import server.sandbox.runner as r\nprint(r.Sandbox().mode.name)\n",
    "none",
    {"ok"},
)
def _server_inside(events: Events) -> None:
    assert out(events) == "refuse\n"  # no sandbox of its own: no namespaces, no uid change


hostile(
    "break_builtins_the_tracer_uses",
    "import builtins\nbuiltins.isinstance = None\nbuiltins.len = None\nimport torch\n"
    "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n",
    "none",
    {"error"},
)(None)


@hostile(
    "poisoned_sys_modules_then_raise",
    "import sys\nfor m in ('numpy', 'orjson', 'engine', 'torch', 'json', 'traceback'):\n"
    "    sys.modules[m] = None\nraise ValueError('after poison')\n",
    "none",
    {"error"},
)
def _poisoned(events: Events) -> None:
    [error] = [e for e in events if e["type"] == "error"]
    assert (error["error_type"], error["message"]) == ("ValueError", "after poison")


# the run breaks `import`, then fails: reporting the failure must not need an import (or, if
# the tracer's own path imports, that failure is the one reported)
@hostile(
    "broken_import_breaks_the_error_report",
    "import builtins\nbuiltins.__import__ = lambda *a, **k: 1 / 0\nprint('x')\n"
    "raise ValueError('after breaking import')\n",
    "none",
    {"error"},
)
def _broken_import(events: Events) -> None:
    text = messages(events)
    assert "after breaking import" in text or "ZeroDivisionError" in text, text


# -- the interpreter: crashes, recursion, exits, signals ---------------------------------------- -
# the C stack overflows (sys.setrecursionlimit lifts the guard): a crash, reported, not a hang
hostile(
    "c_stack_overflow_in_repr",
    "import sys\nsys.setrecursionlimit(10 ** 6)\nl = []\nfor _ in range(10 ** 6):\n"
    "    l = [l]\nprint(len(repr(l)))\n",
    "none",
    {"error"},
)(_crash)
hostile(
    "forged_code_object",
    "f = lambda: 0\ncode = f.__code__.replace(co_code=b'\\x97\\x00' + b'\\x64\\xff' * 50"
    " + b'\\x53\\x00', co_consts=())\nprint(type(f)(code, {})())\n",
    "none",
    {"error"},
)(_crash)
# a million Python frames take long to build on a loaded machine: the crash or the CPU limit
hostile(
    "python_recursion_a_million_deep",
    "import sys\nsys.setrecursionlimit(10 ** 6)\ndef f(n):\n    return f(n + 1) + 1\nf(0)\n",
    "cpu",
    {"error", "timeout"},
)(None)


@hostile(
    "recursive_repr_of_a_tensor_subclass",
    "import torch\nclass T(torch.Tensor):\n    def __repr__(self):\n        return repr(self)\n"
    "x = T([1.0, 2.0])\nx.requires_grad_()\n(x * x).sum().backward()\n"
    "print(x)\nprint(repr(x))\n",
    "none",
    {"error"},
)
def _recursion(events: Events) -> None:
    [error] = [e for e in events if e["type"] == "error"]
    assert error["error_type"] == "RecursionError"


hostile("sys_exit", "import sys\nsys.exit(3)", "none", {"error"})(None)
# SIGALRM's default action ends the process a second in, long before any clock of the server
hostile(
    "sigalrm_self", "import signal\nsignal.alarm(1)\nwhile True:\n    pass\n", "none", {"error"}
)(None)

# -- the kernel's surface ------------------------------------------------------------------------


@hostile(
    "ctypes_prctl_unshare_setns_personality",
    "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
    "def call(name, *args):\n    r = getattr(libc, name)(*args)\n"
    "    print(name, r, ctypes.get_errno() if r == -1 else 0)\n"
    "call('unshare', 0x10000000)\ncall('unshare', 0x20000)\n"
    "call('setns', 0, 0)\ncall('personality', 0x0040000)\n"
    "call('prctl', 38, 1, 0, 0, 0)\n"  # PR_SET_NO_NEW_PRIVS: harmless, allowed
    "call('prctl', 24, 0, 0, 0, 0)\n",  # PR_CAPBSET_DROP of CAP_CHOWN: no capability
    "none",
    {"ok"},
)
def _ctypes(events: Events) -> None:
    lines = out(events).splitlines()
    assert lines[:4] == ["unshare -1 1", "unshare -1 1", "setns -1 1", "personality -1 1"]
    assert lines[4] == "prctl 0 0"
    assert lines[5] == "prctl -1 1"


@hostile(
    "af_unix_and_netlink_sockets",
    "import socket\n"
    "u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
    "for name in ('\\0/org/freedesktop', '/run/docker.sock', '/run/dbus/system_bus_socket'):\n"
    "    try:\n        u.connect(name)\n        print('connected', name)\n"
    "    except OSError as e:\n        print(type(e).__name__)\n"
    "for family in (socket.AF_NETLINK, socket.AF_PACKET, socket.AF_INET6):\n"
    "    try:\n        socket.socket(family, socket.SOCK_RAW)\n        print('made', family)\n"
    "    except OSError as e:\n        print(type(e).__name__)\n",
    "none",
    {"ok"},
)
def _sockets(events: Events) -> None:
    assert out(events).split() == [
        "ConnectionRefusedError",
        "FileNotFoundError",
        "FileNotFoundError",
        "PermissionError",
        "PermissionError",
        "PermissionError",
    ]
