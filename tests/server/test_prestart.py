"""Pre-started workers: still a fresh, clean, fully limited process per run, never left behind."""

from __future__ import annotations

import asyncio
import gc
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import create_app
from server.sandbox import Sandbox
from server.sandbox.command import Mode
from server.sandbox.procs import alive, descendants
from server.settings import Settings
from tests.server.live import Client, connect, serve
from tests.server.sandbox_helpers import (
    NORMAL,
    NORMAL_OUT,
    Result,
    collect,
    leftover_pids,
    short_settings,
)

# Everything a run can change for the next one, were it to share its process or its files:
# engine globals, the interpreter's module table, and every place it can write. The planted file
# has a name of this test process's own: weak mode shares the host's /tmp with tests beside it.
PLANTED = f"planted-{os.getpid()}-{uuid.uuid4().hex[:8]}"
TAMPER = (
    f"PLANTED = {PLANTED!r}\n"
    + """import os, sys, torch
torch.tensor = None
torch.Tensor.backward = None
torch.Tensor.__add__ = lambda self, other: 'tampered'
sys.modules['numpy'] = None
for d in ('/tmp', '/var/tmp', '/dev/shm', os.getcwd(), os.path.expanduser('~')):
    try:
        with open(os.path.join(d, PLANTED), 'w') as f:
            f.write('x')
    except OSError:
        pass
print('tampered')
"""
)
CHECK = (
    f"PLANTED = {PLANTED!r}\n"
    + """import os
for d in ('/tmp', '/var/tmp', '/dev/shm', os.getcwd(), os.path.expanduser('~')):
    if os.path.exists(os.path.join(d, PLANTED)):
        print('planted file visible in', d)
import torch
print((torch.tensor([1.0]) + torch.tensor([2.0])).item())
"""
)
BUDGET = """import resource
usage = resource.getrusage(resource.RUSAGE_SELF)
print(resource.getrlimit(resource.RLIMIT_CPU)[0] - usage.ru_utime - usage.ru_stime)
"""


async def run(sandbox: Sandbox, code: str) -> tuple[Result, int | None, bool]:
    """Run `code`; its result, its worker's host pid and whether that was pre-started."""
    handle = await sandbox.run(code)
    result = await collect(handle)
    return result, handle.worker_pid, handle.prestarted


async def until_prestarted(sandbox: Sandbox, count: int) -> list[int]:
    """Wait (briefly) until `count` workers wait for a run; their pids."""
    for _ in range(200):
        if len(pids := sandbox.prestarted_pids()) == count:
            return pids
        await asyncio.sleep(0.01)
    raise AssertionError(f"{sandbox.prestarted_pids()} pre-started, not {count}")


