"""The run manager of an app replica in cluster mode (`BACKSCOPE_RUNNERS=queue`): a run it
starts is queued for a runner service; a run it follows (started here or through another
replica) is a LiveRun mirrored from the shared store, read again whenever the runner says it
stored more. Sessions, cursors and routers use it as they use RunManager (runs/live.Runs)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from psycopg_pool import AsyncConnectionPool

from protocol import Error, RunFinished
from server.cluster.bus import COMMANDS, EVENTS, Bus, open_pool
from server.cluster.orphans import end_orphans
from server.cluster.queue import Job, JobQueue
from server.cluster.remote import RemoteControl
from server.cluster.schema import ensure_schema
from server.runs import LiveRun, RunLimits, ShuttingDown, new_run_id, this_instance
from server.runs.live import clamp_options
from server.runs.manager import quota_digest
from server.state import MANAGER_MOVES, Machine, ManagerState, RunState
from server.storage import RUNNING, RunStore

_log = logging.getLogger(__name__)
ATTACHED_BATCH = 200  # run ids per "attached" notification (each id is 24 characters)


class ReplicaManager:
    """Queues runs for runner services; follows any run from the shared store."""

    def __init__(
        self,
        store: RunStore,
        url: str,
        limits: RunLimits,
        grace_s: float,
        poll_s: float = 1.0,
        sweep_s: float = 2.0,
    ) -> None:
        self.store = store
        self.url = url
        self.limits = limits
        self.grace_s = grace_s
        self.poll_s = poll_s
        self.sweep_s = sweep_s
        self.live: dict[str, LiveRun] = {}  # runs followed here, until their end is stored
        self.storage_errors = 0
        self.recovered: list[str] = []  # runs of dead runners this replica ended
        self.machine: Machine[ManagerState] = Machine(
            ManagerState.SERVING, MANAGER_MOVES, "manager"
        )
        self.instance = this_instance()
        self._wakes: dict[str, asyncio.Event] = {}
        self._ends: dict[str, str] = {}  # final statuses heard of, by run
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool: AsyncConnectionPool | None = None
        self._queue: JobQueue | None = None
        self._bus: Bus | None = None
        self._seen: dict[str, Any] = {"runners": 0, "queued": 0}

    # -- connecting ------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect to the database, make the cluster's tables, listen."""
        self._pool = await open_pool(self.url)
        async with self._pool.connection() as db:
            await ensure_schema(db)
        self._queue = JobQueue(self._pool)
        self._bus = Bus(self.url, self._pool, (EVENTS,), self._heard, self._reconnected)
        await self._bus.open()

    @property
    def queue(self) -> JobQueue:
        if self._queue is None:
            raise RuntimeError("the replica is not connected (open() first)")
        return self._queue

    @property
    def bus(self) -> Bus:
        if self._bus is None:
            raise RuntimeError("the replica is not connected (open() first)")
        return self._bus

    def health(self) -> dict[str, Any]:
        """What /healthz says of where code runs: runner services, through the queue."""
        return {
            "mode": "queue",
            "reason": "runs are queued in PostgreSQL for `backscope runner` services",
            "separate_uid": None,
            "following": len(self.live),
            **self._seen,
        }

    # -- starting and following ------------------------------------------------------------
    def start(
        self,
        code: str,
        options: dict[str, Any],
        owner: str = "",
        quota_key: str = "",
        *,
        engine: str | None = None,
    ) -> LiveRun:
        """Queue a run; its events arrive as the runner that takes it stores them."""
        if self.machine.state is not ManagerState.SERVING:
            raise ShuttingDown("the server is shutting down; try again in a moment")
        if engine is not None:
            raise ValueError("runs of another engine are not queued for runners")
        options = clamp_options(options, self.limits)
        run = LiveRun(new_run_id(), code, options, owner, quota_key)
        self._adopt(run)
        job = Job(run.id, code, options, owner, quota_digest(quota_key))
        self._spawn(self._enqueue(run, job))
        return run

    def get(self, run_id: str) -> LiveRun | None:
        return self.live.get(run_id)

    async def lookup(self, run_id: str) -> LiveRun | None:
        """The run `run_id` while it is queued or running, started through any replica."""
        run = self.live.get(run_id)
        if run is not None or self.machine.state is not ManagerState.SERVING:
            return run
        job = await self.queue.get(run_id)
        run = self.live.get(run_id)  # (another session may have looked it up meanwhile)
        if run is not None or job is None:
            return run
        run = LiveRun(run_id, job.code, job.options, job.owner, job.quota)
        self._adopt(run)
        self._spawn(self._follow(run))
        return run

    def _adopt(self, run: LiveRun) -> None:
        run.handle = RemoteControl(self.bus, self.queue, run.id)
        # its runner stops it once no replica has said for a while that its owner is here
        run.detach_stops = False
        run.machine.move(RunState.RUNNING)
        self.live[run.id] = run
        self._wakes[run.id] = asyncio.Event()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _enqueue(self, run: LiveRun, job: Job) -> None:
        try:
            await self.queue.enqueue(job)
        except Exception as exc:
            _log.exception("could not queue run %s", run.id)
            self._fail(run, f"could not queue the run: {type(exc).__name__}: {exc}")
            return
        await self._follow(run)

    async def _follow(self, run: LiveRun) -> None:
        """Mirror the run's stored log until its end is stored."""
        wake = self._wakes[run.id]
        check = True  # read the row too (its status): at first, then at every poll
        stored_end = False
        try:
            while True:
                wake.clear()
                run.extend(await asyncio.to_thread(self.store.chunks, run.id, run.log.count - 1))
                status = self._ends.get(run.id)
                if status is not None or check:
                    row = await asyncio.to_thread(self.store.get, run.id)
                    if row is not None and row.status != RUNNING:
                        if row.n_events <= run.log.count:
                            run.ended_elsewhere(row.status)
                            stored_end = True
                            return
                        continue  # its last events came with its end: read them
                    if row is None and await self.queue.get(run.id) is None:
                        # read again: a runner may have stored the whole run and dropped its
                        # job between the two reads (the job goes only once the end is stored)
                        if await asyncio.to_thread(self.store.get, run.id) is not None:
                            continue
                        self._fail(run, "the run is neither queued nor stored")
                        return
                check = False
                try:
                    async with asyncio.timeout(self.poll_s):
                        await wake.wait()
                except TimeoutError:
                    check = True
        except Exception as exc:
            self.storage_errors += 1
            _log.exception("following run %s failed", run.id)
            self._fail(run, f"following the run failed: {type(exc).__name__}: {exc}")
        finally:
            self._wakes.pop(run.id, None)
            self._ends.pop(run.id, None)
            if stored_end:  # read from the store from now on
                run.archive()
                self.live.pop(run.id, None)
                if run.shared:
                    with contextlib.suppress(Exception):
                        await asyncio.to_thread(self.store.mark_shared, run.id)

    def _fail(self, run: LiveRun, message: str) -> None:
        """End a run this replica could not follow (its log here only: the page says why)."""
        if run.done.is_set():
            return
        now = time.monotonic_ns() - run.t0
        error: Error = {
            "type": "error",
            "t": now,
            "source": "server",
            "error_type": "cluster",
            "message": message,
            "line": None,
            "traceback": "",
        }
        run.append([error])
        finished: RunFinished = {
            "type": "run_finished",
            "t": now,
            "status": "error",
            "events": run.log.count + 1,
            "duration_ns": now,
        }
        run.finish("error", finished)
        asyncio.get_running_loop().call_later(60.0, self.live.pop, run.id, None)

    def _heard(self, channel: str, payload: str) -> None:
        if channel != EVENTS:
            return
        run_id, _, rest = payload.partition(" ")
        wake = self._wakes.get(run_id)
        if wake is None:
            return
        status = rest.partition(" ")[2]
        if status and status != RUNNING:
            self._ends[run_id] = status
        wake.set()

    def _reconnected(self) -> None:
        """Notifications may have been missed while the connection was down: read again."""
        for wake in self._wakes.values():
            wake.set()

    # -- the background: dead runners, owners' presence ------------------------------------
    async def recover(self, stale_s: float) -> list[str]:
        """End `interrupted` the runs of runners that are gone."""
        if self._pool is None:
            await self.open()
        ended = await end_orphans(self.queue, self.store, self.bus, stale_s)
        self.recovered.extend(ended)
        beats = await self.queue.runners()
        self._seen = {"runners": len(beats), "queued": await self.queue.waiting()}
        return ended

    def start_background(self, stale_s: float) -> None:
        async def sweep() -> None:
            while self.machine.state is ManagerState.SERVING:
                await asyncio.sleep(self.sweep_s)
                try:
                    await self.recover(stale_s)
                except Exception:
                    _log.exception("cluster sweep failed")

        async def attach() -> None:
            """Tell the runners which runs have their owner's session here (a runner stops
            a run nobody has said so of for the grace period)."""
            while self.machine.state is ManagerState.SERVING:
                ids = [r.id for r in self.live.values() if r.controllers and not r.done.is_set()]
                for i in range(0, len(ids), ATTACHED_BATCH):
                    payload = orjson.dumps({"attached": ids[i : i + ATTACHED_BATCH]}).decode()
                    try:
                        await self.bus.notify(COMMANDS, payload)
                    except Exception:
                        _log.exception("could not tell the runners of attached runs")
                await asyncio.sleep(max(self.grace_s / 4, 0.05))

        self._spawn(sweep())
        self._spawn(attach())

    async def shutdown(self, grace_s: float = 10.0) -> None:
        """Stop following (the runs go on in their runners: their owners resume elsewhere)."""
        if self.machine.state is ManagerState.SERVING:
            self.machine.move(ManagerState.DRAINING)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._bus is not None:
            await self._bus.close()
        if self._pool is not None:
            await self._pool.close()
        if self.machine.state is ManagerState.DRAINING:
            self.machine.move(ManagerState.STOPPED)
