"""Who may act on a run, against the real server and sandbox (issue 13, item 7): only its
owner (the browser's owner cookie) steps, continues, pauses, stops, replaces or reads values;
anyone else with the id (it is in every share link) may watch it, live or stored, read-only.
Fuzzed over command sequences from a stranger."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.sandbox.settings import SandboxSettings
from tests import web
from tests.server.hostile_snippets import out
from tests.server.live import Client, connect, live_server, owner_cookie
from tests.server.sandbox_helpers import GENEROUS_CPU_S, GENEROUS_WALL_S

PAUSING = """import torch
x = torch.ones(3, requires_grad=True)
y = (x * 2).exp().sum()
y.backward()
print(x.grad)
"""
PAUSING_OUT = "tensor([14.7781, 14.7781, 14.7781])\n"
STRANGER_COMMANDS = ["step", "continue", "pause", "stop", "set_breakpoints", "tensor_values"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("owners") / "runs.sqlite3"
    sandbox = SandboxSettings(
        wall_seconds=GENEROUS_WALL_S, cpu_seconds=GENEROUS_CPU_S, pause_seconds=GENEROUS_WALL_S
    )
    with live_server(db, sandbox=sandbox, rate_limit_burst=10_000) as base:
        yield base


def _command(kind: str, run_id: str | None) -> dict[str, Any]:
    cmd: dict[str, Any] = {"type": kind}
    if run_id is not None:
        cmd["run_id"] = run_id
    if kind == "set_breakpoints":
        cmd["breakpoints"] = []
    if kind == "tensor_values":
        cmd["tensor_id"] = 0
    return cmd


async def _paused_run(base: str, cookie: str | None = None) -> Client:
    owner = Client(await connect(base, cookie=cookie))
    await owner.send({"type": "run", "code": PAUSING, "options": {"pause_in_backward": True}})
    await owner.until("paused")
    return owner


async def _quiet(c: Client, seconds: float = 0.5) -> list[dict[str, Any]]:
    """What arrives on `c` within `seconds` (the state it shows, not a speed bound)."""
    got: list[dict[str, Any]] = []
    while True:
        try:
            got.extend(await c.next_batch(seconds))
        except TimeoutError:
            return got


def test_a_stranger_with_the_run_id_can_watch_but_not_act(server: str) -> None:
    async def go() -> None:
        owner = await _paused_run(server)
        run_id = owner.events[0]["run_id"]
        stranger = Client(await connect(server))
        await stranger.send({"type": "resume", "run_id": run_id, "after_seq": -1})
        await stranger.until("paused")  # the live read-only follow
        for kind in STRANGER_COMMANDS:
            for named in (None, run_id):
                await stranger.send(_command(kind, named))
                [reply] = await stranger.next_batch(10)
                assert reply["message"].startswith("read_only:"), (kind, reply)
        await stranger.send({"type": "run", "code": "print(2)", "replace": True})
        await stranger.until("run_finished")  # its own run: the owner's is untouched
        assert not [e for e in await _quiet(owner) if e["type"] != "paused"]
        await owner.send({"type": "continue"})
        assert (await owner.until("run_finished"))["status"] == "ok"
        assert out(owner.events) == PAUSING_OUT
        for c in (owner, stranger):
            await c.ws.close()

    asyncio.run(go())


def test_the_owner_controls_its_run_from_a_second_socket(server: str) -> None:
    """A reconnect (the page's resume on a new socket) keeps control: same cookie."""
    cookie = owner_cookie(server)

    async def go() -> None:
        first = await _paused_run(server, cookie)
        run_id = first.events[0]["run_id"]
        await first.ws.close()
        again = Client(await connect(server, cookie=cookie))
        await again.send({"type": "resume", "run_id": run_id, "after_seq": -1})
        await again.until("paused")
        await again.send({"type": "continue"})
        assert (await again.until("run_finished"))["status"] == "ok"
        await again.ws.close()

    asyncio.run(go())


def test_a_forged_or_foreign_cookie_owns_nothing(server: str) -> None:
    cookie = owner_cookie(server)
    forged = cookie.split(".")[0] + ".AAAAAAAAAAAAAAAAAAAAAA"

    async def go() -> None:
        owner = await _paused_run(server, cookie)
        run_id = owner.events[0]["run_id"]
        for other in (forged, owner_cookie(server), "x" * 5000):
            c = Client(await connect(server, cookie=other))
            await c.send({"type": "resume", "run_id": run_id, "after_seq": -1})
            await c.until("paused")
            await c.send({"type": "stop"})
            [reply] = await c.next_batch(10)
            assert reply["message"].startswith("read_only:")
            await c.ws.close()
        await owner.send({"type": "continue"})
        assert (await owner.until("run_finished"))["status"] == "ok"
        await owner.ws.close()

    asyncio.run(go())


def test_a_share_link_replays_a_stored_run_read_only(server: str) -> None:
    async def go() -> tuple[str, list[dict[str, Any]]]:
        owner = await _paused_run(server)
        await owner.send({"type": "continue"})
        await owner.until("run_finished")
        await owner.ws.close()
        run_id = owner.events[0]["run_id"]
        viewer = Client(await connect(server))
        await viewer.send({"type": "resume", "run_id": run_id, "after_seq": -1})
        await viewer.until("run_finished")
        await viewer.send({"type": "step"})
        [reply] = await viewer.next_batch(10)
        assert reply["message"].split(":")[0] in ("read_only", "no_active_run")
        await viewer.ws.close()
        return run_id, [e for e in viewer.events if e.get("run_id") == run_id]

    run_id, replay = asyncio.run(go())
    assert [e["seq"] for e in replay] == list(range(len(replay)))
    body = web.get(f"http://{server}/api/runs/{run_id}").json()
    assert body["events"] == replay and out(body["events"]) == PAUSING_OUT


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([*STRANGER_COMMANDS, "resume", "run"]),
            st.sampled_from(["own", "none", "junk"]),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_no_stranger_command_sequence_moves_or_ends_the_owners_run(
    server: str, sequence: list[tuple[str, str]]
) -> None:
    async def go() -> None:
        owner = await _paused_run(server)
        run_id = owner.events[0]["run_id"]
        stranger = Client(await connect(server))
        for kind, naming in sequence:
            named = {"own": run_id, "none": None, "junk": "zz" + run_id}[naming]
            if kind == "resume":
                cmd: dict[str, Any] = {"type": "resume", "run_id": named or run_id}
            elif kind == "run":
                cmd = {"type": "run", "code": "print(0)", "replace": True}
            else:
                cmd = _command(kind, named)
            await stranger.send(cmd)
        await _quiet(stranger)
        # the owner's run has not moved: still paused at its first node, nothing new
        assert [e["type"] for e in await _quiet(owner)] == []
        await owner.send({"type": "continue"})
        assert (await owner.until("run_finished"))["status"] == "ok"
        assert out(owner.events) == PAUSING_OUT
        for c in (owner, stranger):
            await c.ws.close()

    asyncio.run(go())
