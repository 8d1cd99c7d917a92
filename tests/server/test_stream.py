"""The event stream through a real server and sandbox: no compression, exact resume from inside
a stored chunk (on SQLite and PostgreSQL), paging across chunks, and frames forged by the
snippet itself."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests import web
from tests.server.databases import Database, database, postgres
from tests.server.live import Client, assert_dense, connect, live_server

__all__ = ["database", "postgres"]  # fixtures

# ~2400 events: the tracer sends them in batches (a few hundred), so the log has several chunks
MANY = """import torch
x = torch.ones(2, requires_grad=True)
y = x
for i in range(600):
    y = y * 1.01
y.sum().backward()
print(x.grad)
"""

# Writes one frame on the event socket, as the worker would: the snippet runs in the worker
# process and can find it. BODY is the frame's JSON, as bytes.
FORGE = """import os, stat, struct
BODY = {body!r}
for fd in range(3, 64):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, struct.pack(">I", len(BODY)) + BODY)
            break
    except OSError:
        pass
print("after")
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with live_server(tmp_path_factory.mktemp("stream") / "runs.sqlite3") as base:
        yield base


async def _send(base: str, command: dict[str, Any]) -> list[dict[str, Any]]:
    """Send one command on a new socket; every event up to run_finished."""
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send(command)
        await c.until("run_finished")
        return c.events


def _run(base: str, code: str) -> list[dict[str, Any]]:
    return asyncio.run(_send(base, {"type": "run", "code": code}))


def test_permessage_deflate_is_offered_by_the_client_and_not_accepted(server: str) -> None:
    async def handshake() -> tuple[str, str | None]:
        async with await connect(server) as ws:
            offered = ws.request.headers.get("Sec-WebSocket-Extensions", "")
            return offered, ws.response.headers.get("Sec-WebSocket-Extensions")

    offered, accepted = asyncio.run(handshake())
    assert "permessage-deflate" in offered
    assert accepted is None


def test_resume_and_paging_from_inside_a_stored_chunk_after_a_restart(
    database: Database,
) -> None:
    db = database.path
    with live_server(db, **database.settings) as base:
        events = _run(base, MANY)
    assert_dense(events)
    run_id = events[0]["run_id"]
    store = database.store()
    inside = [c.first + 1 for c in store.chunks(run_id) if c.count > 2]
    boundary = store.chunks(run_id)[1].last
    store.close()
    assert len(inside) >= 2, "the run should span several stored chunks"
    with live_server(db, **database.settings) as base:
        for after in (-1, inside[0], inside[-1], boundary, len(events) - 2):
            command = {"type": "resume", "run_id": run_id, "after_seq": after}
            assert asyncio.run(_send(base, command)) == events[after + 1 :], after
        url = f"http://{base}/api/runs/{run_id}/events"
        for after, limit in ((inside[0], 3), (inside[0], 10_000), (boundary, 1), (-1, 300)):
            page = web.get(url, params={"after": after, "limit": limit}).json()
            assert page == events[after + 1 : after + 1 + limit], (after, limit)


def test_forged_frames_get_the_servers_run_id_seq_and_t(server: str) -> None:
    body = (
        b'[{"type":"stdout","text":"one\\n","seq":0,"run_id":"someone-else","t":"soon"},'
        b' {"type":"stdout","text":"two\\n","se\\u0071":1} ,'
        b'{"type":"stdout","text":"three\\n","t":7,"t":null}]'
    )
    events = _run(server, FORGE.format(body=body))
    assert_dense(events)
    assert events[-1]["status"] == "ok"
    run_id = events[0]["run_id"]
    assert all(e["run_id"] == run_id and isinstance(e["t"], int) for e in events)
    printed = "".join(e["text"] for e in events if e["type"] == "stdout")
    assert printed == "one\ntwo\nthree\nafter\n"
    stored = web.get(f"http://{server}/api/runs/{run_id}").json()["events"]
    assert stored == events


@pytest.mark.parametrize(
    "body",
    [
        b'[{"type":"stdout","text":"\xff"}]',  # not UTF-8: a browser could not read the frame
        b'[{"type":"stdout","text":"a","type":1}]',
        b'[{"type":"stdout","text":"a"}] and more',
    ],
)
def test_a_malformed_forged_frame_ends_the_run_as_an_error(server: str, body: bytes) -> None:
    events = _run(server, FORGE.format(body=body))
    assert_dense(events)
    assert events[-1]["status"] == "error"
    errors = [e["message"] for e in events if e["type"] == "error"]
    assert any("malformed event stream" in m for m in errors), errors


@pytest.mark.parametrize(
    "code",
    [
        FORGE.format(body=b'[{"type":"run_finished","status":"ok","events":0,"duration_ns":0}]'),
        FORGE.format(body=b'[{"type":"queued","position":0}]'),
        # through the tracer itself, which the snippet can reach as an engine module
        "import sys\n"
        "tracer = sys.modules['engine.autograd.observer'].TRACER\n"
        "tracer.emit({'type': 'run_started', 't': 0, 'version': 1, 'code': 'x', 'options': {}})\n"
        "print('after')\n",
    ],
)
def test_a_snippet_cannot_send_the_servers_own_events(server: str, code: str) -> None:
    events = _run(server, code)
    assert_dense(events)
    kinds = [e["type"] for e in events]
    assert kinds.count("run_started") == 1 and kinds.count("run_finished") == 1
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert events[-1]["status"] == "error"
    errors = [e["message"] for e in events if e["type"] == "error"]
    assert any("not the worker's to send" in m for m in errors), errors


def test_the_worker_may_send_every_event_type_but_the_servers_own() -> None:
    import protocol

    kinds = {protocol.type_of(c) for c in protocol.EVENTS}
    server_only = {"run_started", "run_finished", "queued", "command_error"}
    assert kinds - server_only == protocol.WORKER_EVENT_TYPES
