"""Workers started ahead of their run: sandboxed, limited and with numpy and the engine imported,
each blocked reading its job on stdin, so that a click does not wait for the imports.

A pre-started worker is still a fresh process per run: it is spawned only after its slot's
previous run has been reaped, and it keeps the uid it started with (bubblewrap's root with
only setuid/setgid; in weak mode the server's) until its job arrives, so no process of a slot
uid exists between runs. Its CPU limit, seccomp filter and the parent's wall clock start when
the job is handed over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from server.sandbox.cgroup import RunGroup
from server.sandbox.command import (
    ENV,
    Mode,
    bwrap_argv,
    host_layout,
    sandbox_layout,
    worker_argv,
    worker_boot,
)
from server.sandbox.pause import channel_inode
from server.sandbox.procs import alive, descendants, gone, kill_tree
from server.sandbox.settings import SandboxSettings

_log = logging.getLogger(__name__)


@dataclass
class Worker:
    """A spawned worker process and the parent's ends of its channels."""

    proc: subprocess.Popen[bytes]
    sock: socket.socket  # events out, stepper commands in
    stdin: int  # the job goes here, then end of file
    out: int  # fd 1 and 2 of the worker (text that bypassed sys.stdout)
    err: int
    key: str  # what it was started for: a worker for other settings is not used
    rundir: str | None = None  # weak mode's working directory
    group: RunGroup | None = None  # the kernel's accounting of the run (all its processes)
    channel_inode: int = 0  # the worker's end of `sock`, as its /proc fd table names it
    prestarted: bool = False
    _closed: bool = field(default=False, repr=False)

    @property
    def pid(self) -> int:
        """The host pid of bubblewrap (or, in weak mode, of the worker itself)."""
        return self.proc.pid

    def kill(self) -> list[int]:
        """SIGKILL the worker and everything below it, if it is still running (not reaped
        here: the exit status is `wait_exit`'s); the pids that were below it."""
        if self.proc.returncode is not None:
            return []
        below = descendants(self.proc.pid)
        kill_tree(self.proc.pid)
        if self.group is not None:
            self.group.kill()
        return below

    def end_job(self) -> None:
        """Close the job pipe: the worker reads end of file after its job (idempotent)."""
        if not self._closed:
            self._closed = True
            with contextlib.suppress(OSError):
                os.close(self.stdin)

    def close(self) -> None:
        """Let go of the job pipe, the run directory and the cgroup (killing what is left in
        it); the socket and the output pipes are closed by whoever took them over."""
        self.end_job()
        if self.rundir is not None:
            shutil.rmtree(self.rundir, ignore_errors=True)
        if self.group is not None:
            self.group.remove()

    def release_unused(self) -> None:
        """Close the ends a supervisor would have taken over (a worker that never ran)."""
        self.sock.close()
        for fd in (self.out, self.err):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.close()


def worker_key(settings: SandboxSettings, mode: Mode, bwrap: str, uid: int) -> str:
    """Everything a worker's start-up depends on: limits, isolation, uid."""
    return f"{mode.name}|{mode.separate_uid}|{bwrap}|{uid}|{settings.model_dump_json()}"


def spawn(
    settings: SandboxSettings, mode: Mode, bwrap: str, uid: int, group: RunGroup | None = None
) -> Worker:
    """Start a worker for `uid`'s slot, inside `group` if given; it imports, then waits for its
    job (sync: fork+exec)."""
    mine, theirs = socket.socketpair()
    inode = channel_inode(theirs.fileno())
    boot = worker_boot(settings, theirs.fileno(), uid if mode.separate_uid else None)
    rundir: str | None = None
    if mode.name == "bwrap":
        argv = bwrap_argv(settings, bwrap, mode.separate_uid) + worker_argv(sandbox_layout())
    else:
        argv = worker_argv(host_layout())
        rundir = tempfile.mkdtemp(prefix="backscope-run-")
        os.chown(rundir, uid, uid)
    if group is not None:
        argv = group.joining(argv)
    in_r, in_w = os.pipe()
    # fd 1 and 2 are plain pipes: a daemonised grandchild holding a copy must not delay the end
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=in_r,
            stdout=out_w,
            stderr=err_w,
            pass_fds=(theirs.fileno(),),
            start_new_session=True,
            env=dict(ENV),
            cwd=rundir,
        )
    except BaseException:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        mine.close()
        if rundir is not None:
            shutil.rmtree(rundir, ignore_errors=True)
        if group is not None:
            group.remove()
        raise
    finally:
        theirs.close()
        for fd in (in_r, out_w, err_w):
            os.close(fd)
    os.write(in_w, boot)  # one short line: the pipe buffer takes it without blocking
    key = worker_key(settings, mode, bwrap, uid)
    return Worker(proc, mine, in_w, out_r, err_r, key, rundir, group, inode)


