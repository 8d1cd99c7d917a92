"""A live run: its complete, ordered event log in memory (dense `seq`), its state, how much of
it is stored; and what the manager needs from the sandbox (Handle, Runner)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from protocol import RunFinished
from server.eventlog import Chunk, EventLog, stamp
from server.sandbox.batch import Batch
from server.settings import Settings
from server.state import RUN_MOVES, IllegalTransition, Machine, ManagerState, RunState
from server.storage import Retention


class Control(Protocol):
    """How a run's owner commands it: the sandbox's handle here, or a runner elsewhere."""

    async def send(self, command: dict[str, Any]) -> None: ...
    async def kill(self, reason: str) -> None: ...


class Handle(Control, Protocol):
    """What the manager needs from a sandboxed worker (server/sandbox implements it)."""

    status: str

    def events(self) -> AsyncIterator[Batch]: ...


class Runner(Protocol):
    async def run(
        self,
        code: str,
        options: dict[str, Any],
        on_queue: Callable[[int], None] | None = None,
        owner: str = "",
    ) -> Handle: ...

    def health(self) -> dict[str, Any]: ...


class Runs(Protocol):
    """What sessions and routers use of a run manager: RunManager runs code in this process;
    server/cluster's ReplicaManager queues it for a runner service and follows it from the
    shared store."""

    live: dict[str, LiveRun]
    storage_errors: int
    recovered: list[str]
    machine: Machine[ManagerState]

    def start(
        self,
        code: str,
        options: dict[str, Any],
        owner: str = "",
        quota_key: str = "",
        *,
        engine: str | None = None,
    ) -> LiveRun: ...
    def get(self, run_id: str) -> LiveRun | None: ...
    async def lookup(self, run_id: str) -> LiveRun | None: ...
    async def recover(self, stale_s: float) -> list[str]: ...
    def start_background(self, stale_s: float) -> None: ...
    async def shutdown(self, grace_s: float = 10.0) -> None: ...


class ShuttingDown(RuntimeError):
    """The server is stopping: it starts no new run."""


@dataclass(frozen=True)
class RunLimits:
    """What the server holds a run to, whatever the client's options say."""

    max_run_bytes: int  # of the run's event log; the run is ended `limit` past it
    max_inline_limit: int  # the largest `inline_limit` option a client may ask for
    flush_s: float  # the log is stored at least this often while the run goes on
    retention: Retention


# The owner of a run that anyone allowed to connect may control: a local process's own run,
# shown in the page it opens (backscope run --torch); never a client's
ANY_OWNER = "anyone"  # (never a digest, which is hex; nor storage's "*" total)
# Statuses the server gives a run itself (they win over what the worker's end says)
SERVER_STATUSES = ("interrupted", "limit")


class LiveRun:
    """One run's complete, ordered event log, its state, and how much of it is stored."""

    def __init__(
        self,
        run_id: str,
        code: str,
        options: dict[str, Any],
        owner: str = "",
        quota_key: str = "",
    ) -> None:
        self.id = run_id
        self.code = code
        self.options = options
        self.owner = owner  # the owner key's digest: who may command the run
        self.quota_key = quota_key or owner  # whose limits it counts against
        self.created = time.time()
        self.t0 = time.monotonic_ns()
        self.log = EventLog()
        self.machine: Machine[RunState] = Machine(RunState.STARTING, RUN_MOVES, "run")
        self.status: str | None = None
        self.done = asyncio.Event()
        self.handle: Control | None = None
        self.stop_requested: str | None = None
        self.stored_chunks = 0  # how many of the log's chunks are in storage
        self.begun = False  # whether storage has its row
        self.store_lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self.on_over: Callable[[LiveRun], None] | None = None
        self.max_bytes: int | None = None
        self.controllers: set[object] = set()  # its owner's sessions attached to it
        self.shared = False  # someone else followed it
        # whether its owner's last session leaving stops it (after a grace period): a run
        # that a runner service holds is stopped by the runner instead, which hears from
        # every replica's sessions (server/cluster)
        self.detach_stops = True

    @property
    def state(self) -> RunState:
        return self.machine.state

    def owned_by(self, owner: str) -> bool:
        """Whether a client with this owner key may command the run."""
        return self.owner == owner or self.owner == ANY_OWNER

    def changed(self) -> asyncio.Event:
        """An event set at the next append (or the end): wait on it, then read again."""
        return self._changed

    def _pulse(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def append(self, batch: Batch | list[Any]) -> None:
        """Number events (run id, dense seq, t when missing) and keep them as one chunk.
        Whatever the worker put in run_id/seq is overridden."""
        if self.state in (RunState.FINISHED, RunState.ARCHIVED):
            raise IllegalTransition(f"run {self.id} has finished: nothing more is logged")
        if not isinstance(batch, Batch):
            batch = Batch.of(batch)
        if not len(batch):
            return
        chunk = stamp(batch, self.id, self.log.count, time.monotonic_ns() - self.t0)
        self.log.add(chunk)
        if self.max_bytes is not None and self.log.bytes > self.max_bytes and self.on_over:
            over, self.on_over = self.on_over, None
            over(self)
        self._pulse()

    def extend(self, chunks: list[Chunk]) -> None:
        """Add chunks already numbered for this run (read from the store another process
        writes the run's log to: server/cluster's replicas)."""
        for chunk in chunks:
            if chunk.last >= self.log.count:
                self.log.add(chunk.after(self.log.count - 1))
        if chunks:
            self._pulse()

    def ended_elsewhere(self, status: str) -> None:
        """The process that ran it stored its end (run_finished is in the log already)."""
        self.status = status
        self.machine.move(RunState.FINISHED)
        self.done.set()
        self._pulse()

    def finish(self, status: str, event: RunFinished) -> None:
        self.append([event])
        self.status = status
        self.machine.move(RunState.FINISHED)
        self.done.set()
        self._pulse()

    def archive(self) -> None:
        """The whole log is stored: forget it here (readers go to storage from now on)."""
        self.machine.move(RunState.ARCHIVED)
        self.log.release()
        self._pulse()

    async def command(self, command: dict[str, Any]) -> None:
        if self.handle is not None and self.state is RunState.RUNNING:
            await self.handle.send(command)

    async def stop(self, reason: str = "killed") -> None:
        """End the run: `killed` (its owner), or the server's `limit` / `interrupted`."""
        if self.state in (RunState.FINISHED, RunState.ARCHIVED):
            return
        if self.stop_requested is None or reason in SERVER_STATUSES:
            self.stop_requested = reason
        if self.state is not RunState.STOPPING:
            self.machine.move(RunState.STOPPING)
        if self.handle is not None:
            await self.handle.kill(reason)


def run_limits(settings: Settings) -> RunLimits:
    """What the server's settings hold runs to."""
    retention = Retention(
        max_store_bytes=settings.max_store_bytes,
        max_owner_bytes=settings.max_owner_bytes,
        max_age_s=settings.retention_days * 86400.0,
    )
    return RunLimits(
        max_run_bytes=settings.max_run_bytes,
        max_inline_limit=settings.max_inline_limit,
        flush_s=settings.store_flush_s,
        retention=retention,
    )


def clamp_options(options: dict[str, Any], limits: RunLimits) -> dict[str, Any]:
    """The client's options within the server's limits (the client cannot raise them)."""
    out = {k: v for k, v in options.items() if v is not None}
    if "inline_limit" in out:
        out["inline_limit"] = min(int(out["inline_limit"]), limits.max_inline_limit)
    return out


def new_run_id() -> str:
    """A run id: 96 random bits in hex (it is the share link: it must not be guessable)."""
    return secrets.token_hex(12)
