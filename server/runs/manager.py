"""The run manager: starts runs in the sandbox, pumps their events, stores them while they run,
ends them (by the user, a server limit, or a shutdown) and recovers runs a crashed server left
unfinished. The manager owns the sandbox handles; sessions read a run's log through cursors
(feeds.py) and forward commands."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import Error, ErrorSource, Queued, RunFinished, RunStarted, RunStatus
from server.runs.instances import instance_gone, this_instance
from server.runs.live import (
    SERVER_STATUSES,
    LiveRun,
    RunLimits,
    Runner,
    ShuttingDown,
    clamp_options,
    new_run_id,
)
from server.state import MANAGER_MOVES, Machine, ManagerState, RunState
from server.storage import RUNNING, Retention, RunStore, StoredRun

_log = logging.getLogger(__name__)
# told after each store write of a run: (run, last seq stored, whether it was the run's end)
OnStored = Callable[[LiveRun, int, bool], Awaitable[None]]


class RunManager:
    """Starts runs in the sandbox, pumps their events, stores them while they run."""

    def __init__(
        self,
        runner: Runner,
        store: RunStore,
        protocol_version: int,
        limits: RunLimits | None = None,
        *,
        prompt_s: float | None = None,
        on_stored: OnStored | None = None,
    ) -> None:
        """`prompt_s`: store a run's log as soon as it grows (at most every `prompt_s`)
        instead of every `limits.flush_s` (a runner service: replicas follow from the
        store); `on_stored` is told after each write."""
        self.runner = runner
        self.store = store
        self.protocol_version = protocol_version
        self.limits = limits or RunLimits(
            max_run_bytes=1 << 62,
            max_inline_limit=1 << 20,
            flush_s=2.0,
            retention=Retention(1 << 62, 0),
        )
        self.prompt_s = prompt_s
        self.on_stored = on_stored
        self.live: dict[str, LiveRun] = {}
        self.machine: Machine[ManagerState] = Machine(
            ManagerState.SERVING, MANAGER_MOVES, "manager"
        )
        self.instance = this_instance()
        self.storage_errors = 0
        self.recovered: list[str] = []  # runs found unfinished and marked interrupted
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # -- starting -------------------------------------------------------------------------
    def effective_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The client's options within the server's limits (the client cannot raise them)."""
        return clamp_options(options, self.limits)

    def start(
        self,
        code: str,
        options: dict[str, Any],
        owner: str = "",
        quota_key: str = "",
        *,
        engine: str | None = None,
        run_id: str | None = None,
    ) -> LiveRun:
        """Start a run owned by `owner` (ANY_OWNER: whoever may connect controls it), counted
        against `quota_key`; `engine` names what runs it when it is not backscope's engine
        (a runner fed by real PyTorch in the user's process: the page shows it as a badge);
        `run_id` when the run was named before (a queued job a runner service took)."""
        if self.machine.state is not ManagerState.SERVING:
            raise ShuttingDown("the server is shutting down; try again in a moment")
        options = self.effective_options(options)
        run = LiveRun(run_id or new_run_id(), code, options, owner, quota_key)
        run.max_bytes = self.limits.max_run_bytes
        run.on_over = self._over_limit
        self.live[run.id] = run
        started: RunStarted = {
            "type": "run_started",
            "t": 0,
            "version": self.protocol_version,
            "code": code,
            "options": options,  # type: ignore[typeddict-item]
        }
        if engine is not None:
            started["engine"] = engine
        run.append([started])
        self._spawn(self._pump(run))
        self._spawn(self._flusher(run))
        return run

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _over_limit(self, run: LiveRun) -> None:
        size = self.limits.max_run_bytes
        run.append([_error(run, "server", "limit", f"the run's event log passed {size} bytes")])
        self._spawn(run.stop("limit"))

    # -- running --------------------------------------------------------------------------
    async def _pump(self, run: LiveRun) -> None:
        from server.sandbox import RunRefused

        status: RunStatus = "error"
        refused = False

        def queued(position: int) -> None:
            event: Queued = {
                "type": "queued",
                "t": time.monotonic_ns() - run.t0,
                "position": position,
            }
            run.append([event])

        try:
            try:
                run.handle = await self.runner.run(run.code, run.options, queued, run.quota_key)
            except RunRefused as exc:
                refused = True
                status = "limit" if exc.kind == "code_too_large" else "error"
                run.append([_error(run, "sandbox", status, str(exc))])
                return
            if run.state is RunState.STARTING:
                run.machine.move(RunState.RUNNING)
            if run.stop_requested:
                await run.handle.kill(run.stop_requested)
            async for batch in run.handle.events():
                run.append(batch)
            status = run.handle.status  # type: ignore[assignment]
        except asyncio.CancelledError:
            status = "interrupted" if self.machine.state is not ManagerState.SERVING else "killed"
            if run.handle is not None:
                with contextlib.suppress(Exception):
                    await run.handle.kill(status)
            raise
        except Exception as exc:  # the server keeps serving whatever one run does
            run.append([_error(run, "server", type(exc).__name__, str(exc))])
        finally:
            if run.stop_requested in SERVER_STATUSES:
                status = run.stop_requested  # type: ignore[assignment]
            await self._end(run, status, refused)

    async def _end(self, run: LiveRun, status: RunStatus, refused: bool) -> None:
        duration_ns = time.monotonic_ns() - run.t0
        finished: RunFinished = {
            "type": "run_finished",
            "t": duration_ns,
            "status": status,
            "events": run.log.count + 1,
            "duration_ns": duration_ns,
        }
        run.finish(status, finished)
        if refused:
            # a refused run (code too large, queue full) is not stored at all: storing it
            # cost disk without a slot used; its followers already have its events
            self.live.pop(run.id, None)
            return
        if await self._persist(run, final=True):
            run.archive()
            # served from storage from now on: holding every recent log in memory would let
            # a client fill the server's memory with run after run
            self.live.pop(run.id, None)
        else:  # one that could not be stored stays a while for reconnects
            asyncio.get_running_loop().call_later(60.0, self.live.pop, run.id, None)

    async def _flusher(self, run: LiveRun) -> None:
        """Store the log every `flush_s` while the run goes on: a crash loses at most that.
        With `prompt_s`, as soon as it grows (at most that often)."""
        if self.prompt_s is not None:
            await self._prompt_flusher(run, self.prompt_s)
            return
        while not run.done.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.limits.flush_s):  # (not wait_for: feeds.py)
                    await run.done.wait()
            if not run.done.is_set():
                await self._persist(run, final=False)

    async def _prompt_flusher(self, run: LiveRun, every_s: float) -> None:
        while not run.done.is_set():
            changed = run.changed()
            if len(run.log.chunks) <= run.stored_chunks:
                await changed.wait()
                continue
            await self._persist(run, final=False)
            await asyncio.sleep(every_s)

    def _row(self, run: LiveRun, status: str) -> StoredRun:
        return StoredRun(
            run.id,
            run.code,
            status,
            run.options,
            run.created,
            (time.monotonic_ns() - run.t0) / 1e6,
            run.log.count,
            owner=run.owner,
            shared=run.shared,
            instance=self.instance,
            quota=quota_digest(run.quota_key),
        )

    async def _persist(self, run: LiveRun, final: bool) -> bool:
        """Store what the log gained since the last time (and, `final`, the run's end)."""
        async with run.store_lock:
            chunks = run.log.chunks[run.stored_chunks :]
            if not chunks and not final and run.begun:
                return True
            last = chunks[-1].last if chunks else run.log.count - 1
            try:
                if not run.begun:
                    await asyncio.to_thread(self.store.begin, self._row(run, RUNNING))
                    run.begun = True
                if final:
                    row = self._row(run, run.status or "error")
                    await asyncio.to_thread(self.store.finish, row, chunks)
                else:
                    await asyncio.to_thread(self.store.append, run.id, chunks)
                run.stored_chunks += len(chunks)
                if final or self.prompt_s is None:  # (prompt writes: evict at the end)
                    gone = await asyncio.to_thread(
                        self.store.evict, self.limits.retention, quota_digest(run.quota_key), 0
                    )
                    if gone:
                        _log.info("storage over its caps: evicted %d runs", len(gone))
            except Exception:
                self.storage_errors += 1
                _log.exception("could not store run %s", run.id)
                return False
            if self.on_stored is not None:
                try:
                    await self.on_stored(run, last, final)
                except Exception:
                    _log.exception("could not tell that run %s was stored", run.id)
        return True

    # -- recovery and shutdown ------------------------------------------------------------
    async def recover(self, stale_s: float) -> list[str]:
        """Mark `interrupted` every stored run left `running` by a server that is gone."""
        found = await asyncio.to_thread(self.store.unfinished)
        done: list[str] = []
        for run_id, instance, heartbeat in found:
            if run_id in self.live or not instance_gone(instance, heartbeat, stale_s):
                continue
            if await asyncio.to_thread(self.store.interrupt, run_id, "interrupted"):
                done.append(run_id)
        if done:
            _log.warning("marked %d unfinished runs interrupted: %s", len(done), done[:20])
            self.recovered.extend(done)
        return done

    def start_background(self, stale_s: float) -> None:
        """Recover now, and keep sweeping for runs of servers that stopped since."""

        async def sweep() -> None:
            while self.machine.state is ManagerState.SERVING:
                try:
                    await self.recover(stale_s)
                except RuntimeError:  # the loop's executor is shut down: the server stops
                    return
                except Exception:
                    _log.exception("recovery sweep failed")
                await asyncio.sleep(max(stale_s / 2, 1.0))

        self._sweeper = asyncio.create_task(sweep())

    def get(self, run_id: str) -> LiveRun | None:
        return self.live.get(run_id)

    async def lookup(self, run_id: str) -> LiveRun | None:
        """The live run `run_id` (a session resuming it): here, one this process runs."""
        return self.live.get(run_id)

    async def shutdown(self, grace_s: float = 10.0) -> None:
        """Start no run; end every live run `interrupted` and store it; then stop."""
        if self.machine.state is ManagerState.SERVING:
            self.machine.move(ManagerState.DRAINING)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        runs = list(self.live.values())
        await asyncio.gather(*(r.stop("interrupted") for r in runs), return_exceptions=True)
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace_s)
            for task in late:
                task.cancel()
            for task in late:
                with contextlib.suppress(BaseException):
                    await task
        if self.machine.state is ManagerState.DRAINING:
            self.machine.move(ManagerState.STOPPED)


def quota_digest(key: str) -> str:
    """What storage keeps of a quota key (an address or a user name is not written down)."""
    return hashlib.sha256(b"quota:" + key.encode()).hexdigest()[:32]


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
