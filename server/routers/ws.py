"""`WS /ws`: one JSON command per text frame in; JSON arrays of events out."""

from __future__ import annotations

from collections import Counter

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.session import Outbox, Session, error_event

router = APIRouter()
TRY_AGAIN_LATER = 1013


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    state = ws.app.state
    settings = state.settings
    await ws.accept()
    client = ws.client.host if ws.client else "?"
    open_now: Counter[str] = state.connections
    if open_now[client] >= settings.max_connections_per_client:
        limit = settings.max_connections_per_client
        refusal = error_event("too_many_connections", f"at most {limit} connections per client")
        await ws.send_text(orjson.dumps([refusal]).decode())
        await ws.close(TRY_AGAIN_LATER)
        return
    open_now[client] += 1
    try:
        await _serve(ws, client)
    finally:
        open_now[client] -= 1
        if not open_now[client]:
            del open_now[client]


async def _serve(ws: WebSocket, client: str) -> None:
    state = ws.app.state
    settings = state.settings
    outbox = Outbox(ws.send_text, settings.flush_interval_s, settings.flush_max_events)
    session = Session(
        state.manager,
        state.store,
        outbox,
        client,
        state.limiter,
        state.parse_command,
        settings.disconnect_grace_s,
    )
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                outbox.put([error_event("binary_frame", "send commands as JSON text frames")])
                continue
            if len(text) > settings.max_message_bytes:
                outbox.put([error_event("too_large", "command frame too large")])
                continue
            await session.handle(text)
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()
