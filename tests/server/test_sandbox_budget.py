"""A run's memory and CPU time count over all of its processes together: the kernel's cgroups
where the server may make them (root here), the /proc meter elsewhere (a non-root server in
Docker; forced here with accounting="meter")."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from server.sandbox import Sandbox
from server.sandbox.budget import Budget
from server.sandbox.procs import _descendants_by_parent, descendants
from server.sandbox.settings import GiB, MiB
from server.sandbox.usage import tmp_bytes
from tests.server.sandbox_helpers import (
    NORMAL,
    NORMAL_OUT,
    Result,
    collect,
    cpu_limited,
    leftover_pids,
    run_sync,
    short_settings,
)

ACCOUNTING = ["auto", "meter"]

# four children each touching 400 MB (1.6 GB together; each alone is far under the limit),
# then waiting: only a limit over the whole run can stop it
FORK_AND_TOUCH = """import os, time
kids = []
for i in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(400 << 20)
        for j in range(0, len(block), 4096):
            block[j] = 1
        time.sleep(30)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)
print("all children done")
"""

# children one after another, each spinning 1.5 s of its own CPU time (under the 2 s limit a
# process has on its own) while the parent waits without using any: 15 s of CPU for the run
CPU_RELAY = """import os, time
for i in range(10):
    pid = os.fork()
    if pid == 0:
        while time.process_time() < 1.5:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
    print("child", i, "done", flush=True)
print("all children done")
"""


@pytest.fixture(scope="module", params=ACCOUNTING)
def budget_sandbox(request: pytest.FixtureRequest) -> Sandbox:
    return Sandbox(short_settings(memory_bytes=1 * GiB, accounting=request.param))


def test_health_says_how_a_run_is_counted() -> None:
    auto = Sandbox(short_settings()).health()["limits"]
    meter = Sandbox(short_settings(accounting="meter")).health()["limits"]
    # root on a cgroup v1 machine (this one): the kernel counts a run's processes together
    assert auto["accounting"] == "cgroup", auto["reason"]
    assert meter["accounting"] == "meter"
    assert "all its processes together" in auto["memory"] and "kernel" in auto["memory"]
    assert "metered" in meter["memory"]


def test_a_worker_starts_inside_its_runs_cgroup_which_goes_with_the_run() -> None:
    sandbox = Sandbox(short_settings())
    root = sandbox.accounting.root
    assert root is not None

    async def groups_of_a_running_worker() -> dict[str, str]:
        # the snippet's first line is the moment to look: the run is handed over before a
        # fresh worker has even joined its group (a write to cgroup.procs can take a while),
        # but no code of the run's can start before the join
        handle = await sandbox.run("print('in', flush=True)\nimport time\ntime.sleep(60)\n")
        async for batch in handle.events():
            if any(e["type"] == "stdout" and e["text"] == "in\n" for e in batch):
                break
        else:
            raise AssertionError("the run ended before its first line")
        assert handle.worker_pid is not None
        memberships = Path(f"/proc/{handle.worker_pid}/cgroup").read_text().splitlines()
        await handle.kill("test over")
        found = {}
        for line in memberships:
            _, names, path = line.split(":", 2)
            for name in names.split(","):
                found[name] = path
        return found

    groups = asyncio.run(groups_of_a_running_worker())
    for controller, base in root.dirs.items():
        name = Path(groups[controller]).name
        assert Path(groups[controller]).parent.name == base.name, groups
        assert not (base / name).exists()  # removed with the run


def _kernel_peak(sandbox: Sandbox, worker_pid: int) -> int:
    """The most memory the kernel has charged to the worker's own run group (0: not in one)."""
    root = sandbox.accounting.root
    if root is None:
        return 0
    try:
        lines = Path(f"/proc/{worker_pid}/cgroup").read_text().splitlines()
        path = next(p for _, names, p in (x.split(":", 2) for x in lines) if "memory" in names)
        group = root.dirs["memory"] / Path(path).name
        if Path(path).parent.name != root.dirs["memory"].name:
            return 0
        return int((group / "memory.max_usage_in_bytes").read_text())
    except (OSError, StopIteration, ValueError):
        return 0  # the run (and its group) ended meanwhile


