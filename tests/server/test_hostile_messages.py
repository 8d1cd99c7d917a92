"""Broken and hostile messages against the real server: out-of-range numbers, deep JSON,
invalid UTF-8, hostile REST paths, commands for other runs, command floods. Each gets a typed
error (or a close of that connection only); the server keeps serving everyone else."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from server.app import create_app
from server.sandbox.control import MAX_PENDING_BYTES, Commands
from server.sandbox.settings import SandboxSettings
from server.settings import Settings
from tests import web
from tests.server.hostile_snippets import out as _out
from tests.server.live import Client, assert_serving, connect, run_to_end, serve
from tests.server.sandbox_helpers import GENEROUS_CPU_S, GENEROUS_WALL_S


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("hostile_messages") / "runs.sqlite3"
    # no clock may end a run here: every run ends by finishing or by a command
    sandbox = SandboxSettings(
        wall_seconds=GENEROUS_WALL_S, cpu_seconds=GENEROUS_CPU_S, pause_seconds=GENEROUS_WALL_S
    )
    application = create_app(Settings(db_path=db, sandbox=sandbox, rate_limit_burst=1000))
    with serve(application) as base:
        yield base, application


BAD_FRAMES = [
    '{"type": "resume", "run_id": "x", "after_seq": 9223372036854775808}',
    '{"type": "resume", "run_id": "x", "after_seq": -2}',
    '{"type": "resume", "run_id": "x", "after_seq": 1000000000000000000000000000000}',
    '{"type": "tensor_values", "tensor_id": 18446744073709551616}',
    '{"type": "set_breakpoints", "breakpoints": [{"node_id": 9223372036854775808}]}',
    '{"type": "run", "code": "print(1)", "options": {"inline_limit": 1000000000}}',
    '{"type": "run", "code": "print(1)", "options": {"max_events": 9223372036854775808}}',
    '{"type": "run", "code": "print(1)", "options": {"max_events": -5}}',
    '{"type": "run", "code": "print(1)", "options": {"max_events": 0}}',
    '{"type": "run", "code": "print(1)", "options": {"max_events": "5"}}',
    '{"type": "run", "code": "x", "options": ' + "[" * 100_000 + "]" * 100_000 + "}",
]


def test_out_of_range_numbers_and_deep_json_get_typed_errors(app: tuple[str, Any]) -> None:
    """A 64-bit overflow used to reach SQLite and end the connection with a server error."""
    base, application = app

    async def go() -> None:
        async with await connect(base) as ws:
            c = Client(ws)
            for frame in BAD_FRAMES:
                await c.send(frame)
                batch = await c.next_batch(10)
                assert [e["type"] for e in batch] == ["command_error"], (frame[:80], batch)
                assert batch[0]["message"].startswith("bad_command:")
            await c.send({"type": "run", "code": "print(1 + 1)"})
            assert (await c.until("run_finished"))["status"] == "ok"

    asyncio.run(go())
    assert_serving(base, application)


def test_rest_rejects_hostile_paths_and_parameters(app: tuple[str, Any]) -> None:
    base, _ = app
    run_id = asyncio.run(run_to_end(base, "print(7)"))[0]["run_id"]
    url = f"http://{base}/api/runs"
    for bad in ("..%2F..%2Fetc%2Fpasswd", "x' OR '1'='1", "1; DROP TABLE runs; --", "a" * 8000):
        response = web.get(f"{url}/{bad}")
        assert response.status_code == 404, (bad[:40], response.text[:200])
    for params in ({"after": str(2**63)}, {"after": "9" * 5000}, {"limit": "0"}):
        assert web.get(f"{url}/{run_id}/events", params=params).status_code == 422
    body = web.get(f"{url}/{run_id}").json()  # the store is intact
    assert body["status"] == "ok" and _out(body["events"]) == "7\n"


PAUSING = """import torch
x = torch.ones(3, requires_grad=True)
y = (x * 2).exp().sum()
y.backward()
print(x.grad)
"""
PAUSING_OUT = "tensor([14.7781, 14.7781, 14.7781])\n"  # d/dx sum(exp(2x)) = 2 e^2 at x = 1


async def _paused(base: str) -> Client:
    c = Client(await connect(base))
    await c.send({"type": "run", "code": PAUSING, "options": {"pause_in_backward": True}})
    await c.until("paused")
    return c


def test_a_command_naming_another_run_is_refused(app: tuple[str, Any]) -> None:
    base, _ = app

    async def go() -> None:
        mine, theirs = await _paused(base), await _paused(base)
        their_id = theirs.events[0]["run_id"]
        await mine.send({"type": "step", "run_id": their_id})
        await mine.send({"type": "stop", "run_id": their_id})
        batch = await mine.next_batch(10)
        assert [e["message"].split(":")[0] for e in batch] == ["wrong_run", "wrong_run"]
        for c in (mine, theirs):  # neither run moved
            with pytest.raises(TimeoutError):
                await c.next_batch(0.5)
            await c.send({"type": "continue"})
            assert (await c.until("run_finished"))["status"] == "ok"
            await c.ws.close()

    asyncio.run(go())


def test_step_spam_while_paused_and_after_the_end_keeps_the_connection(
    app: tuple[str, Any],
) -> None:
    """Commands racing the run's end used to write to a closed socket and drop the client;
    a worker that exited with commands unread reset its socket, and the summary it had sent
    was lost (about one run in two ended as an error)."""
    base, application = app

    async def go() -> None:
        c = await _paused(base)
        for _ in range(5000):
            await c.send({"type": "step"})
        finished = await c.until("run_finished", timeout=30)
        errors = [e.get("message") for e in c.events if e["type"] == "error"]
        assert finished["status"] == "ok", errors
        assert _out(c.events).endswith(PAUSING_OUT)
        await c.send({"type": "run", "code": "print(3)"})
        assert (await c.until("run_finished"))["status"] == "ok"
        kinds = {e["message"].split(":")[0] for e in c.events if e["type"] == "command_error"}
        assert kinds <= {"no_active_run"}, kinds
        await c.ws.close()

    asyncio.run(go())
    assert_serving(base, application)


def test_commands_a_run_never_reads_are_bounded_and_stop_still_works(
    app: tuple[str, Any],
) -> None:
    """A snippet that never reads its commands cannot make the server buffer without end,
    and the client's `stop` is not stuck behind them."""
    base, _ = app
    breakpoints = '{"type":"set_breakpoints","breakpoints":[' + ",".join(['{"line":1}'] * 20_000)

    async def go() -> str:
        c = Client(await connect(base))
        await c.send({"type": "run", "code": "import time\nprint('up')\ntime.sleep(1e6)\n"})
        await c.until("stdout")
        for _ in range(8):  # 1 MB each on the way to the worker
            await c.send(breakpoints + "]}")
        await c.send({"type": "stop"})
        finished = await c.until("run_finished", timeout=30)
        await c.ws.close()
        refused = [e for e in c.events if e["type"] == "command_error"]
        assert refused and all(e["message"].startswith("refused:") for e in refused)
        return str(finished["status"])

    # "killed": the stop reached the worker (no clock is near)
    assert asyncio.run(go()) == "killed"


