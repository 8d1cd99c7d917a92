"""Shared fixtures: every test starts from the engine's default global state."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine.harness import reset_engine


@pytest.fixture(autouse=True)
def _fresh_engine_state() -> Iterator[None]:
    """Grad mode, inference mode, anomaly, default dtype and print options reset around a test."""
    reset_engine()
    yield
    reset_engine()


# fixtures that start something once for several tests (a server process, a sandbox): their
# tests should run on one worker, so it starts once
_SHARED_SCOPES = frozenset({"module", "package", "class"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (make test), the tests of a file that starts something at module
    scope (a server process, a sandbox) go to one worker together, so it starts once per file.
    Every other test goes to whichever worker is free: the engine's thousands of op cases in
    one file, and the browser tests, which share one server and one Chromium per worker
    (package fixtures, under tests/browser) so that the long ones (an example per test)
    spread over all the workers."""
    shared: set[str] = set()
    for item in items:
        if "browser" in item.path.parts:
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d[-1].scope in _SHARED_SCOPES for d in defs if d):
            shared.add(item.nodeid.split("::")[0])
    for item in items:
        path = item.nodeid.split("::")[0]
        if path in shared:
            item.add_marker(pytest.mark.xdist_group(path))


# Where the suite's time goes: each worker appends (test, start, end, cpu) to
# test-artifacts/timeline/<worker>.jsonl (git-ignored; the real-PyTorch suite's workers to
# torch-<worker>.jsonl), so a slow `make test` can be read as which tests ran when on which
# worker, how long workers waited, and how much CPU each test's processes used: the worker and
# every process under it (servers, sandboxes, Chromium), read from /proc (tools/suite_timeline.py)
_TIMELINE = Path(__file__).resolve().parent.parent / "test-artifacts" / "timeline"
_STARTED: dict[str, tuple[float, float]] = {}
_RECORDING: list[bool] = []
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _tree_cpu(pid: int) -> float:
    """CPU seconds used by a process and everything under it, the reaped children included."""
    total = 0
    stack = [pid]
    while stack:
        proc = Path("/proc") / str(stack.pop())
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
            for task in (proc / "task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile, or no /proc here
    return total / _TICKS


def pytest_configure(config: pytest.Config) -> None:
    # where the tests run: a worker (under xdist the controller only hears of them), or alone
    alone = not getattr(config.option, "numprocesses", None)
    _RECORDING[:] = [hasattr(config, "workerinput") or alone]


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if _RECORDING and _RECORDING[0]:
        _STARTED[nodeid] = (time.time(), _tree_cpu(os.getpid()))


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    started = _STARTED.pop(nodeid, None)
    if started is None:
        return
    start, cpu = started
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    if nodeid.startswith("tests/torch/"):
        worker = f"torch-{worker}"
    _TIMELINE.mkdir(parents=True, exist_ok=True)
    row = [nodeid, start, time.time(), round(_tree_cpu(os.getpid()) - cpu, 2)]
    with (_TIMELINE / f"{worker}.jsonl").open("a") as f:
        f.write(json.dumps(row) + "\n")
