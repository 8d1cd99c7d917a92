"""Limits belong to the server: a pause stops the wall clock only while the run verifiably waits
for a command it was asked for, never because of what the snippet sends or says."""

from __future__ import annotations

import asyncio

import pytest

from server.sandbox import RunHandle, Sandbox
from server.sandbox.clock import RunClock
from tests.server.sandbox_helpers import (
    NORMAL,
    NORMAL_OUT,
    Result,
    collect,
    leftover_pids,
    short_settings,
    wall_limited,
)

# what the stepper sends when it pauses, sent by the snippet itself
FORGE = """from engine.autograd import observer
tr = observer.TRACER
try:  # the tracer's emit as the issue's report called it, or as an event dict
    tr.emit("paused", node=None, backward=None, where="end", why="finished")
except TypeError:
    tr.emit({"type": "paused", "node": None, "backward": None, "where": "end", "why": "finished"})
tr.flush()
"""
# a real pause in the stepper (the run is asked to pause before each backward node)
REAL_PAUSE = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
"""

FORGED = {
    # the issue's report: finished `ok` after 40 s against a 30 s limit
    "then_sleeps": FORGE + "import time\ntime.sleep(40)\nprint('slept')\n",
    "then_computes": FORGE + "while True:\n    pass\n",
    # waits on the real control channel, but wakes every 50 ms to work
    "then_polls_the_channel": FORGE
    + "import select, time\nwhile True:\n    select.select([3], [], [], 0.05)\n"
    "    t = time.process_time()\n    while time.process_time() < t + 0.01:\n        pass\n",
    # blocks on the channel with no timeout, but a timer signal wakes it to work
    "then_waits_woken_by_a_timer": FORGE + "import select, signal, time\n"
    "def work(*_):\n    t = time.process_time()\n    while time.process_time() < t + 0.02:\n"
    "        pass\nsignal.signal(signal.SIGALRM, work)\n"
    "signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)\nwhile True:\n"
    "    select.select([3], [], [])\n",
    # blocks on the channel with no timeout, but an alarm wakes it after a while
    "then_waits_for_an_alarm": FORGE
    + "import select, signal\nsignal.signal(signal.SIGALRM, lambda *_: None)\n"
    "signal.alarm(2)\nselect.select([3], [], [])\nwhile True:\n    pass\n",
    # a real pause in the stepper, with a thread working beside it
    "real_pause_beside_a_thread": "import threading, time\n"
    "def spin():\n    while True:\n        time.sleep(0.01)\n"
    "threading.Thread(target=spin, daemon=True).start()\n" + REAL_PAUSE,
    # a real pause in the stepper, with a child process sleeping beside it
    "real_pause_beside_a_child": "import os, time\n"
    "if os.fork() == 0:\n    time.sleep(300)\n    os._exit(0)\n" + REAL_PAUSE,
}


def test_the_clock_counts_a_pause_only_between_two_equal_looks() -> None:
    clock = RunClock(now=0.0)
    clock.advance(1.0, token=None)  # running
    clock.advance(2.0, token=(7, 100))  # seen waiting: the second before still ran
    clock.advance(5.0, token=(7, 100))  # waiting all along
    clock.advance(6.0, token=(7, 150))  # it ran meanwhile (a timer, a command): running
    clock.advance(7.0, token=(7, 150))
    assert (clock.running, clock.paused, clock.paused_total) == (3.0, 4.0, 4.0)
    clock.resumed()  # the next pause has its own limit afresh
    clock.advance(9.0, token=None)
    assert (clock.running, clock.paused, clock.paused_total) == (5.0, 0.0, 4.0)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    """Generous clocks; a pause has a limit of its own (30 s)."""
    return Sandbox(short_settings(pause_seconds=30.0))


async def _until_paused(handle: RunHandle) -> list[dict[str, object]]:
    """Events up to the first `paused` (the run must get there)."""
    events: list[dict[str, object]] = []
    async for batch in handle.events():
        events += batch
        if any(e["type"] == "paused" for e in batch):
            return events
    raise AssertionError(f"the run ended before it paused: {handle.summary}")


def _verified(handle: RunHandle) -> bool:
    """Whether the server's last look found the run waiting for a command."""
    return handle.clock is not None and handle.clock.waiting


def _running(handle: RunHandle) -> float:
    return handle.clock.running if handle.clock is not None else 0.0


async def _until_verified(handle: RunHandle) -> list[dict[str, object]]:
    """Events up to the first `paused`, then wait until the server has seen the run waiting."""
    events = await _until_paused(handle)
    while not _verified(handle):
        assert handle.status == "running", events
        await asyncio.sleep(0.01)
    return events


