"""The websocket protocol against a real server and the real sandbox."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests import web
from tests.server.live import Client, assert_dense, connect, live_server, run_events

SNIPPET = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
print(y)
y.backward()
print(x.grad)
"""

SLOW = """import time
print("start", flush=True)
time.sleep(1.5)
print("end")
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("db") / "runs.sqlite3"
    with live_server(db) as base:
        yield base


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _run_snippet(base: str, code: str, **options: Any) -> list[dict[str, Any]]:
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code, "options": options})
        await c.until("run_finished")
        return c.events


def test_healthz_reports_the_sandbox_in_force(server: str) -> None:
    body = web.get(f"http://{server}/healthz").json()
    assert body["status"] == "ok"
    assert body["sandbox"] == "bwrap"


def test_a_run_streams_dense_events_in_json_array_frames(server: str) -> None:
    events = run(_run_snippet(server, SNIPPET))
    assert_dense(events)
    assert events[-1]["status"] == "ok"
    out = "".join(e["text"] for e in events if e["type"] == "stdout")
    assert out == "tensor(14., grad_fn=<SumBackward0>)\ntensor([2., 4., 6.])\n"
    names = {e["name"] for e in events if e["type"] == "node"}
    assert {"MulBackward0", "SumBackward0"} <= names


def test_a_stored_run_is_served_over_rest_and_paged(server: str) -> None:
    events = run(_run_snippet(server, SNIPPET))
    run_id = events[0]["run_id"]
    body = web.get(f"http://{server}/api/runs/{run_id}").json()
    assert body["code"] == SNIPPET
    assert [e["seq"] for e in body["events"]] == list(range(len(events)))
    page = web.get(f"http://{server}/api/runs/{run_id}/events", params={"after": 3}).json()
    assert [e["seq"] for e in page] == list(range(4, len(events)))
    assert web.get(f"http://{server}/api/runs/nope").status_code == 404


def frames(body: bytes) -> list[list[dict[str, Any]]]:
    """A `/log` body cut into its frames ("<length>\\n<JSON array>"), each parsed."""
    out: list[list[dict[str, Any]]] = []
    while body:
        head, _, rest = body.partition(b"\n")
        n = int(head)
        assert len(rest) >= n, "a frame was cut short"
        out.append(orjson.loads(rest[:n]))
        body = rest[n:]
    return out


def test_a_stored_log_is_served_in_frames_of_whole_events(tmp_path: Path) -> None:
    code = (
        "import torch\nx = torch.ones(3, requires_grad=True)\nfor _ in range(20):\n    x = x * 2\n"
    )
    code += "x.sum().backward()\n"
    with live_server(tmp_path / "runs.sqlite3", frame_bytes=1024) as base:
        events = run(_run_snippet(base, code))
        run_id = events[0]["run_id"]
        r = web.get(f"http://{base}/api/runs/{run_id}/log")
        unknown = web.get(f"http://{base}/api/runs/nope/log")
    assert r.status_code == 200
    got = frames(r.content)
    assert len(got) > 3  # frames of about frame_bytes, each whole events
    assert orjson.dumps([e for f in got for e in f]) == orjson.dumps(events)
    # an unknown run is said in the log itself, as the websocket's resume says it
    assert unknown.status_code == 200
    [[error]] = frames(unknown.content)
    assert error["type"] == "command_error" and error["message"].startswith("unknown_run")


def test_malformed_commands_get_typed_errors_and_the_connection_survives(server: str) -> None:
    bad: list[str | bytes] = [
        "{not json",
        "[]",
        '{"type": "fly"}',
        '{"type": "run", "code": 5}',
        '{"type": "resume"}',
        '{"type": "tensor_values", "tensor_id": "x"}',
        b"\x00\x01binary",
        "x" * (3 * 1024 * 1024),
        '{"type": "step"}',
        '{"type": "resume", "run_id": "no-such-run"}',
    ]

    async def go() -> None:
        async with await connect(server) as ws:
            c = Client(ws)
            for frame in bad:
                await c.send(frame)
                batch = await c.next_batch(10)
                assert [e["type"] for e in batch] == ["command_error"], (frame[:40], batch)
            await c.send({"type": "run", "code": "print(1 + 1)"})
            finished = await c.until("run_finished")
            assert finished["status"] == "ok"

    run(go())


def test_one_run_at_a_time_per_session_unless_replaced(server: str) -> None:
    async def go() -> None:
        async with await connect(server) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": SLOW})
            first = await c.until("run_started")
            await c.send({"type": "run", "code": "print(2)"})
            err = await c.until("command_error")
            assert "busy" in err["message"]
            await c.send({"type": "run", "code": "print(3)", "replace": True})
            second = None
            while second is None or not any(
                e["type"] == "run_finished" and e["run_id"] == second for e in c.events
            ):
                for e in await c.next_batch():
                    if e["type"] == "run_started" and e["run_id"] != first["run_id"]:
                        second = e["run_id"]
            old = run_events(c.events, first["run_id"])
            assert old[-1]["type"] == "run_finished" and old[-1]["status"] == "killed"

    run(go())


def test_resume_on_a_new_socket_delivers_exactly_the_missing_events(server: str) -> None:
    async def go() -> None:
        async with await connect(server) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": SLOW})
            while not any(e["type"] == "stdout" for e in c.events):
                await c.next_batch()
            run_id = c.events[0]["run_id"]
            last = c.events[-1]["seq"]
        async with await connect(server) as ws2:
            c2 = Client(ws2)
            await c2.send({"type": "resume", "run_id": run_id, "after_seq": last})
            await c2.until("run_finished")
        got = run_events(c2.events, run_id)
        assert [e["seq"] for e in got] == list(range(last + 1, got[-1]["seq"] + 1))
        assert any(e["type"] == "stdout" and "end" in e["text"] for e in got)

    run(go())


def test_pause_in_backward_then_step_gives_the_uninterrupted_gradients(server: str) -> None:
    async def go() -> None:
        async with await connect(server) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": SNIPPET, "options": {"pause_in_backward": True}})
            steps = 0
            while True:
                batch = await c.next_batch()
                kinds = [e["type"] for e in batch]
                if "run_finished" in kinds:
                    break
                if "paused" in kinds:
                    steps += 1
                    await c.send({"type": "step"})
            assert steps >= 3
            out = "".join(e["text"] for e in c.events if e["type"] == "stdout")
            assert out.endswith("tensor([2., 4., 6.])\n")

    run(go())


def test_runs_survive_a_server_restart(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite3"
    with live_server(db) as base:
        events = run(_run_snippet(base, SNIPPET))
    run_id = events[0]["run_id"]
    with live_server(db) as base:
        body = web.get(f"http://{base}/api/runs/{run_id}").json()
        assert body["status"] == "ok"
        assert orjson.dumps(body["events"]) == orjson.dumps(events)


def test_examples_are_listed_seeds_first(server: str) -> None:
    examples = web.get(f"http://{server}/api/examples").json()
    assert examples, "examples/ is empty"
    assert all(set(e) == {"id", "title", "code"} for e in examples)
    seeds = [e["id"][0].isdigit() for e in examples]
    assert seeds == sorted(seeds, reverse=True)


def test_missing_frontend_build_gives_a_page_that_says_how_to_build(tmp_path: Path) -> None:
    with live_server(tmp_path / "db.sqlite3", frontend_dist=tmp_path / "nothing") as base:
        page = web.get(f"http://{base}/").text
    assert "npm run build" in page


def test_a_client_over_its_rate_limit_gets_a_typed_refusal(tmp_path: Path) -> None:
    async def go(base: str) -> list[dict[str, Any]]:
        async with await connect(base) as ws:
            c = Client(ws)
            for _ in range(3):
                await c.send({"type": "run", "code": "print(1)", "replace": True})
            # every run is answered: two started (the first one stopped by the second), and
            # one refusal; a stop can take seconds on a loaded machine, so wait for those
            while sum(e["type"] in ("run_finished", "command_error") for e in c.events) < 3:
                await c.next_batch(60)
            return [e for e in await _drain(c) if e["type"] == "command_error"]

    with live_server(tmp_path / "runs.sqlite3", rate_limit_burst=2, rate_limit_per_minute=1) as b:
        errors = run(go(b))
    assert len(errors) == 1 and "rate_limited" in errors[0]["message"]


async def _drain(c: Client) -> list[dict[str, Any]]:
    """Read until no frame arrives for a second."""
    while True:
        try:
            await c.next_batch(timeout=1.0)
        except TimeoutError:
            return c.events
