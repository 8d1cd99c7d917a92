"""The parent side: start a sandboxed worker per run, stream its events, enforce every cap."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import functools
import logging
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson

from protocol import Error, HaltCommand, RunStatus, Stderr, Stdout
from server.sandbox.batch import Batch
from server.sandbox.budget import Accounting
from server.sandbox.clock import RunClock
from server.sandbox.command import Mode, detect_mode, host_details, worker_job
from server.sandbox.control import Commands
from server.sandbox.frames import FrameError, FrameReader
from server.sandbox.limits import RunLimits, limits_health
from server.sandbox.meter import LimitExceeded, Meter
from server.sandbox.pause import PauseCheck, access_problem
from server.sandbox.prestart import WarmPool, Worker, spawn, wait_exit, worker_key, write_all
from server.sandbox.procs import classify, read_end, read_socket, unreported_error
from server.sandbox.reaper import kill_uid, remove_files_of, wait_reaped
from server.sandbox.settings import SandboxSettings
from server.sandbox.slots import QueueFull, SlotPool, claim_uids

_log = logging.getLogger(__name__)
# How long a worker told to halt (time limit, the user's stop) may take to send what it has
# and say where it is, before it is killed all the same
HALT_GRACE_SECONDS = 1.0
# how long a slot waits for init to reap its last run's killed processes before the next run
REAP_WITHIN_S = 30.0
# Ends after which the worker is asked to halt first (a limit or a broken stream: killed now)
HALTING = frozenset({"timeout", "killed"})


class RunRefused(Exception):
    """The run was not started: `kind` is 'unavailable', 'code_too_large' or 'queue_full'."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Sandbox:
    """Runs pasted code, one fresh worker process per run, at most `max_workers` at once."""

    def __init__(self, settings: SandboxSettings | None = None, mode: Mode | None = None) -> None:
        self.settings = settings or SandboxSettings()
        self.mode = mode or detect_mode(self.settings)
        self._pool = SlotPool(
            self.settings.max_workers, self.settings.max_queue, lambda slot: slot in self._warm
        )
        self._bwrap = shutil.which(self.settings.bwrap_path) or self.settings.bwrap_path
        self._handles: set[RunHandle] = set()
        self.uid_base = claim_uids(self.settings.slot_uid_base, self.settings.max_workers)
        self.accounting = Accounting.detect(self.settings, f"backscope-{self.uid_base}")
        self.pause_problem = PauseCheck(0).problem  # None: pauses are verified from /proc
        self._warm = WarmPool()
        self._top_up()

    def slot_uids(self) -> list[int]:
        """The uids this sandbox runs code as, one per worker slot."""
        return [self.uid_base + slot for slot in range(self.settings.max_workers)]

    def health(self) -> dict[str, Any]:
        """What /healthz reports: the isolation in force (or why code is refused), the limits
        in force and how, and load."""
        bwrap = self.mode.name == "bwrap"
        self.pause_problem = self.pause_problem or access_problem(self._warm.pids(), bwrap)
        return {
            "mode": self.mode.name,
            "reason": self.mode.reason,
            "separate_uid": self.mode.separate_uid,
            "max_workers": self.settings.max_workers,
            "busy": self._pool.busy,
            "queued": self._pool.waiting,
            "limits": {
                **self.accounting.health(),
                **limits_health(self.settings, self.pause_problem),
                "host_details": host_details(self.mode),
            },
        }

    async def run(
        self,
        code: str,
        options: dict[str, Any] | None = None,
        on_queue: Callable[[int], None] | None = None,
        owner: str = "",
    ) -> RunHandle:
        """Queue a run and return its handle at once (raises RunRefused). Slots are shared
        fairly between owners (client addresses): see SlotPool."""
        if self.mode.name == "refuse":
            raise RunRefused("unavailable", f"code execution is disabled: {self.mode.reason}")
        size = len(code.encode("utf-8", "surrogatepass"))
        if size > self.settings.max_code_bytes:
            limit = self.settings.max_code_bytes
            raise RunRefused("code_too_large", f"code is {size} bytes; the limit is {limit}")
        handle = RunHandle(self, code, options or {}, on_queue)
        handle.owner = owner
        try:
            slot = self._pool.reserve(handle._set_position, owner)
        except QueueFull as exc:
            raise RunRefused("queue_full", str(exc)) from None
        self._handles.add(handle)
        handle._reserved = slot
        handle._task = asyncio.create_task(handle._main(slot))
        return handle

    async def close(self) -> None:
        """Kill every run still going and every pre-started worker (server shutdown)."""
        self._warm.closed = True
        for handle in list(self._handles):
            await handle.kill("server shutting down")
        await self._warm.close()
        if self.mode.separate_uid:
            for uid in self.slot_uids():
                await kill_uid(uid, uid)
        self.accounting.close()

    def prestarted_pids(self) -> list[int]:
        """Host pids of the workers waiting for their run (`spare_workers` at most)."""
        return self._warm.pids()

    def _top_up(self) -> None:
        """Start workers on the free slots handed out next until `spare_workers` wait, unless
        code is refused (or shutting down). Called when a slot comes free, not when a run takes
        a worker: the next one's boot would compete with that run for the processor."""
        if self.mode.name == "refuse" or not self.settings.prestart:
            return
        for slot in self._pool.free:
            if len(self._warm) >= self.settings.spare_workers:
                return
            self._warm.fill(slot, functools.partial(self._spawn, slot))

    def _spawn(self, slot: int) -> Worker:
        group = self.accounting.group()  # raises rather than start a run uncounted
        return spawn(self.settings, self.mode, self._bwrap, self.uid_base + slot, group)

    async def _worker(self, slot: int, settings: SandboxSettings) -> Worker:
        """The slot's pre-started worker if it fits `settings`, else a new one."""
        uid = self.uid_base + slot
        key = worker_key(settings, self.mode, self._bwrap, uid)
        worker = await self._warm.take(slot, key)
        return worker or spawn(settings, self.mode, self._bwrap, uid, self.accounting.group())