def test_memory_over_all_processes_is_limited(budget_sandbox: Sandbox) -> None:
    async def run_and_watch() -> tuple[Result, int]:
        handle = await budget_sandbox.run(FORK_AND_TOUCH)
        peak = 0

        async def watch() -> None:
            nonlocal peak
            while handle.status in ("queued", "running"):
                if handle.worker_pid is not None:
                    peak = max(peak, _kernel_peak(budget_sandbox, handle.worker_pid))
                await asyncio.sleep(0.02)

        watcher = asyncio.create_task(watch())
        result = await collect(handle)
        await watcher
        return result, peak

    result, peak = asyncio.run(run_and_watch())
    assert result.status == "limit", result.summary
    assert (
        "memory limit of 1024 MiB reached (all of the run's processes)"
        in (result.summary["message"])
    )
    assert result.errors()[-1]["source"] == "sandbox"
    assert "all children done" not in result.text()
    if budget_sandbox.accounting.kind == "cgroup":
        # the kernel's own count for the run's group (not a sum of /proc readings taken at
        # different moments, which can add a killed child to its growing siblings): more than
        # one child's 400 MB was charged to that one group, and it never held more than the limit
        assert 512 * MiB < peak <= 1 * GiB, peak
    assert leftover_pids(budget_sandbox) == []
    # the slot is clean: the next run is normal
    assert run_sync(budget_sandbox, NORMAL).text() == NORMAL_OUT


@pytest.mark.parametrize("accounting", ACCOUNTING)
def test_cpu_time_over_all_processes_is_limited(accounting: str) -> None:
    sandbox = Sandbox(cpu_limited(accounting=accounting))
    result = run_sync(sandbox, CPU_RELAY)
    assert result.status == "timeout", result.summary
    assert (
        "CPU time limit of 2 s reached (all of the run's processes)" in (result.summary["message"])
    )
    assert "all children done" not in result.text()
    # the second child alone brings the run past 2 s of CPU time (the third: a late look)
    assert result.text().count("done") <= 3, result.text()


def test_a_runs_processes_are_found_also_without_children_lists() -> None:
    # the meter walks a run's tree from /proc's children lists; a kernel without them
    # (CONFIG_PROC_CHILDREN off) is walked from every process's parent instead
    tree = subprocess.Popen(["/bin/sh", "-c", "sleep 60 & sleep 60 & wait"])
    try:
        while len(descendants(tree.pid)) < 2:
            time.sleep(0.01)
        assert sorted(_descendants_by_parent(tree.pid)) == sorted(descendants(tree.pid))
    finally:
        tree.kill()
        for pid in descendants(tree.pid):
            os.kill(pid, signal.SIGKILL)
        tree.wait()


# files in the run's /tmp (a tmpfs bounded only in bytes of file data) holding user xattrs:
# kernel memory that no process's RSS shows (each 60 KB; 360 MB in all, the limit is 256 MiB)
TMP_XATTRS = """import os, time
for i in range(6000):
    path = f"/tmp/f{i}"
    open(path, "w").close()
    os.setxattr(path, "user.a", b"x" * 60000)
print("all written", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("accounting", ACCOUNTING)
def test_memory_the_runs_tmp_holds_counts_toward_its_limit(accounting: str) -> None:
    sandbox = Sandbox(short_settings(memory_bytes=256 * MiB, accounting=accounting))
    result = run_sync(sandbox, TMP_XATTRS)
    assert result.status == "limit", (result.summary, result.text(), result.text("stderr"))
    assert "memory limit of 256 MiB reached" in result.summary["message"]
    assert leftover_pids(sandbox) == []


NOBODY = 65534


def test_a_runs_tmp_that_cannot_be_looked_into_ends_the_run() -> None:
    # A non-root server (Docker's) may look into a run's processes only while they are
    # dumpable, and a snippet can make its own processes non-dumpable. The meter then must not
    # count the run's /tmp as empty: here a server as `nobody` meters a run of root's.
    usr = ("--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib")
    libs = ("--symlink", "usr/lib64", "/lib64", "--tmpfs", "/tmp", "/usr/bin/sleep", "60")
    run = subprocess.Popen(["bwrap", "--unshare-all", "--die-with-parent", *usr, *libs])
    settings = short_settings(accounting="meter")
    r, w = os.pipe()
    try:
        while not any(tmp_bytes([pid]) for pid in descendants(run.pid)):
            assert run.poll() is None
            time.sleep(0.01)  # (until bwrap's child is in its namespace, with /tmp mounted)
        assert isinstance(tmp_bytes([run.pid, *descendants(run.pid)]), int)  # root may look
        child = os.fork()
        if child == 0:  # pragma: no cover (the forked child)
            try:
                os.setgroups([])
                os.setresgid(NOBODY, NOBODY, NOBODY)
                os.setresuid(NOBODY, NOBODY, NOBODY)
                budget = Budget(settings, None, uid=None)
                budget.started(run.pid)
                seen = [tmp_bytes([run.pid, *descendants(run.pid)]), budget.check()]
                os.write(w, json.dumps(seen).encode())
            finally:
                os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            seen = json.loads(f.read())
        os.waitpid(child, 0)
    finally:
        run.kill()
        run.wait()
    assert seen[0] is None
    status, message = seen[1]
    assert status == "limit" and "/tmp could not be measured" in message
