"""Hostile snippets against the real sandbox: each ends cleanly, others still run, the host
is untouched. Caps are small (see short_settings) so the module stays fast; a clock is short
only in the sandbox of the tests about that clock, so no other run can end by a clock."""

from __future__ import annotations

import os
import select
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.sandbox import RunRefused, Sandbox
from server.sandbox.command import APP_ROOT, sandbox_layout
from tests.server.sandbox_helpers import (
    NORMAL,
    NORMAL_OUT,
    Result,
    alongside,
    cpu_limited,
    leftover_pids,
    run_sync,
    short_settings,
    wall_limited,
)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    sb = Sandbox(short_settings())
    assert sb.mode.name == "bwrap", sb.mode.reason
    return sb


@pytest.fixture(scope="module")
def cpu_sandbox() -> Sandbox:
    """Only the CPU limit can end a spinning run here (the wall clock is generous)."""
    return Sandbox(cpu_limited())


@pytest.fixture(scope="module")
def wall_sandbox() -> Sandbox:
    """Only the wall clock can end a waiting run here (the CPU limit is generous)."""
    return Sandbox(wall_limited())


def check(
    sandbox: Sandbox, code: str, parallel: bool = True, others: Sandbox | None = None
) -> Result:
    """Run `code` with a normal snippet beside it (or after it); the normal one must be right.
    The normal one runs in `others` when `sandbox` has a short clock it could meet on a slow
    machine."""
    bad, good = alongside(sandbox, code, parallel, others)
    assert good.status == "ok", good.summary
    assert good.text() == NORMAL_OUT
    assert leftover_pids(sandbox) == [], "a process of the run survived it"
    return bad


def error_type(result: Result) -> str:
    """The snippet's own error event's type."""
    [error] = [e for e in result.errors() if e.get("source") != "sandbox"]
    return str(error["error_type"])


def test_busy_loop_hits_the_cpu_limit(cpu_sandbox: Sandbox, sandbox: Sandbox) -> None:
    result = check(cpu_sandbox, "while True:\n    pass\n", parallel=False, others=sandbox)
    assert result.status == "timeout"
    assert result.errors()[-1]["error_type"] == "timeout"
    assert "CPU time limit" in result.summary["message"]


def test_sleep_hits_the_wall_clock_limit(wall_sandbox: Sandbox, sandbox: Sandbox) -> None:
    result = check(wall_sandbox, "import time\ntime.sleep(1e6)\n", others=sandbox)
    assert result.status == "timeout"
    assert "wall-clock" in result.summary["message"]


@pytest.mark.parametrize(
    "code",
    [
        "x = []\nwhile True:\n    x.append(' ' * 10**7)\n",
        "import numpy as np\nnp.zeros((1 << 16,) * 2)\n",
    ],
    ids=["list", "numpy"],
)
def test_memory_bombs_raise_memory_error(sandbox: Sandbox, code: str) -> None:
    result = check(sandbox, code)
    assert result.status == "error"
    assert "MemoryError" in error_type(result)


def test_a_tensor_over_the_element_cap_ends_the_run(sandbox: Sandbox) -> None:
    result = check(sandbox, "import torch\nx = torch.zeros(3_000_000)\nprint('made')\n")
    assert result.status == "limit"
    assert "3000000 elements" in result.summary["message"]


def test_fork_bomb_is_capped_per_slot_and_fully_reaped(
    wall_sandbox: Sandbox, sandbox: Sandbox
) -> None:
    code = """import os, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.05)
"""
    # the bomb ends by a clock or by an error in one of its processes, whichever comes first
    result = check(wall_sandbox, code, others=sandbox)
    assert result.status in ("timeout", "error")


def test_spinning_fork_bomb_is_reaped(wall_sandbox: Sandbox, sandbox: Sandbox) -> None:
    # the CPU limit is per process: a bomb of spinning processes is ended by the wall clock
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    result = check(wall_sandbox, code, parallel=False, others=sandbox)
    assert result.status in ("timeout", "error")


def test_thread_bomb_fails_to_start_threads(sandbox: Sandbox) -> None:
    code = """import threading, time
while True:
    threading.Thread(target=time.sleep, args=(100,), daemon=True).start()
"""
    result = check(sandbox, code)
    assert result.status == "error"
    assert error_type(result) == "RuntimeError"


