"""The explicit weak mode (no bubblewrap: rlimits + seccomp + a uid per slot), on real workers."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from server.sandbox import Sandbox
from server.sandbox.command import APP_ROOT
from tests.server.sandbox_helpers import (
    NORMAL_OUT,
    Result,
    alongside,
    leftover_pids,
    short_settings,
)


@pytest.fixture(scope="module")
def weak() -> Sandbox:
    sb = Sandbox(short_settings(sandbox_mode="weak"))
    assert sb.health()["mode"] == "weak" and "set explicitly" in sb.health()["reason"]
    return sb


def check(sandbox: Sandbox, code: str, parallel: bool = True) -> Result:
    bad, good = alongside(sandbox, code, parallel)
    assert good.status == "ok", good.summary
    assert good.text() == NORMAL_OUT
    assert leftover_pids(sandbox) == []
    return bad


def test_weak_mode_runs_as_the_slot_uid(weak: Sandbox) -> None:
    result = check(weak, "import os\nprint(os.getuid() >= 60000, os.getgroups())\n")
    assert result.text() == "True []\n"


def test_weak_mode_still_blocks_network_sockets(weak: Sandbox) -> None:
    code = "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
    result = check(weak, code)
    assert result.errors()[0]["error_type"] == "PermissionError"


def test_weak_mode_cannot_write_the_app(weak: Sandbox) -> None:
    target = APP_ROOT / "backscope_weak_probe.txt"
    result = check(weak, f"open({str(target)!r}, 'w').write('x')\n")
    assert result.errors()[0]["error_type"] == "PermissionError"
    assert not target.exists()


def test_weak_mode_reaps_fork_bombs_and_daemons(weak: Sandbox) -> None:
    code = """import os, time
if os.fork() == 0:
    os.setsid()
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.05)
time.sleep(0.5)
"""
    result = check(weak, code)  # check() asserts nothing of the slot uids is left
    assert result.status == "ok"


def test_weak_mode_removes_files_the_run_left_in_shared_tmp(weak: Sandbox) -> None:
    # a name no earlier run can have left (a pid repeats across runs of the suite)
    name = f"backscope-weak-leftover-{uuid.uuid4().hex}"
    assert not Path("/tmp", name).exists()
    result = check(weak, f"open('/tmp/{name}', 'w').write('x')\nprint('written')\n")
    assert result.text() == "written\n", (result.summary, result.text("stderr"), result.events[-6:])
    assert not Path("/tmp", name).exists()


def test_weak_mode_enforces_the_wall_clock(weak: Sandbox) -> None:
    # a sandbox whose only short clock is the wall clock (sleeping uses no CPU), the normal run
    # beside it in the generous one: on a loaded machine even a tiny run can take seconds
    short = Sandbox(short_settings(sandbox_mode="weak", wall_seconds=3.0))
    bad, good = alongside(short, "import time\ntime.sleep(1e6)\n", True, others=weak)
    assert good.status == "ok", good.summary
    assert good.text() == NORMAL_OUT
    assert bad.status == "timeout", bad.summary
    assert leftover_pids(short) == [] and leftover_pids(weak) == []