@pytest.mark.parametrize("name", FORGED)
def test_a_forged_or_busy_pause_leaves_the_wall_clock_running(sandbox: Sandbox, name: str) -> None:
    async def running_after_the_pause() -> tuple[float, float]:
        # the client asked for pauses: still, only a verified one stops the clock
        handle = await sandbox.run(FORGED[name], {"pause_in_backward": True})
        await _until_paused(handle)
        start = _running(handle)
        # the clock keeps counting while the snippet sleeps or works (a stopped clock would
        # leave this loop only when the run ends)
        while _running(handle) < start + 1.0 and handle.status == "running":
            await asyncio.sleep(0.01)
        grown = _running(handle) - start
        await handle.kill("test over")
        return grown, handle.summary["paused_s"] if handle.summary else -1.0

    grown, paused = asyncio.run(running_after_the_pause())
    assert grown >= 1.0
    assert paused < grown  # (a look may catch a timer-woken run idle twice in a row)
    assert leftover_pids(sandbox) == []


def test_the_forged_pause_of_the_issue_ends_by_the_wall_clock() -> None:
    # reported: `ok` after 40 s against a 30 s wall clock; here 10 s
    sandbox = Sandbox(wall_limited(wall_seconds=10.0, pause_seconds=60.0))

    async def run() -> tuple[Result, float]:
        loop = asyncio.get_running_loop()
        handle = await sandbox.run(FORGED["then_sleeps"], {"pause_in_backward": True})
        events = await _until_paused(handle)
        paused_at = loop.time()
        result = await collect(handle)
        return Result(
            result.status, result.summary, events + result.events
        ), loop.time() - paused_at

    result, after_pause = asyncio.run(run())
    assert result.status == "timeout", result.summary
    assert "wall-clock limit of 10 s reached" in result.summary["message"]
    assert "slept" not in result.text() and after_pause < 40.0


def test_waiting_on_the_channel_unasked_leaves_the_wall_clock_running() -> None:
    # idle on the real channel, but the client never asked this run to pause
    sandbox = Sandbox(wall_limited(wall_seconds=10.0, pause_seconds=60.0))
    code = FORGE + "import select\nselect.select([3], [], [])\n"

    async def run() -> Result:
        handle = await sandbox.run(code)
        events = await _until_paused(handle)
        result = await collect(handle)
        return Result(result.status, result.summary, events + result.events)

    result = asyncio.run(run())
    assert result.status == "timeout", result.summary
    assert "wall-clock limit" in result.summary["message"]


def test_a_real_pause_stops_the_wall_clock(sandbox: Sandbox) -> None:
    pause = 3.0

    async def scenario() -> Result:
        handle = await sandbox.run(NORMAL, {"pause_in_backward": True})
        await _until_verified(handle)
        await asyncio.sleep(pause)
        await handle.send({"type": "continue"})
        return await collect(handle)

    result = asyncio.run(scenario())
    summary = result.summary
    assert result.status == "ok", summary
    assert result.text() == NORMAL_OUT
    # the whole wait counted as paused, none of it as running
    assert summary["paused_s"] >= pause
    assert summary["running_s"] <= summary["duration_ms"] / 1000 - pause


# waiting as a worker that reads its commands on a thread does: that thread in recv() on (a dup
# of) the channel, the main thread in an untimed wait for what it reads
THREADED_WAIT = (
    FORGE + "import os, queue, socket, threading\nq = queue.SimpleQueue()\n"
    "chan = socket.socket(fileno=os.dup(3))\n"
    "threading.Thread(target=lambda: q.put(chan.recv(65536)), daemon=True).start()\n"
    "print('woken by', q.get())\n"
)


def test_a_pause_waiting_on_a_reader_thread_stops_the_wall_clock(sandbox: Sandbox) -> None:
    async def scenario() -> dict[str, float]:
        handle = await sandbox.run(THREADED_WAIT, {"pause_in_backward": True})
        await _until_verified(handle)
        while handle.clock is not None and handle.clock.paused_total == 0.0:
            assert handle.status == "running"
            await asyncio.sleep(0.01)
        await handle.kill("test over")
        assert handle.summary is not None
        return handle.summary

    summary = asyncio.run(scenario())
    assert summary["status"] == "killed"
    assert summary["paused_s"] > 0


def test_a_real_pause_has_its_own_limit() -> None:
    sandbox = Sandbox(short_settings(pause_seconds=2.0))

    async def scenario() -> Result:
        handle = await sandbox.run(NORMAL, {"pause_in_backward": True})
        await _until_verified(handle)
        return await collect(handle)  # never resumed

    result = asyncio.run(scenario())
    assert result.status == "timeout", result.summary
    assert "paused for more than 2 s" in result.summary["message"]
    assert leftover_pids(sandbox) == []


def test_each_step_pauses_anew(sandbox: Sandbox) -> None:
    async def scenario() -> tuple[Result, int]:
        handle = await sandbox.run(NORMAL, {"pause_in_backward": True})
        steps = 0
        events: list[dict[str, object]] = []
        async for batch in handle.events():
            events += batch
            if any(e["type"] == "paused" for e in batch):
                while not _verified(handle) and handle.status == "running":
                    await asyncio.sleep(0.01)
                steps += 1
                await handle.send({"type": "step"})
        summary = await handle.wait()
        return Result(handle.status, summary, events), steps

    result, steps = asyncio.run(scenario())
    assert result.status == "ok", result.summary
    assert steps >= 2 and result.text() == NORMAL_OUT