def test_print_flood_hits_the_output_cap(sandbox: Sandbox) -> None:
    result = check(sandbox, "while True:\n    print('x' * 100)\n")
    assert result.status == "limit"
    assert "output" in result.summary["message"]


def test_a_100_mb_line_hits_the_line_cap(sandbox: Sandbox) -> None:
    result = check(sandbox, "print('x' * 100_000_000)\n")
    assert result.status == "limit"
    assert "line" in result.summary["message"]
    assert result.summary["output_bytes"] < 1024 * 1024


def test_printed_protocol_lookalikes_are_just_text(sandbox: Sandbox) -> None:
    fake = '[{"type": "run_finished", "status": "ok"}]'
    code = f"""import os, struct
print({fake!r})
os.write(1, struct.pack(">I", {len(fake)}) + {fake!r}.encode())
os.write(2, b'{{"summary": {{"status": "ok"}}}}')
"""
    result = check(sandbox, code)
    assert result.status == "ok"
    assert result.text().startswith(fake + "\n")
    assert result.text().endswith(fake)
    assert result.text("stderr") == '{"summary": {"status": "ok"}}'
    assert not any(e["type"] == "run_finished" for e in result.events)


# A snippet that could make an internet socket must never use it: tests only talk to loopback.
GUARD = """import socket
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except OSError as e:
    print("blocked", e.errno)
else:
    s.close()
    print("socket created")
    raise SystemExit(0)
"""


def test_no_internet_socket_can_be_made(sandbox: Sandbox) -> None:
    code = GUARD + "s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)\n"
    result = check(sandbox, code)
    assert result.text().startswith("blocked")
    assert result.status == "error"
    assert error_type(result) == "PermissionError"


@pytest.fixture()
def listener() -> Iterator[socket.socket]:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.setblocking(False)
    yield srv
    srv.close()


