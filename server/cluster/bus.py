"""Notifications between replicas and runners: PostgreSQL LISTEN/NOTIFY.

Channels (payloads are small text; a notification goes out when its transaction commits):
- EVENTS: "<run_id> <last stored seq> <status>" after each store write of a run (`running`,
  or its final status once its end is stored);
- COMMANDS: JSON `{"run_id": ..., "command": {...}}` (an owner's step, stop, ...), or
  `{"attached": [run ids]}` (the owner still has a session on those runs somewhere);
- JOBS: a job was queued.

A notification can be missed (a listening connection that drops and reconnects): listeners are
told on every (re)connect so they read the store again, and readers poll it as a fallback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import psycopg
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

_log = logging.getLogger(__name__)
EVENTS = "backscope_events"
COMMANDS = "backscope_commands"
MAX_PAYLOAD = 7900  # PostgreSQL's limit is 8000 bytes


class Bus:
    """One listening connection (reconnected when it drops) and a pool to notify through."""

    def __init__(
        self,
        url: str,
        pool: AsyncConnectionPool,
        channels: tuple[str, ...],
        on_notify: Callable[[str, str], None],
        on_connect: Callable[[], None] = lambda: None,
    ) -> None:
        self.url = url
        self.pool = pool
        self.channels = channels
        self.on_notify = on_notify
        self.on_connect = on_connect
        self.listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Start listening; returns once the channels are listened to."""
        self._task = asyncio.create_task(self._listen())
        await self.listening.wait()

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as db:
                    for channel in self.channels:
                        await db.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                    self.listening.set()
                    self.on_connect()
                    async for note in db.notifies():
                        try:
                            self.on_notify(note.channel, note.payload)
                        except Exception:
                            _log.exception("handling a notification on %s failed", note.channel)
            except psycopg.OperationalError as exc:
                self.listening.clear()
                _log.warning("listening connection lost (%s): reconnecting", exc)
                await asyncio.sleep(1.0)

    async def notify(self, channel: str, payload: str) -> None:
        if len(payload.encode()) > MAX_PAYLOAD:
            raise ValueError(f"a notification is at most {MAX_PAYLOAD} bytes")
        async with self.pool.connection() as db:
            await db.execute("SELECT pg_notify(%s, %s)", (channel, payload))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


async def open_pool(url: str, max_size: int = 4) -> AsyncConnectionPool:
    """A pool of autocommit connections to the cluster's database."""
    pool = AsyncConnectionPool(
        url, min_size=1, max_size=max_size, kwargs={"autocommit": True}, open=False
    )
    await pool.open(wait=True, timeout=60.0)
    return pool
