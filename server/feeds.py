"""Reading a run's log as a client takes it: a cursor per reader, and one sender per socket.

A reader never gets a copy of the log. A `Cursor` is a position in one run's log: each `next`
returns the following events (a frame's worth), from the live log while the run is in memory
and from storage once it is archived, and waits while a live run has nothing new. Resuming
or paging therefore costs what is sent, not what the log holds, and a reader that does not
read holds one frame.

A `Sender` writes one websocket's frames: typed replies first, then the next frame of the one
cursor it follows (a new `follow` replaces the old: at most one resume in flight per socket).
It drops its socket (never the server's memory) when unread replies pass a cap or a frame
cannot be written for `stall_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from server.eventlog import Chunk, fit, join, pack
from server.runs import Runs
from server.state import RunState
from server.storage import RUNNING, RunStore

_log = logging.getLogger(__name__)
Send = Callable[[str], Awaitable[None]]


class Cursor:
    """A position in one run's log (after seq `after`), read up to seq `upto` (or the end)."""

    def __init__(
        self,
        manager: Runs,
        store: RunStore,
        run_id: str,
        after: int = -1,
        upto: int | None = None,
        follow: bool = True,
        poll_s: float = 2.0,
    ) -> None:
        self.manager = manager
        self.store = store
        self.run_id = run_id
        self.after = after
        self.upto = upto
        self.follow = follow  # wait for a run still going (else stop at what there is)
        self.poll_s = poll_s
        # held, not looked up again: a run the manager lets go of without storing it (refused
        # before it ran) is still read to its end from memory
        self._live = manager.get(run_id)

    async def next(self, max_events: int, max_bytes: int) -> list[Chunk]:
        """The next events, at most `max_events` and about `max_bytes`; [] at the end."""
        while True:
            limit = max_events if self.upto is None else min(max_events, self.upto - self.after)
            if limit <= 0:
                return []
            live = self._live
            if live is not None and live.state is RunState.ARCHIVED:
                self._live = None  # stored whole: read on from storage
            elif live is not None:
                changed = live.changed()
                chunks = fit(live.log.after(self.after, limit, max_bytes), max_bytes)
                if chunks:
                    self.after = chunks[-1].last
                    return chunks
                if live.done.is_set() or not self.follow:
                    return []
                await changed.wait()
                continue
            page = await asyncio.to_thread(
                self.store.chunks, self.run_id, self.after, limit, max_bytes
            )
            page = fit(page, max_bytes)
            if page:
                self.after = page[-1].last
                return page
            if live is not None or not self.follow:
                return []  # archived: the store has all of it, and all of it was read
            # stored, not live here: finished, or being written by another server process
            row = await asyncio.to_thread(self.store.get, self.run_id)
            if row is None or row.status != RUNNING:
                return []
            await asyncio.sleep(self.poll_s)


class Sender:
    """Frames out of one websocket: replies (typed errors), then the followed cursor's events.

    `abort` cuts the connection without a closing handshake (a peer that does not read would
    never take one either)."""

    def __init__(
        self,
        send: Send,
        abort: Callable[[], None],
        interval: float,
        max_events: int,
        frame_bytes: int,
        max_reply_bytes: int,
        stall_s: float,
        on_end: Callable[[Cursor], None] | None = None,
    ) -> None:
        self._send = send
        self._abort = abort
        self._interval = interval
        self._max = max_events
        self._frame_bytes = frame_bytes
        self._max_reply_bytes = max_reply_bytes
        self._stall_s = stall_s
        self._on_end = on_end
        self._replies: deque[Chunk] = deque()
        self._reply_bytes = 0
        self._feeds: deque[Cursor] = deque()  # the first is sent; a second waits for its end
        self._wake = asyncio.Event()
        self.dropped: str | None = None
        self._task = asyncio.create_task(self._loop())

    @property
    def feed(self) -> Cursor | None:
        return self._feeds[-1] if self._feeds else None

    def reply(self, events: list[Any]) -> None:
        """Queue events that are not in a run's log (typed errors), sent before run events."""
        chunk = pack(events)
        if self._reply_bytes + len(chunk.body) > self._max_reply_bytes:
            self.drop("the client does not read what it is sent")
            return
        self._replies.append(chunk)
        self._reply_bytes += len(chunk.body)
        self._wake.set()

    def follow(self, cursor: Cursor, after_current: bool = False) -> None:
        """Send `cursor`'s events from now on, instead of any cursor followed before; or,
        `after_current`, once the one being sent has ended (a run just stopped)."""
        head = self._feeds[0] if self._feeds and after_current else None
        self._feeds.clear()
        if head is not None:
            self._feeds.append(head)
        self._feeds.append(cursor)
        self._wake.set()

    def drop(self, why: str) -> None:
        """Cut the connection: its peer is not reading."""
        if self.dropped is None:
            self.dropped = why
            _log.info("dropping a websocket: %s", why)
            self._abort()
            self._task.cancel()

    async def _write(self, frame: bytes) -> None:
        # (asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation
        # that comes as the send completes, and a closing socket's sender then never ends)
        try:
            async with asyncio.timeout(self._stall_s):
                await self._send(frame.decode())
        except TimeoutError:
            self.drop(f"a frame waited {self._stall_s:.0f} s to be written")
            raise asyncio.CancelledError from None

    def _take_replies(self) -> bytes:
        chunks = list(self._replies)
        self._replies.clear()
        self._reply_bytes = 0
        return join(chunks)

    async def _loop(self) -> None:
        while True:
            if self._replies:
                # replies that come together go out together (a client's burst of commands)
                await asyncio.sleep(self._interval)
                await self._write(self._take_replies())
                continue
            feed = self._feeds[0] if self._feeds else None
            self._wake.clear()
            if feed is None:
                await self._wake.wait()
                continue
            reading = asyncio.ensure_future(feed.next(self._max, self._frame_bytes))
            woken = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({reading, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
                if not reading.done():
                    reading.cancel()
                    # (not `await reading`: its CancelledError would hide this task's own)
                    await asyncio.wait({reading})
            if reading.cancelled():
                continue
            try:
                chunks = reading.result()
            except Exception as exc:  # a failed read ends that feed, not the connection
                _log.exception("reading run %s failed", feed.run_id)
                chunks = []
                self.reply([_read_failed(feed.run_id, exc)])
            if not chunks:
                if self._feeds and self._feeds[0] is feed:
                    self._feeds.popleft()
                    if self._on_end is not None:
                        self._on_end(feed)
                continue
            await self._write(join(chunks))
            if sum(c.count for c in chunks) < self._max // 4:
                await asyncio.sleep(self._interval)  # a slow stream: batch what comes next

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


def _read_failed(run_id: str, exc: Exception) -> dict[str, Any]:
    return {
        "type": "command_error",
        "run_id": "",
        "seq": -1,
        "t": 0,
        "message": f"read_failed: run {run_id}: {type(exc).__name__}",
        "raw": None,
    }
