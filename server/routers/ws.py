"""`WS /ws`: one JSON command per text frame in; JSON arrays of events out."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from server.session import Outbox, Session, error_event

router = APIRouter()


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    state = ws.app.state
    settings = state.settings
    await ws.accept()
    outbox = Outbox(ws.send_text, settings.flush_interval_s, settings.flush_max_events)
    client = ws.client.host if ws.client else "?"
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