async def write_all(fd: int, data: bytes) -> None:
    """Write `data` to a pipe without blocking the event loop (raises OSError if it closed)."""
    os.set_blocking(fd, False)
    loop = asyncio.get_running_loop()
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            ready: asyncio.Future[None] = loop.create_future()
            loop.add_writer(fd, _wake, ready)
            try:
                await ready
            finally:
                loop.remove_writer(fd)


async def wait_exit(worker: Worker) -> int:
    """The exit status, without a child watcher: a pidfd becomes readable when the process
    ends (the worker was started by Popen, so it works in any event loop, uvloop too)."""
    proc = worker.proc
    if proc.returncode is not None:
        return proc.returncode
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # no pidfd on this kernel: poll
        while proc.poll() is None:
            await asyncio.sleep(0.01)
        return proc.wait()
    loop = asyncio.get_running_loop()
    ended: asyncio.Future[None] = loop.create_future()
    loop.add_reader(pidfd, _wake, ended)
    try:
        await ended
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)
    return proc.wait()


def _wake(future: asyncio.Future[None]) -> None:
    # a level-triggered fd can fire again before the awaiting task has run
    if not future.done():
        future.set_result(None)


async def discard(worker: Worker) -> None:
    """Kill a worker that will not run and wait until it is gone."""
    below = worker.kill()
    await wait_exit(worker)
    await gone(below)
    worker.release_unused()


class WarmPool:
    """At most one pre-started worker per slot, made while the slot is free."""

    def __init__(self) -> None:
        self._ready: dict[int, Worker] = {}
        self.closed = False
        # a sandbox dropped without close() (or still open at exit) takes its workers along
        weakref.finalize(self, _kill_now, self._ready)

    def __contains__(self, slot: object) -> bool:
        return slot in self._ready

    def __len__(self) -> int:
        return len(self._ready)

    def fill(self, slot: int, make: Callable[[], Worker]) -> None:
        """Pre-start the slot's next worker (a failure only means the next run starts cold)."""
        if self.closed or slot in self._ready:
            return
        try:
            worker = make()
        except Exception:
            _log.exception("could not pre-start a worker for slot %d", slot)
            return
        worker.prestarted = True
        self._ready[slot] = worker

    async def take(self, slot: int, key: str) -> Worker | None:
        """The slot's pre-started worker if it is alive and was made for `key`."""
        worker = self._ready.pop(slot, None)
        if worker is None:
            return None
        if worker.key != key or worker.proc.poll() is not None:
            await discard(worker)  # the settings changed, or it died waiting
            return None
        return worker

    def pids(self) -> list[int]:
        """Host pids of the workers waiting for a job."""
        return [w.pid for w in self._ready.values()]

    async def close(self) -> None:
        """Kill every waiting worker and start no more."""
        self.closed = True
        workers = list(self._ready.values())
        self._ready.clear()
        await asyncio.gather(*(discard(worker) for worker in workers))


def _kill_now(ready: dict[int, Worker]) -> None:
    """Kill and reap waiting workers synchronously (finalizer: no event loop to wait in)."""
    below = [pid for worker in ready.values() for pid in worker.kill()]
    for worker in ready.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.proc.wait(timeout=5)
        worker.release_unused()
    ready.clear()
    for _ in range(200):
        if not any(alive(pid) for pid in below):
            return
        time.sleep(0.01)
