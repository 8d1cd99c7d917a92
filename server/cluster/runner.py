"""`backscope runner`: the sandbox workers as their own service. It claims queued runs from
the shared queue (as many as it has slots), runs each in the local sandbox as the app does
(the same RunManager, limits and events), stores each run's log as soon as it grows and says
so on the bus, obeys its runs' owners' commands, stops a run whose owner no replica has seen
for the grace period, ends its runs `interrupted` on SIGTERM, and ends the runs of runners
that died."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from psycopg_pool import AsyncConnectionPool

from server.cluster.bus import COMMANDS, EVENTS, Bus, open_pool
from server.cluster.orphans import end_orphans
from server.cluster.queue import JOBS_CHANNEL, Job, JobQueue
from server.cluster.schema import ensure_schema
from server.runs import LiveRun, RunManager, Runner, run_limits, this_instance
from server.settings import Settings
from server.storage import RUNNING, RunStore, open_store

_log = logging.getLogger(__name__)


class RunnerService:
    """One runner: `slots` runs at once, from the queue in `url`, stored in `store`."""

    def __init__(
        self, settings: Settings, url: str, store: RunStore, runner: Runner, slots: int
    ) -> None:
        from protocol import PROTOCOL_VERSION

        self.settings = settings
        self.url = url
        self.store = store
        self.runner = runner
        self.slots = slots
        self.id = this_instance()
        self.manager = RunManager(
            runner,
            store,
            PROTOCOL_VERSION,
            run_limits(settings),
            prompt_s=settings.cluster_flush_s,
            on_stored=self._stored,
        )
        self.active: set[str] = set()
        self.attached: dict[str, float] = {}  # run id -> when a replica last had its owner
        self.claimed = 0  # jobs taken, for logs and tests
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool: AsyncConnectionPool | None = None
        self._queue: JobQueue | None = None
        self._bus: Bus | None = None

    async def serve(self, stop: asyncio.Event) -> None:
        """Claim and run jobs until `stop` is set; then end the runs in hand `interrupted`."""
        self._pool = await open_pool(self.url, max_size=self.slots + 3)
        async with self._pool.connection() as db:
            await ensure_schema(db)
        self._queue = queue = JobQueue(self._pool)
        await queue.heartbeat(self.id, self.slots)
        self._bus = Bus(self.url, self._pool, (JOBS_CHANNEL, COMMANDS), self._heard, self._wake.set)
        await self._bus.open()
        _log.info("runner %s: %d slots", self.id, self.slots)
        background = [
            asyncio.create_task(self._heartbeat(queue, self._bus)),
            asyncio.create_task(self._watchdog()),
        ]
        stopping = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set():
                free = self.slots - len(self.active)
                for job in await queue.claim(self.id, free):
                    self._start(job)
                self._wake.clear()
                woken = asyncio.create_task(self._wake.wait())
                await asyncio.wait(
                    {woken, stopping},
                    timeout=self.settings.cluster_poll_s,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                woken.cancel()
        finally:
            stopping.cancel()
            # SIGTERM: claim nothing more; runs in hand end `interrupted`, stored and told
            await self.manager.shutdown(self.settings.shutdown_grace_s)
            for task in background:
                task.cancel()
            for task in [*background, *self._tasks]:
                with contextlib.suppress(BaseException):
                    await task
            with contextlib.suppress(Exception):
                await queue.forget_runner(self.id)
            _log.info("runner %s stopped: claimed %d runs", self.id, self.claimed)
            await self._bus.close()
            await self._pool.close()
            close = getattr(self.runner, "close", None)
            if close is not None:
                await close()

    def _start(self, job: Job) -> None:
        run = self.manager.start(job.code, job.options, job.owner, job.quota, run_id=job.run_id)
        self.claimed += 1
        self.active.add(run.id)
        self.attached[run.id] = time.monotonic()
        if job.stop is not None:  # its owner stopped it while it was queued
            self._spawn(run.stop("killed"))
        self._spawn(self._release(run))

    async def _release(self, run: LiveRun) -> None:
        """The run's slot is free once it has ended (its end is stored after)."""
        await run.done.wait()
        self.active.discard(run.id)
        self.attached.pop(run.id, None)
        self._wake.set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _stored(self, run: LiveRun, last: int, final: bool) -> None:
        """After each store write: the job is done at the end; followers are told."""
        if self._bus is None or self._queue is None:
            return
        if final:
            await self._queue.done(run.id)
        status = (run.status or "error") if final else RUNNING
        await self._bus.notify(EVENTS, f"{run.id} {last} {status}")

    def _heard(self, channel: str, payload: str) -> None:
        if channel == JOBS_CHANNEL:
            self._wake.set()
            return
        if channel != COMMANDS:
            return
        message = orjson.loads(payload)
        if "attached" in message:
            now = time.monotonic()
            for run_id in message["attached"]:
                if run_id in self.attached:
                    self.attached[run_id] = now
            return
        run = self.manager.get(str(message.get("run_id")))
        command = message.get("command")
        if run is None or run.done.is_set() or not isinstance(command, dict):
            return
        if command.get("type") == "stop":
            self._spawn(run.stop("killed"))
        else:
            self._spawn(self._command(run, command))

    async def _command(self, run: LiveRun, command: dict[str, Any]) -> None:
        try:
            await run.command(command)
        except ValueError as exc:  # too many commands pending: as the local server refuses
            _log.info("run %s refused a command: %s", run.id, exc)

    async def _heartbeat(self, queue: JobQueue, bus: Bus) -> None:
        """Say this runner lives; end the runs of runners that do not."""
        stale_s = self.settings.stale_run_s
        while True:
            try:
                await queue.heartbeat(self.id, self.slots)
                await end_orphans(queue, self.store, bus, stale_s, me=self.id)
            except Exception:
                _log.exception("runner heartbeat failed")
            await asyncio.sleep(min(self.settings.cluster_sweep_s, stale_s / 4))

    async def _watchdog(self) -> None:
        """Stop a run whose owner no replica has had a session for (as a server stops a run
        its owner left: session.py), after the same grace period."""
        grace_s = self.settings.disconnect_grace_s
        while True:
            await asyncio.sleep(min(1.0, grace_s / 4))
            now = time.monotonic()
            for run_id, seen in list(self.attached.items()):
                run = self.manager.get(run_id)
                if run is not None and not run.done.is_set() and now - seen > grace_s:
                    self.attached[run_id] = float("inf")  # (once)
                    self._spawn(run.stop("killed"))


async def serve_runner(settings: Settings, slots: int | None, stop: asyncio.Event) -> None:
    """`backscope runner`: serve until `stop` is set (SIGTERM)."""
    from server.sandbox import Sandbox

    url = settings.database_url
    if url is None or not url.startswith(("postgresql://", "postgres://")):
        raise SystemExit("backscope runner needs BACKSCOPE_DATABASE_URL=postgresql://...")
    if slots is not None:
        settings.sandbox.max_workers = slots
    store, _ = open_store(settings.database(), settings.check_db_on_start)
    try:
        sandbox = Sandbox(settings.sandbox)
        service = RunnerService(settings, url, store, sandbox, settings.sandbox.max_workers)
        await service.serve(stop)
    finally:
        store.close()
