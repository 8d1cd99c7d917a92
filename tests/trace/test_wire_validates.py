"""Every event a client gets validates against the protocol: every example and trace snippet
run through the real server and sandbox, and the error, timeout, limit and stop paths; a run
stopped by its time limit keeps what it did and names the line it was executing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from protocol.check import validate_event
from server.sandbox.settings import SandboxSettings
from tests import web
from tests.server.live import Client, assert_dense, connect, live_server
from tests.trace.snippets import FAILING
from tests.trace.test_stream import CASES

GENEROUS = SandboxSettings(wall_seconds=120, cpu_seconds=60, max_workers=2)
# a clock short enough for a test about the clock, long enough to import and start on a
# loaded machine (the prestarted worker has imported everything before the clock starts)
SHORT = SandboxSettings(wall_seconds=3, cpu_seconds=60, max_workers=1)
# the CPU clock alone (with PyTorch's defaults a busy loop meets the CPU limit first)
CPU_SHORT = SandboxSettings(wall_seconds=120, cpu_seconds=2, max_workers=1)
LOOP = (
    "import torch\n"
    "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
    "y = x * 2\n"
    "print('started', flush=True)\n"
    "while True:\n"
    "    pass\n"
)


@pytest.fixture(scope="module")
def generous(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("wire") / "runs.sqlite3"
    with live_server(db, sandbox=GENEROUS, rate_limit_burst=1000) as base:
        yield base


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("wire_short") / "runs.sqlite3"
    with live_server(db, sandbox=SHORT, rate_limit_burst=1000) as base:
        yield base


@pytest.fixture(scope="module")
def cpu_short(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("wire_cpu") / "runs.sqlite3"
    with live_server(db, sandbox=CPU_SHORT, rate_limit_burst=1000) as base:
        yield base


async def _run(base: str, code: str, then: Any = None, **options: Any) -> list[dict[str, Any]]:
    """Run `code`; `then(client, batch)` may act on each batch; all events of the run."""
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code, "options": options})
        while True:
            batch = await c.next_batch(180)
            if then is not None:
                await then(c, batch)
            if any(e["type"] == "run_finished" for e in batch):
                break
        return [e for e in c.events if e["seq"] >= 0]


def _checked(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert_dense(events)
    for e in events:
        validate_event(e)
    return events


@pytest.mark.parametrize("name", sorted({**CASES, **FAILING}))
def test_every_snippet_and_example_streams_valid_events(generous: str, name: str) -> None:
    code = {**CASES, **FAILING}[name]
    events = _checked(asyncio.run(_run(generous, code)))
    assert events[-1]["status"] == ("error" if name in FAILING else "ok")


def test_a_stepped_run_its_values_answer_and_its_stop_validate(generous: str) -> None:
    code = "import torch\nx = torch.randn(300, requires_grad=True)\n(x * 2).sum().backward()\n"
    asked: list[int] = []

    async def step(c: Client, batch: list[dict[str, Any]]) -> None:
        for e in batch:
            if e["type"] == "paused" and not asked:
                asked.append(1)
                await c.send({"type": "tensor_values", "tensor_id": 0})
            elif e["type"] == "tensor_values" and e["last"]:
                await c.send({"type": "stop"})

    events = _checked(asyncio.run(_run(generous, code, step, pause_in_backward=True)))
    values = [e for e in events if e["type"] == "tensor_values"]
    assert sum(len(e["values"]) for e in values) == 300 and values[-1]["last"]
    assert events[-1]["status"] == "killed"
    # stopped while paused in backward: the worker says where (the backward call, line 3)
    halted = [e for e in events if e["type"] == "halted"]
    assert [(h["why"], h["line"]) for h in halted] == [("killed", 3)]


def test_a_run_over_its_event_limit_validates(generous: str) -> None:
    code = (
        "import torch\nx = torch.ones(2, requires_grad=True)\nfor _ in range(500):\n    x = x * 2\n"
    )
    events = _checked(asyncio.run(_run(generous, code, max_events=100)))
    assert events[-1]["status"] == "limit"


def test_a_timed_out_run_keeps_its_graph_and_names_its_line(short: str) -> None:
    events = _checked(asyncio.run(_run(short, LOOP)))
    assert events[-1]["status"] == "timeout"
    kinds = [e["type"] for e in events]
    error = events[kinds.index("error")]
    assert (error["source"], error["error_type"]) == ("sandbox", "timeout")
    # what the snippet did is there: the print of line 4 was sent after y = x * 2's node
    started = "started\n" in "".join(e["text"] for e in events if e["type"] == "stdout")
    made = any(e["type"] == "node" and e["name"] == "MulBackward0" for e in events)
    assert made or not started
    # the worker said where it was when the clock ran out, before the sandbox's error
    # (`while True: pass` runs as lines 5 and 6, whichever the clock interrupts; on a loaded
    # machine the wall clock may run out before the loop, while the print of line 4 is under way
    # or earlier). A worker that does not get the CPU within the server's grace after the halt
    # is killed before it can say so: then the server names no line rather than guess one
    halts = [e for e in events if e["type"] == "halted"]
    assert len(halts) <= 1
    if not halts:
        assert error["line"] is None
        return
    (halted,) = halts
    assert halted["why"] == "timeout"
    assert halted["line"] in ((4, 5, 6) if started else (1, 2, 3, 4)), (started, halted)
    assert made or halted["line"] <= 3, halted
    assert halted["lines"] == [halted["line"]]
    assert kinds.index("halted") < kinds.index("error")
    assert error["line"] == halted["line"]


def test_a_run_out_of_cpu_time_keeps_its_graph_and_names_its_line(cpu_short: str) -> None:
    events = _checked(asyncio.run(_run(cpu_short, LOOP)))
    assert events[-1]["status"] == "timeout"
    assert any(e["type"] == "node" and e["name"] == "MulBackward0" for e in events)
    (halted,) = [e for e in events if e["type"] == "halted"]
    assert halted["why"] == "timeout" and halted["line"] in (5, 6)
    (error,) = [e for e in events if e["type"] == "error"]
    assert (error["source"], error["error_type"], error["line"]) == (
        "sandbox",
        "timeout",
        halted["line"],
    )
    assert "CPU time limit" in error["message"]


def test_a_run_stopped_while_it_runs_keeps_its_graph_and_names_its_line(generous: str) -> None:
    async def stop_once_started(c: Client, batch: list[dict[str, Any]]) -> None:
        if any(e["type"] == "stdout" and "started" in e["text"] for e in batch):
            await c.send({"type": "stop"})

    # the generous clocks: on a loaded machine a 3 s wall clock could end the run before it
    # printed (then nothing was stopped); here only the user's stop ends it
    events = _checked(asyncio.run(_run(generous, LOOP, stop_once_started)))
    assert events[-1]["status"] == "killed"
    (halted,) = [e for e in events if e["type"] == "halted"]
    # the stop may land while print() is still flushing 'started' (line 4), or in the loop
    assert halted["line"] in (4, 5, 6)
    assert any(e["type"] == "node" and e["name"] == "MulBackward0" for e in events)


def test_the_servers_own_replies_validate(generous: str) -> None:
    async def go() -> list[dict[str, Any]]:
        async with await connect(generous) as ws:
            c = Client(ws)
            await c.send('{"type": "launch"}')
            await c.send({"type": "step"})
            await c.next_batch(30)
            if len(c.events) < 2:
                await c.next_batch(30)
            return c.events

    replies = asyncio.run(go())
    assert [e["type"] for e in replies] == ["command_error", "command_error"]
    for e in replies:
        validate_event(e)


def test_the_stored_run_validates(generous: str, tmp_path: Path) -> None:
    events = asyncio.run(_run(generous, CASES["hooks"]))
    stored = web.get(f"http://{generous}/api/runs/{events[0]['run_id']}").json()["events"]
    assert stored == events
    _checked(stored)