class RunHandle:
    """One run: its event batches, commands to it, and how it ended."""

    def __init__(
        self,
        sandbox: Sandbox,
        code: str,
        options: dict[str, Any],
        on_queue: Callable[[int], None] | None,
    ) -> None:
        self._sb = sandbox
        self._s = sandbox.settings
        self._code = code
        self._options = options
        self._on_queue = on_queue
        self.status = "queued"
        self.queue_position = 0
        self.summary: dict[str, Any] | None = None
        self._out: asyncio.Queue[Batch | None] = asyncio.Queue()
        self._stop = asyncio.Event()
        self._done = asyncio.Event()
        self._end_reason: tuple[str, str] | None = None
        self._worker_summary: dict[str, Any] | None = None
        self._commands = Commands()
        self._halting = False  # told to halt: its last frames are still read
        self._limits = RunLimits(
            self._s, options, self._end, lambda: sandbox._pool.others_waiting(self.owner)
        )
        self._meter = Meter(self._s)
        self._t0 = time.monotonic_ns()
        self._task: asyncio.Task[None] | None = None
        self._reserved: asyncio.Future[int] | None = None
        self._returncode: int | None = None
        self.owner = ""  # who started it (a client address), for fair slot sharing
        self.worker_pid: int | None = None  # host pid (bubblewrap's), for tests and logs
        self.prestarted = False  # whether the run got a worker started ahead of time

    @property
    def clock(self) -> RunClock | None:
        """The run's wall clock (its running time, its verified pauses) once it has started."""
        return self._limits.clock

    async def events(self) -> AsyncIterator[Batch]:
        """Event batches in order, ending when the run has ended."""
        while True:
            batch = await self._out.get()
            if batch is None:
                self._out.put_nowait(None)  # a second reader also stops
                return
            yield batch

    async def send(self, command: dict[str, Any]) -> None:
        """Pass a stepper command (`{"type": "step"}`, ...) to the worker."""
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise ValueError("a command is a dict with a string 'type'")
        self._limits.command(command["type"])
        # never waits for the worker; ValueError when too many commands are not taken yet
        self._commands.put(orjson.dumps(command) + b"\n")

    async def kill(self, reason: str) -> None:
        """End the run now (client gone, user pressed stop) and wait until it is cleaned up."""
        self._end("killed", reason)
        reserved = self._reserved
        if reserved is not None and not reserved.done():
            # leave the queue: the run's task sees the cancelled reservation (even if it has
            # not started yet), so no slot is taken and the run still ends
            self._sb._pool.cancel(reserved)
        await self._done.wait()

    async def wait(self) -> dict[str, Any]:
        """The final summary, once the run has ended."""
        await self._done.wait()
        assert self.summary is not None
        return self.summary

    def _set_position(self, position: int) -> None:
        self.queue_position = position
        if self._on_queue is not None:
            self._on_queue(position)

    def _end(self, status: str, message: str) -> None:
        """Record why the run ends (the first reason wins) and trigger the teardown."""
        if self._end_reason is None:
            self._end_reason = (status, message)
            # a worker still running is told to halt: its last frames are read until it exits
            self._halting = status in HALTING
        self._stop.set()

    def _emit(self, batch: Batch) -> None:
        self._out.put_nowait(batch)

    def _now(self) -> int:
        return time.monotonic_ns() - self._t0

    async def _main(self, reserved: asyncio.Future[int]) -> None:
        try:
            slot = await asyncio.shield(reserved)
        except (asyncio.CancelledError, QueueFull) as exc:
            if isinstance(exc, QueueFull):  # pushed out of a full queue by another client
                self._end("error", str(exc))
            self._sb._pool.cancel(reserved)
            self._sb._handles.discard(self)
            self._finish(None)
            return
        try:
            if self._end_reason is None:
                await self._execute(slot)
        except Exception as exc:  # never leave a run without an end
            _log.exception("sandbox failure")
            self._end("error", f"sandbox failure: {type(exc).__name__}: {exc}")
        finally:
            uid = self._sb.uid_base + slot
            if self._sb.mode.separate_uid:
                try:
                    await kill_uid(uid, uid)
                    if self._sb.mode.name == "weak":
                        remove_files_of(uid)
                    if not await wait_reaped(uid, REAP_WITHIN_S):
                        _log.warning("slot %d: processes of uid %d not reaped yet", slot, uid)
                except Exception:
                    _log.exception("could not clean up slot %d", slot)
            self._sb._pool.release(slot)
            self._sb._top_up()  # the slot is clean: a worker can start importing there again
            self._sb._handles.discard(self)
            # the run has ended only now: its processes are gone and its slot is free
            self._finish(self._returncode)

    async def _execute(self, slot: int) -> None:
        uid = self._sb.uid_base + slot
        worker = await self._sb._worker(slot, self._s)
        self.worker_pid, self.prestarted = worker.pid, worker.prestarted
        self._limits.start(worker, uid if self._sb.mode.name == "weak" else None)
        self.status = "running"
        self._t0 = time.monotonic_ns()  # the run's clock starts at the hand-over
        try:
            await self._supervise(worker, worker_job(self._s, self._code, self._options), uid)
        finally:
            if not self._commands.opened:  # cancelled before asyncio took the socket
                worker.release_unused()
            if worker.proc.returncode is None:  # never waited for (cancelled): reap it now
                worker.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    worker.proc.wait(timeout=2)
            worker.close()

    async def _supervise(self, worker: Worker, job: bytes, uid: int) -> None:
        reader, transport = await read_socket(worker.sock)
        self._commands.open(worker.sock.dup())
        out, out_transport = await read_end(worker.out)
        err, err_transport = await read_end(worker.err)
        readers = [
            asyncio.create_task(self._read_frames(reader)),
            asyncio.create_task(self._read_pipe(out, "stdout")),
            asyncio.create_task(self._read_pipe(err, "stderr")),
        ]
        exited = asyncio.create_task(wait_exit(worker))
        stopped = asyncio.create_task(self._stop.wait())
        # the job (up to max_code_bytes) may not fit the pipe: written while the clock runs
        handed = asyncio.create_task(self._hand_over(worker, job))
        try:
            await self._limits.watch({exited, stopped})
            await self._halt(exited)
        finally:  # also when cancelled: the worker never outlives its supervisor
            stopped.cancel()
            handed.cancel()
            worker.kill()
        try:
            await exited
            self._sb.pause_problem = self._sb.pause_problem or self._limits.pause_problem()
            over = self._limits.over()  # the kernel killed a process of it over the limit
            if over is not None:
                self._end(*over)
            # the worker is gone: nothing of the run may outlive it (double-forked daemons too;
            # in bubblewrap the pid namespace dies with it, and this sweeps the slot uid too)
            if self._sb.mode.separate_uid:
                await kill_uid(uid, uid)
            await asyncio.wait(readers, timeout=2.0)  # drain what is left, briefly
        finally:
            for task in readers:
                task.cancel()
            self._commands.close()
            transport.close()
            out_transport.close()
            err_transport.close()
        self._returncode = worker.proc.returncode

    async def _halt(self, exited: asyncio.Task[Any]) -> None:
        """The run ends by the server's decision while the worker still runs: tell it to
        halt (it sends its pending events and the line it is on), and give it a moment."""
        reason = self._end_reason
        if exited.done() or reason is None or not self._halting:
            return
        why: RunStatus = "timeout" if reason[0] == "timeout" else "killed"
        halt: HaltCommand = {"type": "halt", "why": why}
        with contextlib.suppress(ValueError):
            self._commands.put(orjson.dumps(halt) + b"\n")
        await asyncio.wait({exited}, timeout=HALT_GRACE_SECONDS)

    async def _hand_over(self, worker: Worker, job: bytes) -> None:
        """Give the worker its job, then end of file."""
        with contextlib.suppress(OSError):  # died at once; its exit status tells why
            await write_all(worker.stdin, job)
        worker.end_job()

    async def _read_frames(self, reader: asyncio.StreamReader) -> None:
        frames = FrameReader(self._s.max_frame_bytes)
        while chunk := await reader.read(1 << 16):
            try:
                self._meter.stream(len(chunk))
                for frame in frames.feed(chunk):
                    self._take_frame(frame)
            except FrameError as exc:
                self._end("error", f"malformed event stream from the worker: {exc}")
                return
            except LimitExceeded as exc:
                self._end("limit", str(exc))
                return
            if self._stop.is_set() and not self._halting:
                return
        if frames.pending:
            self._end("error", "the worker's event stream ended inside a frame")

    def _take_frame(self, frame: Batch | dict[str, Any]) -> None:
        if self._worker_summary is not None:
            raise FrameError("a frame after the final summary")
        if isinstance(frame, dict):
            summary = frame.get("summary")
            if not isinstance(summary, dict):
                raise FrameError("an object frame that is not a summary")
            self._worker_summary = summary
            return
        # (every event was checked against the protocol as the frame was read: Batch.decode)
        paused = self._meter.events_in(frame)
        if paused is not None:
            self._limits.claim(paused)
        self._emit(frame)

    async def _read_pipe(self, stream: asyncio.StreamReader, name: str) -> None:
        """Output that bypassed sys.stdout (os.write(1), C code): always plain text events."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while chunk := await stream.read(1 << 16):
            text = decoder.decode(chunk)
            if not text:
                continue
            try:
                self._meter.count(1)
                self._meter.text(name, text)
            except LimitExceeded as exc:
                self._end("limit", str(exc))
                return
            event: Stdout | Stderr = (
                {"type": "stdout", "t": self._now(), "text": text}
                if name == "stdout"
                else {"type": "stderr", "t": self._now(), "text": text}
            )
            self._emit(Batch.of([dict(event)]))

    def _finish(self, returncode: int | None) -> None:
        status, message = self._end_reason or classify(
            self._worker_summary,
            returncode,
            self._s,
            self._sb.mode.name == "bwrap",
            self._limits.most_cpu,
        )
        # the worker said the code failed but sent no error event (the snippet broke the
        # tracer's own reporting, e.g. builtins.__import__): say what its summary says
        silent = status == "error" and self._end_reason is None and not self._meter.errors
        if silent:
            message = unreported_error(self._worker_summary) or message
        # a run that did not end ok always says why: the worker's own error event, or ours
        # (a limit the worker met itself, e.g. the event cap, ends it with no error event)
        if status != "ok" and (
            self._end_reason is not None or self._worker_summary is None or not self._meter.errors
        ):
            error: Error = {
                "type": "error",
                "t": self._now(),
                "source": "sandbox",
                "error_type": status,
                "message": message,
                "line": self._meter.halted_line,
                "traceback": "",
            }
            self._emit(Batch.of([dict(error)]))
        self.status = status
        self.summary = {
            "status": status,
            "message": message,
            "exit_code": returncode,
            "duration_ms": self._now() / 1e6,
            "events": self._meter.events,
            "output_bytes": self._meter.output_bytes,
            **self._limits.used(),
            "worker": self._worker_summary,
        }
        self._out.put_nowait(None)
        self._done.set()
