"""One websocket connection: a small state machine over the protocol's commands.

idle --run--> running --(run finished)--> idle;  any --resume--> following a run;
commands that need a run (step, continue, pause, stop, ...) are refused with a typed error
when there is none. Outgoing events are batched into JSON-array frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import RUN_COMMAND_TYPES, CommandError
from server.eventlog import Chunk, join, pack
from server.runs import LiveRun, RunManager
from server.storage import PAGE_BYTES, RunStore, pages

_log = logging.getLogger(__name__)
Send = Callable[[str], Awaitable[None]]
_STOPPING: set[asyncio.Task[None]] = set()  # strong refs until the stop completes


class RateLimiter:
    """A token bucket per client address."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True


class Outbox:
    """Collects chunks of events and sends them as JSON arrays, every `interval` or
    `max_events`; a frame joins whole chunks' bytes (up to 4 * `max_events` events)."""

    def __init__(self, send: Send, interval: float, max_events: int) -> None:
        self._send = send
        self._interval = interval
        self._max = max_events
        self._buf: deque[Chunk] = deque()
        self._n = 0
        self._bytes = 0
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()  # set whenever the queue has been sent out
        self._closed = False
        self._task = asyncio.create_task(self._loop())
        # a send that failed (the client is gone) ends the loop: nobody may wait for a drain
        self._task.add_done_callback(lambda _: self._idle.set())

    def put(self, events: list[CommandError]) -> None:
        """Queue events that are not in a run's log (typed errors)."""
        self.put_chunk(pack(events))

    def put_chunk(self, chunk: Chunk) -> None:
        """Queue a chunk of a run's log (a run's listener)."""
        if chunk.count:
            self._buf.append(chunk)
            self._n += chunk.count
            self._bytes += len(chunk.body)
            self._wake.set()

    def _frame(self) -> str:
        """Take whole chunks off the queue, up to the frame's event budget, as one array."""
        taken = [self._buf.popleft()]
        n = taken[0].count
        while self._buf and n + self._buf[0].count <= self._max * 4:
            taken.append(self._buf.popleft())
            n += taken[-1].count
        self._n -= n
        self._bytes -= sum(len(chunk.body) for chunk in taken)
        return join(taken).decode()

    async def _loop(self) -> None:
        while not self._closed:
            await self._wake.wait()
            if self._n < self._max:
                await asyncio.sleep(self._interval)
            self._wake.clear()
            while self._buf:
                await self._send(self._frame())
            self._idle.set()

    async def drained(self, max_bytes: int) -> None:
        """Wait until at most `max_bytes` of events are queued (or the outbox is gone)."""
        while self._bytes > max_bytes and not self._closed and not self._task.done():
            self._idle.clear()
            await self._idle.wait()

    async def close(self, flush: bool = True) -> None:
        if flush and self._buf and not self._task.done():
            self._wake.set()
            await asyncio.sleep(0)
            with contextlib.suppress(Exception):
                while self._buf:
                    await self._send(self._frame())
        self._closed = True
        self._idle.set()
        self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task


def error_event(code: str, message: str, raw: str | None = None) -> CommandError:
    """A typed `command_error` reply (not part of any run's log: seq -1)."""
    return {
        "type": "command_error",
        "run_id": "",
        "seq": -1,
        "t": 0,
        "message": f"{code}: {message}",
        "raw": raw,
    }


def parse(raw: str | bytes) -> dict[str, Any]:
    """A validated command as a dict, defaults filled in; ValueError (the protocol's
    ProtocolError) with the reason otherwise."""
    from protocol.check import parse_command

    return parse_command(raw)