@pytest.fixture(params=["bwrap", "weak"])
def one_slot(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    sandbox = Sandbox(short_settings(max_workers=1, sandbox_mode=request.param))
    assert sandbox.mode.name == request.param, sandbox.mode.reason
    yield sandbox
    asyncio.run(sandbox.close())


def test_a_prestarted_worker_runs_clean_after_a_run_that_tampered(one_slot: Sandbox) -> None:
    async def scenario() -> None:
        ready = await until_prestarted(one_slot, 1)
        bad, bad_pid, _ = await run(one_slot, TAMPER)
        assert bad.status == "ok" and bad.text() == "tampered\n", bad.summary
        assert bad_pid == ready[0]
        [next_pid] = await until_prestarted(one_slot, 1)  # made once the slot was reaped
        assert next_pid != bad_pid
        good, good_pid, prestarted = await run(one_slot, CHECK)
        assert (good_pid, prestarted) == (next_pid, True)
        assert good.status == "ok", good.summary
        assert good.text() == "3.0\n"
        normal, _, _ = await run(one_slot, NORMAL)
        assert normal.text() == NORMAL_OUT

    asyncio.run(scenario())
    assert leftover_pids(one_slot) == []


# The wall clock of the test below: the budget snippet (a few ms of work) must finish inside it
# on a loaded machine, and the idle wait before each job is longer than it.
WAIT_S = 4.0


def test_cpu_and_wall_clocks_start_when_the_job_arrives() -> None:
    sandbox = Sandbox(short_settings(max_workers=1, cpu_seconds=2, wall_seconds=WAIT_S))

    async def scenario() -> tuple[Result, Result]:
        await until_prestarted(sandbox, 1)
        await asyncio.sleep(WAIT_S + 0.5)  # longer than the wall clock: the worker idles
        budget, _, prestarted = await run(sandbox, BUDGET)
        assert prestarted
        await until_prestarted(sandbox, 1)
        await asyncio.sleep(WAIT_S + 0.5)
        sleeper, _, _ = await run(sandbox, "import time\ntime.sleep(60)\n")
        await sandbox.close()
        return budget, sleeper

    budget, sleeper = asyncio.run(scenario())
    # the snippet has its full 2 s (the limit is rounded up to whole seconds, plus one)
    assert 1.9 <= float(budget.text()) <= 3.0, budget.text()
    assert sleeper.status == "timeout"
    assert sleeper.summary["duration_ms"] >= (WAIT_S - 0.1) * 1000  # not cut short by the wait


def test_shutdown_kills_prestarted_and_running_workers() -> None:
    sandbox = Sandbox(short_settings(spare_workers=2))

    async def scenario() -> list[int]:
        waiting = await until_prestarted(sandbox, 2)
        tree = [pid for w in waiting for pid in (w, *descendants(w))]
        spin = await sandbox.run("import os\nif os.fork() == 0:\n    os.setsid()\nwhile 1: pass")
        await asyncio.sleep(0.5)
        await sandbox.close()
        assert (await collect(spin)).status == "killed"
        assert sandbox.prestarted_pids() == []
        return tree

    tree = asyncio.run(scenario())
    assert len(tree) >= 2 and not [pid for pid in tree if alive(pid)]
    assert leftover_pids(sandbox) == []


def test_one_spare_waits_on_the_slot_handed_out_next() -> None:
    """However many slots, `spare_workers` (one by default) wait; a run takes the spare; a slot
    coming free starts the next one there, and the run after that gets it."""
    sandbox = Sandbox(short_settings(max_workers=3))

    async def scenario() -> None:
        [first] = await until_prestarted(sandbox, 1)
        await asyncio.sleep(0.3)
        assert sandbox.prestarted_pids() == [first]  # one waits, not one per slot
        normal, pid, prestarted = await run(sandbox, NORMAL)
        assert (normal.text(), pid, prestarted) == (NORMAL_OUT, first, True)
        [second] = await until_prestarted(sandbox, 1)
        # two at once: one finds the spare, the other starts cold, both run
        handles = [await sandbox.run(NORMAL), await sandbox.run(NORMAL)]
        results = [await collect(h) for h in handles]
        assert [r.text() for r in results] == [NORMAL_OUT, NORMAL_OUT]
        assert sorted(h.prestarted for h in handles) == [False, True]
        assert second in [h.worker_pid for h in handles]
        [third] = await until_prestarted(sandbox, 1)
        again, pid, prestarted = await run(sandbox, NORMAL)
        assert (again.text(), pid, prestarted) == (NORMAL_OUT, third, True)
        await sandbox.close()

    asyncio.run(scenario())
    assert leftover_pids(sandbox) == []


def test_changed_settings_replace_the_prestarted_worker() -> None:
    sandbox = Sandbox(short_settings(max_workers=1, cpu_seconds=2))

    async def scenario() -> None:
        [old] = await until_prestarted(sandbox, 1)
        sandbox.settings = short_settings(max_workers=1, cpu_seconds=4)
        budget, pid, prestarted = await run(sandbox, BUDGET)
        assert (pid != old, prestarted) == (True, False)
        assert not alive(old)
        assert 3.9 <= float(budget.text()) <= 5.0, budget.text()
        [new] = await until_prestarted(sandbox, 1)  # made for the new settings, so used
        again, pid, prestarted = await run(sandbox, BUDGET)
        assert (pid, prestarted) == (new, True)
        assert 3.9 <= float(again.text()) <= 5.0
        await sandbox.close()

    asyncio.run(scenario())


def test_nothing_is_prestarted_when_code_is_refused_or_prestart_is_off() -> None:
    refused = Sandbox(short_settings(), Mode("refuse", "no sandbox", False))
    assert refused.prestarted_pids() == []
    cold = Sandbox(short_settings(max_workers=1, prestart=False))
    assert cold.prestarted_pids() == []
    result, _, prestarted = asyncio.run(run(cold, NORMAL))
    assert (result.text(), prestarted) == (NORMAL_OUT, False)
    assert cold.prestarted_pids() == []


def test_dropping_a_sandbox_without_close_still_ends_its_workers() -> None:
    sandbox = Sandbox(short_settings(max_workers=1))
    pids = asyncio.run(until_prestarted(sandbox, 1))
    tree = [pid for w in pids for pid in (w, *descendants(w))]
    del sandbox
    gc.collect()
    assert not [pid for pid in tree if alive(pid)]


def test_the_channel_is_fd_3_however_many_fds_the_server_holds() -> None:
    """A server with many open fds used to hand the worker a channel above fd 64."""
    held = [os.open("/dev/null", os.O_RDONLY) for _ in range(150)]
    code = "import os, stat\nprint([fd for fd in range(256) if _sock(fd)])\n"
    prelude = (
        "import os, stat\ndef _sock(fd):\n    try:\n"
        "        return stat.S_ISSOCK(os.fstat(fd).st_mode)\n    except OSError:\n"
        "        return False\n"
    )
    try:
        sandbox = Sandbox(short_settings(max_workers=1))
        result, _, _ = asyncio.run(run(sandbox, prelude + code))
        asyncio.run(sandbox.close())
    finally:
        for fd in held:
            os.close(fd)
    assert result.text() == "[3]\n"


def test_server_shutdown_leaves_no_worker_behind(tmp_path: Path) -> None:
    app = create_app(
        Settings(db_path=tmp_path / "runs.sqlite3", sandbox=short_settings(spare_workers=2))
    )
    runner = app.state.runner
    with serve(app) as base:
        events = asyncio.run(_ws_run(base, NORMAL))
        assert events[-1]["status"] == "ok"
        waiting = asyncio.run(until_prestarted(runner, 2))
        tree = [pid for w in waiting for pid in (w, *descendants(w))]
    assert runner.prestarted_pids() == []
    assert not [pid for pid in tree if alive(pid)]
    assert leftover_pids(runner) == []


async def _ws_run(base: str, code: str) -> list[dict[str, Any]]:
    async with await connect(base) as ws:
        client = Client(ws)
        await client.send({"type": "run", "code": code})
        await client.until("run_finished")
        return client.events