def test_an_invalid_utf8_text_frame_closes_only_its_connection(app: tuple[str, Any]) -> None:
    base, _ = app

    async def go() -> None:
        bystander = await _paused(base)
        async with await connect(base) as ws:
            await ws.send(b'{"type": "\xff\xfe"}', text=True)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        await bystander.send({"type": "continue"})
        assert (await bystander.until("run_finished"))["status"] == "ok"
        await bystander.ws.close()

    asyncio.run(go())


def test_tensor_values_for_ids_that_do_not_exist_get_typed_answers(app: tuple[str, Any]) -> None:
    base, _ = app

    async def go() -> list[dict[str, Any]]:
        c = await _paused(base)
        answers = []
        for tid in (-1, 2**63 - 1, 123456789):
            await c.send({"type": "tensor_values", "tensor_id": tid})
            [answer] = await c.next_batch(10)
            answers.append(answer)
        await c.send({"type": "continue"})
        finished = await c.until("run_finished")
        await c.ws.close()
        assert finished["status"] == "ok" and _out(c.events) == PAUSING_OUT
        return answers

    answers = asyncio.run(go())
    assert [(a["type"], a["tensor_id"]) for a in answers] == [
        ("tensor_values", -1),
        ("tensor_values", 2**63 - 1),
        ("tensor_values", 123456789),
    ]
    assert all(a["error"] and a.get("values") is None for a in answers), answers


def test_commands_for_a_run_still_queued_are_bounded_too() -> None:
    commands = Commands()
    line = b'{"type":"step"}\n'
    for _ in range(MAX_PENDING_BYTES // len(line)):
        commands.put(line)
    with pytest.raises(ValueError, match="too many commands"):
        commands.put(line)
    assert not commands.opened