class Session:
    """The server side of one websocket."""

    def __init__(
        self,
        manager: RunManager,
        store: RunStore,
        outbox: Outbox,
        client: str,
        limiter: RateLimiter,
        parse: Callable[[Any], dict[str, Any]],
        grace_s: float,
    ) -> None:
        self.manager = manager
        self.store = store
        self.out = outbox
        self.client = client
        self.limiter = limiter
        self.parse = parse
        self.grace_s = grace_s
        self.run: LiveRun | None = None  # the run this session controls and follows
        self.followed: set[LiveRun] = set()

    def _follow(self, run: LiveRun, after: int) -> None:
        # a run this session stopped stays followed until its run_finished has been delivered
        # (LiveRun drops its listeners when it ends); one it merely watched is let go
        old = self.run
        if old is not None and old is not run and old.stop_requested is None:
            old.unsubscribe(self.out.put_chunk)
        self.run = run
        self.followed.add(run)
        run.subscribe(self.out.put_chunk, after)

    def _unfollow(self) -> None:
        for run in self.followed:
            run.unsubscribe(self.out.put_chunk)
        self.followed.clear()

    async def handle(self, raw: Any) -> None:
        """Dispatch one incoming frame (already known to be text)."""
        try:
            cmd = self.parse(raw)
        except ValueError as exc:
            text = raw if isinstance(raw, str) else None
            self.out.put([error_event("bad_command", str(exc), text[:1000] if text else None)])
            return
        try:
            await self._dispatch(cmd)
        except ValueError as exc:  # refused by the run (e.g. too many commands pending)
            self.out.put([error_event("refused", str(exc))])
        except Exception as exc:  # one bad command must not end the connection
            _log.exception("command %r failed", cmd.get("type"))
            self.out.put([error_event("internal_error", f"{type(exc).__name__}: {exc}")])

    async def _dispatch(self, cmd: dict[str, Any]) -> None:
        kind = cmd["type"]
        if kind == "run":
            await self._run(cmd)
        elif kind == "resume":
            await self._resume(cmd)
        elif kind in RUN_COMMAND_TYPES:
            run = self.run
            if run is None or run.done.is_set():
                self.out.put([error_event("no_active_run", f"'{kind}' needs a running run")])
                return
            if cmd.get("run_id") not in (None, run.id):
                # never act on this session's run when the client meant another one
                message = f"'{kind}' names run {cmd['run_id']!r}; this session follows {run.id!r}"
                self.out.put([error_event("wrong_run", message)])
                return
            if kind == "stop":
                await run.stop("killed")
            else:
                await run.command(cmd)
        else:
            self.out.put([error_event("unknown_command", f"unknown command type {kind!r}")])

    async def _run(self, cmd: dict[str, Any]) -> None:
        active = self.run
        if active is not None and not active.done.is_set() and active.stop_requested is None:
            if not cmd.get("replace"):
                self.out.put(
                    [
                        error_event(
                            "busy",
                            f"run {active.id} is still active in this session; stop it first "
                            "(or send run with replace=true)",
                        )
                    ]
                )
                return
            await active.stop("killed")
        if not self.limiter.allow(self.client):
            self.out.put([error_event("rate_limited", "too many runs; wait a moment")])
            return
        run = self.manager.start(cmd["code"], cmd.get("options") or {}, self.client)
        self._follow(run, -1)

    async def _resume(self, cmd: dict[str, Any]) -> None:
        run_id, after = cmd["run_id"], int(cmd.get("after_seq", -1))
        live = self.manager.get(run_id)
        if live is not None:
            self._follow(live, after)
            return
        if await asyncio.to_thread(self.store.get, run_id) is None:
            self.out.put([error_event("unknown_run", f"no run with id {run_id!r}")])
            return
        # a page at a time, each sent before the next is read: a large stored run resumed by
        # many clients (that may not read) must not be loaded whole for each of them
        async for chunk in pages(self.store, run_id, after):
            self.out.put_chunk(chunk)
            await self.out.drained(PAGE_BYTES)

    async def close(self) -> None:
        """The client went away: keep its run alive for a grace period, then stop it."""
        run = self.run
        self._unfollow()
        if run is not None and not run.done.is_set():
            loop = asyncio.get_running_loop()

            def maybe_stop() -> None:
                if not run.listeners and not run.done.is_set():
                    task = loop.create_task(run.stop("killed"))
                    _STOPPING.add(task)
                    task.add_done_callback(_STOPPING.discard)

            loop.call_later(self.grace_s, maybe_stop)
        await self.out.close(flush=False)
