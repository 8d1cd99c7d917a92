"""Live runs: each run's event log in memory (dense `seq`), its listeners, and storage at the end.

The manager owns the sandbox handles; sessions only subscribe to runs and forward commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from protocol import Error, ErrorSource, Queued, RunFinished, RunStarted, RunStatus
from server.eventlog import Chunk, EventLog, stamp
from server.sandbox.batch import Batch
from server.storage import RunStore, StoredRun

Listener = Callable[[Chunk], None]


class Handle(Protocol):
    """What the manager needs from a sandboxed worker (server/sandbox implements it)."""

    status: str

    def events(self) -> AsyncIterator[Batch]: ...
    async def send(self, command: dict[str, Any]) -> None: ...
    async def kill(self, reason: str) -> None: ...


class Runner(Protocol):
    async def run(
        self,
        code: str,
        options: dict[str, Any],
        on_queue: Callable[[int], None] | None = None,
        owner: str = "",
    ) -> Handle: ...

    def health(self) -> dict[str, Any]: ...


class LiveRun:
    """One run's complete, ordered event log and the sessions watching it."""

    def __init__(self, run_id: str, code: str, options: dict[str, Any], owner: str = "") -> None:
        self.id = run_id
        self.code = code
        self.options = options
        self.owner = owner  # the client address that started it
        self.created = time.time()
        self.t0 = time.monotonic_ns()
        self.log = EventLog()
        self.listeners: set[Listener] = set()
        self.status: str | None = None
        self.done = asyncio.Event()
        self.handle: Handle | None = None
        self.stop_requested: str | None = None

    def append(self, batch: Batch | list[Any]) -> None:
        """Number events (run id, dense seq, t when missing), keep them as one chunk, and
        hand it to the listeners. Whatever the worker put in run_id/seq is overridden."""
        if not isinstance(batch, Batch):
            batch = Batch.of(batch)
        if not len(batch):
            return
        chunk = stamp(batch, self.id, self.log.count, time.monotonic_ns() - self.t0)
        self.log.add(chunk)
        for listener in list(self.listeners):
            listener(chunk)

    def subscribe(self, listener: Listener, after: int = -1) -> None:
        """Deliver events after `after` now, then every new chunk (no gap, no repeat)."""
        for chunk in self.log.after(after):
            listener(chunk)
        if not self.done.is_set():
            self.listeners.add(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    async def command(self, command: dict[str, Any]) -> None:
        if self.handle is not None and not self.done.is_set():
            await self.handle.send(command)

    async def stop(self, reason: str = "killed") -> None:
        self.stop_requested = reason
        if self.handle is not None and not self.done.is_set():
            await self.handle.kill(reason)


class RunManager:
    """Starts runs in the sandbox, pumps their events, stores them when they finish."""

    def __init__(self, runner: Runner, store: RunStore, protocol_version: int) -> None:
        self.runner = runner
        self.store = store
        self.protocol_version = protocol_version
        self.live: dict[str, LiveRun] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, code: str, options: dict[str, Any], owner: str = "") -> LiveRun:
        run = LiveRun(uuid.uuid4().hex[:12], code, options, owner)
        self.live[run.id] = run
        started: RunStarted = {
            "type": "run_started",
            "t": 0,
            "version": self.protocol_version,
            "code": code,
            "options": options,  # type: ignore[typeddict-item]
        }
        run.append([started])
        task = asyncio.create_task(self._pump(run))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run

    async def _pump(self, run: LiveRun) -> None:
        from server.sandbox import RunRefused

        status: RunStatus = "error"

        def queued(position: int) -> None:
            event: Queued = {
                "type": "queued",
                "t": time.monotonic_ns() - run.t0,
                "position": position,
            }
            run.append([event])

        try:
            try:
                options = {k: v for k, v in run.options.items() if v is not None}
                run.handle = await self.runner.run(run.code, options, queued, run.owner)
            except RunRefused as refused:
                status = "limit" if refused.kind == "code_too_large" else "error"
                run.append([_error(run, "sandbox", status, str(refused))])
                return
            if run.stop_requested:
                await run.handle.kill(run.stop_requested)
            async for batch in run.handle.events():
                run.append(batch)
            status = run.handle.status  # type: ignore[assignment]
        except asyncio.CancelledError:
            status = "killed"
            if run.handle is not None:
                with contextlib.suppress(Exception):
                    await run.handle.kill("killed")
            raise
        except Exception as exc:  # the server keeps serving whatever one run does
            run.append([_error(run, "server", type(exc).__name__, str(exc))])
        finally:
            run.status = status
            duration_ns = time.monotonic_ns() - run.t0
            finished: RunFinished = {
                "type": "run_finished",
                "t": duration_ns,
                "status": status,
                "events": run.log.count + 1,
                "duration_ns": duration_ns,
            }
            run.append([finished])
            duration = duration_ns / 1e6
            run.done.set()
            run.listeners.clear()
            stored = StoredRun(
                run.id, run.code, status, run.options, run.created, duration, run.log.count
            )
            saved = False
            try:
                # chunks are stored as they are: the thread mostly waits on SQLite, GIL released
                await asyncio.to_thread(self.store.save, stored, run.log.chunks)
                saved = True
            finally:
                # Once stored, a finished run is served from the store: holding every recent
                # log in memory would let a client fill the server's memory with run after
                # run. One that could not be stored stays a while for reconnects.
                if saved:
                    self.live.pop(run.id, None)
                else:
                    asyncio.get_running_loop().call_later(60.0, self.live.pop, run.id, None)

    def get(self, run_id: str) -> LiveRun | None:
        return self.live.get(run_id)

    async def shutdown(self) -> None:
        for run in list(self.live.values()):
            await run.stop("killed")
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _error(run: LiveRun, source: ErrorSource, error_type: str, message: str) -> Error:
    """An error event of the server's own (the snippet never ran, or the server failed)."""
    return {
        "type": "error",
        "t": time.monotonic_ns() - run.t0,
        "source": source,
        "error_type": error_type,
        "message": message,
        "line": None,
        "traceback": "",
    }