def test_loopback_listener_gets_no_connection(sandbox: Sandbox, listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    code = GUARD + f"socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
    result = check(sandbox, code)
    assert result.status == "error"
    assert result.text().startswith("blocked")
    readable, _, _ = select.select([listener], [], [], 0.2)
    assert readable == [], "something from the sandbox connected to the host's loopback"


def test_dns_lookup_fails(sandbox: Sandbox) -> None:
    result = check(sandbox, GUARD + "socket.getaddrinfo('backscope.invalid', 80)\n")
    assert result.status == "error"
    assert error_type(result) == "gaierror"


def test_host_files_outside_the_binds_are_invisible(sandbox: Sandbox) -> None:
    host_passwd = Path("/etc/passwd").read_text()
    result = check(sandbox, "print(open('/etc/passwd').read())\n")
    assert error_type(result) == "FileNotFoundError"
    assert host_passwd.splitlines()[0] not in str(result.events)


def test_pid_1_environment_is_unreadable(sandbox: Sandbox) -> None:
    # there is no procfs in the sandbox (test_sandbox_host_details); were there one, the
    # worker's uid could not read the environment of bubblewrap's init (root)
    result = check(sandbox, "print(open('/proc/1/environ', 'rb').read())\n")
    assert error_type(result) in ("FileNotFoundError", "PermissionError")


def test_app_source_is_readable_but_not_writable(sandbox: Sandbox) -> None:
    app = Path(sandbox_layout().app)  # where the app is inside the sandbox
    target = APP_ROOT / "backscope_sandbox_probe.txt"
    code = f"""src = open({str(app / "server/sandbox/worker.py")!r}).read()
print(len(src) > 0)
open({str(app / target.name)!r}, 'w').write('pwned')
"""
    result = check(sandbox, code)
    assert result.text() == "True\n"
    # EROFS: the app's directory lies on the read-only root
    assert error_type(result) in ("OSError", "PermissionError")
    assert not target.exists()


def test_usr_is_read_only(sandbox: Sandbox) -> None:
    result = check(sandbox, "open('/usr/bin/backscope-probe', 'w').write('x')\n")
    assert error_type(result) == "OSError"
    assert not Path("/usr/bin/backscope-probe").exists()


def test_only_tmp_is_writable(sandbox: Sandbox) -> None:
    app = sandbox_layout().app
    dirs = ["/", "/dev", "/dev/shm", "/etc", app, f"{app}/engine", f"{app}/server", "/tmp"]
    code = f"""import os
for d in {dirs!r}:
    try:
        open(os.path.join(d, 'probe'), 'w').close()
        print(d)
    except OSError:
        pass
"""
    assert check(sandbox, code).text() == "/tmp\n"


def test_filling_tmp_stops_at_the_size_limits(sandbox: Sandbox) -> None:
    code = """big = b'x' * (1 << 20)
for i in range(64):
    with open(f'/tmp/fill{i}', 'wb') as f:
        f.write(big)
"""
    before = set(os.listdir("/tmp"))
    result = check(sandbox, code)
    assert error_type(result) == "OSError"
    assert "No space left" in result.errors()[0]["message"]
    assert not any(name.startswith("fill") for name in set(os.listdir("/tmp")) - before)


def test_one_file_over_the_file_size_limit_fails(sandbox: Sandbox) -> None:
    code = "open('/tmp/one', 'wb').write(b'x' * (6 << 20))\n"
    result = check(sandbox, code)
    assert error_type(result) == "OSError"
    assert "File too large" in result.errors()[0]["message"]


def test_exhausting_file_descriptors_fails_cleanly(sandbox: Sandbox) -> None:
    result = check(sandbox, "fs = [open('/dev/null') for _ in range(100_000)]\n")
    assert error_type(result) == "OSError"
    assert "Too many open files" in result.errors()[0]["message"]


def test_killing_the_parent_is_not_allowed(sandbox: Sandbox) -> None:
    result = check(sandbox, "import os\nos.kill(os.getppid(), 9)\n")
    assert error_type(result) == "PermissionError"


def test_kill_minus_one_only_reaches_the_run_itself(sandbox: Sandbox) -> None:
    code = """import os, time
pid = os.fork()
if pid == 0:
    time.sleep(30)
    os._exit(0)
os.kill(-1, 9)
print(os.waitpid(pid, 0)[1] & 0x7F, 'still here')
"""
    result = check(sandbox, code)  # the parallel run (another slot uid) is unaffected
    assert result.status == "ok"
    assert result.text() == "9 still here\n"  # its own child died of SIGKILL, itself did not


def test_double_forked_daemon_does_not_survive_the_run(sandbox: Sandbox) -> None:
    code = """import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(60)
    os._exit(0)
time.sleep(0.2)
print('parent done')
"""
    result = check(sandbox, code)  # check() asserts no process of the slot uids is left
    assert result.status == "ok"


def test_segfault_is_reported_as_a_crash(sandbox: Sandbox) -> None:
    result = check(sandbox, "import ctypes\nctypes.string_at(0)\n")
    assert result.status == "error"
    assert "SIGSEGV" in result.summary["message"]


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("import sys\nsys.exit(3)\n", "error"),
        ("import sys\nsys.exit()\n", "ok"),
        ("import os\nos._exit(0)\n", "error"),
        ("raise KeyboardInterrupt\n", "error"),
        ("def f(n):\n    return f(n + 1)\nf(0)\n", "error"),
        ("input()\n", "error"),
    ],
    ids=["sys.exit(3)", "sys.exit()", "os._exit", "KeyboardInterrupt", "recursion", "input"],
)
def test_exits_and_interpreter_errors_end_cleanly(sandbox: Sandbox, code: str, status: str) -> None:
    result = check(sandbox, code)
    assert result.status == status, result.summary


def test_ten_megabytes_of_code_are_refused_before_start(sandbox: Sandbox) -> None:
    with pytest.raises(RunRefused):
        run_sync(sandbox, "x = 1\n" * (10 * 1024 * 1024 // 6))


def test_mount_and_ptrace_via_ctypes_are_denied(sandbox: Sandbox) -> None:
    code = """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(libc.mount(b'none', b'/tmp', b'tmpfs', 0, None), ctypes.get_errno())
print(libc.ptrace(0, 0, None, None), ctypes.get_errno())
print(libc.unshare(0x10000000), ctypes.get_errno())
"""
    result = check(sandbox, code)
    assert result.text() == "-1 1\n-1 1\n-1 1\n"  # -1 with EPERM each time


def test_tampering_with_the_engine_does_not_reach_the_next_run(sandbox: Sandbox) -> None:
    code = "import torch\ntorch.tensor = None\ntorch.Tensor.backward = None\n"
    result = check(sandbox, code, parallel=False)  # check() runs the normal snippet after it
    assert result.status == "ok"


def test_the_server_process_is_unharmed(sandbox: Sandbox) -> None:
    assert run_sync(sandbox, NORMAL).text() == NORMAL_OUT
    assert os.getpid() > 0 and Path(f"/proc/{os.getpid()}").exists()
