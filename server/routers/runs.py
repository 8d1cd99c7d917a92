"""Stored runs over REST: `GET /api/runs/{id}` and `GET /api/runs/{id}/events?after=SEQ`.

Bodies are streamed a chunk at a time (stored runs are read a page at a time): a run's log can
be large, and many clients asking for it at once must not each hold a copy of all of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import StreamingResponse

from server.eventlog import Chunk
from server.storage import RunStore, StoredRun, pages

router = APIRouter()


async def _aiter(chunks: Iterable[Chunk]) -> AsyncIterator[Chunk]:
    for chunk in chunks:
        yield chunk


async def _array(
    chunks: AsyncIterator[Chunk], head: bytes = b"", tail: bytes = b""
) -> AsyncIterator[bytes]:
    """`head`, one JSON array of every chunk's events (from their bytes), `tail`."""
    sep = head + b"["
    async for chunk in chunks:
        if chunk.count:
            yield sep + chunk.body[1:-1]
            sep = b","
    yield (sep if sep != b"," else b"") + b"]" + tail


def _json(body: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(body, media_type="application/json")


def _with_events(head: dict[str, Any], chunks: AsyncIterator[Chunk]) -> StreamingResponse:
    """`head` as a JSON object with an `events` array appended (the chunks' bytes as they
    are: the same bytes as serializing the whole body at once)."""
    return _json(_array(chunks, orjson.dumps(head)[:-1] + b',"events":', b"}"))


@router.get("/api/runs/{run_id}")
async def get_run(run_id: str, request: Request) -> StreamingResponse:
    """A run's code, status and complete event list (live runs: what has arrived so far)."""
    live = request.app.state.manager.get(run_id)
    if live is not None:
        status = live.status or "running"
        head = {"id": live.id, "code": live.code, "status": status}
        return _with_events(head, _aiter(live.log.after(-1)))
    store = request.app.state.store
    run = await _stored(store, run_id)
    head = {
        "id": run.id,
        "code": run.code,
        "status": run.status,
        "options": run.options,
        "duration_ms": run.duration_ms,
    }
    return _with_events(head, pages(store, run_id))


@router.get("/api/runs/{run_id}/events")
async def get_events(
    run_id: str,
    request: Request,
    after: int = Query(-1, ge=-1, le=2**63 - 1),  # SQLite's integers are 64-bit
    limit: int = Query(10_000, ge=1, le=100_000),
) -> StreamingResponse:
    """One page of a run's events with seq > after."""
    live = request.app.state.manager.get(run_id)
    if live is not None:
        return _json(_array(_aiter(live.log.after(after, limit))))
    store = request.app.state.store
    await _stored(store, run_id)
    return _json(_array(pages(store, run_id, after, limit)))


async def _stored(store: RunStore, run_id: str) -> StoredRun:
    run = await asyncio.to_thread(store.get, run_id)
    if run is None:
        raise HTTPException(404, f"no run with id {run_id!r}")
    return run
