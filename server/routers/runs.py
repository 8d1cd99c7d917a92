"""Stored runs over REST: `GET /api/runs/{id}`, `GET /api/runs/{id}/events?after=SEQ`, and
`GET /api/runs/{id}/log` (what the page replays a run from: see `get_log`).

Bodies are streamed from a cursor (feeds.py) a frame's worth at a time, each piece written
before the next is read (the server's flow control waits for a slow reader), so a reader
holds about one piece however large the run. Reads at once are bounded in all and per
client (503 beyond), and a reader that takes nothing for `send_stall_s` is cut off.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from server.eventlog import Chunk, join
from server.feeds import Cursor
from server.limits import ClientLimits
from server.session import MAX_RUN_ID, error_event
from server.state import RunState
from server.storage import StoredRun
from server.trust.identity import Identity

router = APIRouter()
PIECE = 64 * 1024  # bytes per write: about what the transport buffers before it waits
FRAMED = "application/x-backscope-frames"


class BoundedStream(StreamingResponse):
    """A streamed body that holds one of the server's read slots until it ends, and gives up
    on a client that takes nothing for `stall_s`."""

    def __init__(
        self,
        body: AsyncIterator[bytes],
        release: Any,
        stall_s: float,
        media_type: str = "application/json",
    ) -> None:
        super().__init__(body, media_type=media_type)
        self._release = release
        self._stall_s = stall_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def timed(message: Message) -> None:
            async with asyncio.timeout(self._stall_s):  # (not wait_for: see feeds.Sender)
                await send(message)

        try:
            await super().__call__(scope, receive, timed)
        except TimeoutError:
            pass  # the client stopped reading: the server closes the connection
        finally:
            self._release()


async def _pieces(
    cursor: Cursor, frame_bytes: int, head: bytes = b"", tail: bytes = b""
) -> AsyncIterator[bytes]:
    """`head`, one JSON array of the cursor's events (their bytes as stored), `tail`; in
    pieces of at most PIECE bytes."""
    sep = head + b"["
    while True:
        chunks: list[Chunk] = await cursor.next(4000, frame_bytes)
        if not chunks:
            break
        for chunk in chunks:
            body = memoryview(chunk.body)[1:-1]
            yield sep + bytes(body[:PIECE])
            for start in range(PIECE, len(body), PIECE):
                yield bytes(body[start : start + PIECE])
            sep = b","
    yield (b"" if sep == b"," else sep) + b"]" + tail


async def _frames(cursor: Cursor, frame_bytes: int) -> AsyncIterator[bytes]:
    """The cursor's events as frames: a frame's length in bytes in ASCII digits, a newline,
    then that many bytes, one JSON array of events (the stored bytes, joined, never
    re-serialized); in pieces of at most PIECE bytes."""
    while True:
        chunks: list[Chunk] = await cursor.next(4000, frame_bytes)
        if not chunks:
            break
        frame = join(chunks)
        yield b"%d\n" % len(frame) + frame[:PIECE]
        for start in range(PIECE, len(frame), PIECE):
            yield frame[start : start + PIECE]


def _stream(
    request: Request, cursor: Cursor, head: bytes = b"", tail: bytes = b"", framed: bool = False
) -> Any:
    state = request.app.state
    identity: Identity = request.scope["state"]["identity"]
    limits: ClientLimits = state.limits
    if not limits.take_read(identity.quota, identity.address):
        raise HTTPException(503, "too many reads of runs at once; retry", {"Retry-After": "2"})
    settings = state.settings
    if framed:
        body, media = _frames(cursor, settings.frame_bytes), FRAMED
    else:
        body, media = _pieces(cursor, settings.frame_bytes, head, tail), "application/json"
    release = functools.partial(limits.give_read, identity.quota, identity.address)
    return BoundedStream(body, release, settings.send_stall_s, media)


def _cursor(request: Request, run_id: str, after: int, upto: int | None) -> Cursor:
    state = request.app.state
    return Cursor(state.manager, state.store, run_id, after, upto, follow=False)


async def _find(request: Request, run_id: str) -> tuple[dict[str, Any], int]:
    """The run's head fields and its last seq now (a live run: what has arrived so far)."""
    state = request.app.state
    identity: Identity = request.scope["state"]["identity"]
    live = state.manager.get(run_id) if len(run_id) <= MAX_RUN_ID else None
    if live is not None and live.state is not RunState.ARCHIVED:
        if not live.owned_by(identity.owner):
            live.shared = True
        head = {"id": live.id, "code": live.code, "status": live.status or "running"}
        return head, live.log.count - 1
    run: StoredRun | None = None
    if len(run_id) <= MAX_RUN_ID:
        run = await asyncio.to_thread(state.store.get, run_id)
    if run is None:
        raise HTTPException(404, f"no run with id {run_id[:MAX_RUN_ID]!r}")
    if run.owner != identity.owner and not run.shared:
        await asyncio.to_thread(state.store.mark_shared, run_id)
    head = {
        "id": run.id,
        "code": run.code,
        "status": run.status,
        "options": run.options,
        "duration_ms": run.duration_ms,
    }
    return head, run.n_events - 1


@router.get("/api/runs/{run_id}")
async def get_run(run_id: str, request: Request) -> Any:
    """A run's code, status and complete event list (live runs: what has arrived so far)."""
    head, last = await _find(request, run_id)
    cursor = _cursor(request, run_id, -1, last)
    return _stream(request, cursor, orjson.dumps(head)[:-1] + b',"events":', b"}")


@router.get("/api/runs/{run_id}/events")
async def get_events(
    run_id: str,
    request: Request,
    after: int = Query(-1, ge=-1, le=2**63 - 1),  # SQLite's integers are 64-bit
    limit: int = Query(10_000, ge=1, le=100_000),
) -> Any:
    """One page of a run's events with seq > after."""
    _, last = await _find(request, run_id)
    cursor = _cursor(request, run_id, after, min(last, after + limit))
    return _stream(request, cursor)


@router.get("/api/runs/{run_id}/log")
async def get_log(run_id: str, request: Request) -> Any:
    """The run's log as it is now, in frames (see `_frames`): what a page replays a stored run
    from, a frame at a time, instead of the websocket (a browser reads one HTTP body several
    times faster than the same bytes as websocket messages). A run still going is read to its
    last event so far; the page follows the rest with `resume` over the websocket. A run this
    server does not know answers, as `resume` does, a frame with an `unknown_run` error (not a
    404: the page says so itself, without a console error)."""
    try:
        _, last = await _find(request, run_id)
    except HTTPException as e:
        if e.status_code != 404:
            raise
        frame = orjson.dumps([error_event("unknown_run", str(e.detail))])
        return Response(b"%d\n%b" % (len(frame), frame), media_type=FRAMED)
    return _stream(request, _cursor(request, run_id, -1, last), framed=True)
