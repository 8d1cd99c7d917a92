"""Stored runs over REST: `GET /api/runs/{id}` and `GET /api/runs/{id}/events?after=SEQ`."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response

from server.eventlog import Chunk, join

router = APIRouter()


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _with_events(head: dict[str, Any], chunks: list[Chunk]) -> Response:
    """`head` as a JSON object with an `events` array appended, built from the chunks' bytes
    (the same bytes as serializing the whole body at once)."""
    return _json(orjson.dumps(head)[:-1] + b',"events":' + join(chunks) + b"}")


@router.get("/api/runs/{run_id}")
async def get_run(run_id: str, request: Request) -> Response:
    """A run's code, status and complete event list (live runs: what has arrived so far)."""
    live = request.app.state.manager.get(run_id)
    if live is not None:
        status = live.status or "running"
        head = {"id": live.id, "code": live.code, "status": status}
        return _with_events(head, live.log.after(-1))
    store = request.app.state.store
    run = await asyncio.to_thread(store.get, run_id)
    if run is None:
        raise HTTPException(404, f"no run with id {run_id!r}")
    chunks = await asyncio.to_thread(store.chunks, run_id)
    head = {
        "id": run.id,
        "code": run.code,
        "status": run.status,
        "options": run.options,
        "duration_ms": run.duration_ms,
    }
    return _with_events(head, chunks)


@router.get("/api/runs/{run_id}/events")
async def get_events(
    run_id: str,
    request: Request,
    after: int = Query(-1, ge=-1),
    limit: int = Query(10_000, ge=1, le=100_000),
) -> Response:
    """One page of a run's events with seq > after."""
    live = request.app.state.manager.get(run_id)
    if live is not None:
        return _json(join(live.log.after(after, limit)))
    store = request.app.state.store
    if await asyncio.to_thread(store.get, run_id) is None:
        raise HTTPException(404, f"no run with id {run_id!r}")
    return _json(join(await asyncio.to_thread(store.chunks, run_id, after, limit)))
