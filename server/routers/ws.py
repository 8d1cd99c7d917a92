"""`WS /ws`: one JSON command per text frame in; JSON arrays of events out.

The guard (trust/guard.py) has checked Host, Origin and the access token, and says who the
client is; a client without an owner cookie gets one on the accept.
"""

from __future__ import annotations

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.feeds import Cursor, Sender
from server.limits import ClientLimits
from server.session import Session, error_event
from server.trust.identity import Identity

router = APIRouter()
TRY_AGAIN_LATER = 1013


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    state = ws.app.state
    identity: Identity = ws.scope["state"]["identity"]
    cookie = state.identifier.cookie(identity)
    await ws.accept(headers=[(b"set-cookie", cookie.encode("latin-1"))] if cookie else None)
    keys, factor = ClientLimits.keys(identity.quota, identity.address, ClientLimits.ADDRESS_FACTOR)
    limits: ClientLimits = state.limits
    if not limits.connections.take(*keys, factor=factor):
        cap = limits.connections.per_key
        refusal = error_event("too_many_connections", f"at most {cap} connections per client")
        await ws.send_text(orjson.dumps([refusal]).decode())
        await ws.close(TRY_AGAIN_LATER, "too many connections")
        return
    try:
        await _serve(ws, identity)
    finally:
        limits.connections.give(*keys)


async def _serve(ws: WebSocket, identity: Identity) -> None:
    state = ws.app.state
    settings = state.settings
    session: Session | None = None

    def ended(cursor: Cursor) -> None:
        if session is not None:
            session.feed_ended(cursor)

    sender = Sender(
        ws.send_text,
        ws.scope["state"]["abort"],
        settings.flush_interval_s,
        settings.flush_max_events * 4,
        settings.frame_bytes,
        settings.max_reply_bytes,
        settings.send_stall_s,
        on_end=ended,
    )
    session = Session(
        state.manager,
        state.store,
        sender,
        identity,
        state.limits,
        settings.disconnect_grace_s,
        poll_s=settings.store_flush_s,
    )
    try:
        while sender.dropped is None:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                session.reply("binary_frame", "send commands as JSON text frames")
                continue
            if len(text) > settings.max_message_bytes:
                session.reply("too_large", "command frame too large")
                continue
            await session.handle(text)
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()
