"""Whether a run is really paused: every process of it is blocked waiting for a command on its
control channel, and has not run since the last look.

The stepper runs inside the snippet's process, so anything it sends (a `paused` event) the
snippet can send too, and then go on computing or sleeping with the wall clock stopped. The
server therefore looks at the kernel's view (/proc) of the run instead: the run's only process
(besides bubblewrap's two) is the worker, it has one thread, that thread sleeps in select() on
exactly the channel socket with no timeout, and its run time has not moved since the previous
look. Anything else (another thread or process, a timeout, a sleep, a signal that woke it) means
the run is running. Where /proc does not show this (another architecture, no permission), no
time counts as paused: pauses then spend the wall clock (fail closed), and /healthz says so.

>>> look = PauseCheck(inode=worker.channel_inode)
>>> look.token(worker.pid, bwrap=True, uid=60000)   # equal non-None tokens: idle in between
"""

from __future__ import annotations

import contextlib
import os
import platform

from server.sandbox.reaper import pids_of_uid
from server.sandbox.worker import CHANNEL_FD

# the select(2) syscalls that Python's select.select() makes (glibc calls one or the other); in
# both, the arguments are nfds, readfds, writefds, exceptfds, timeout
_SELECTS = {
    "x86_64": {23, 270},  # select, pselect6
    "aarch64": {72},  # pselect6
}.get(platform.machine(), set())
_FD_BITS = 8  # bytes of the fd_set read back: fds 0-63 (the channel is fd 3)


def supported() -> str | None:
    """None when pauses can be verified on this machine, else why not."""
    if not _SELECTS:
        return f"no syscall table for {platform.machine()}"
    if not os.path.exists(f"/proc/{os.getpid()}/syscall"):
        return "/proc/<pid>/syscall is not available"
    return None


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(k) for k in f.read().split()]
    except OSError:
        return []


def _only_child(pid: int) -> int | None:
    kids = _children(pid)
    return kids[0] if len(kids) == 1 else None


class PauseCheck:
    """Looks at one run's processes; `token` is None unless the run is waiting on its channel."""

    def __init__(self, inode: int) -> None:
        self._socket = f"socket:[{inode}]"
        self.problem: str | None = supported()  # set when /proc refused us (health reports it)

    def token(self, pid: int, bwrap: bool, uid: int | None) -> tuple[int, int] | None:
        """(worker pid, its run time in ns) when the run waits for a command, else None."""
        if not _SELECTS:
            return None
        worker = self._worker(pid, bwrap, uid)
        if worker is None:
            return None
        try:
            return self._waiting(worker)
        except PermissionError as exc:
            self.problem = f"cannot read the worker's /proc entries: {exc.strerror}"
            return None
        except (OSError, ValueError, IndexError):
            return None  # it exited or changed meanwhile

    @staticmethod
    def _worker(pid: int, bwrap: bool, uid: int | None) -> int | None:
        """The worker, if it is the run's only process (bubblewrap's own two aside)."""
        worker: int | None = pid
        if bwrap:  # bwrap -> the pid namespace's init -> the worker; orphans go to init
            init = _only_child(pid)
            worker = _only_child(init) if init is not None else None
        if worker is None or _children(worker):
            return None
        if uid is not None and pids_of_uid(uid) != [worker]:
            return None  # weak mode: a daemon left the tree but not the slot uid
        return worker

    def _waiting(self, worker: int) -> tuple[int, int] | None:
        if os.listdir(f"/proc/{worker}/task") != [str(worker)]:
            return None  # another thread could work while this one waits
        with open(f"/proc/{worker}/schedstat") as f:
            ran = int(f.read().split()[0])
        with open(f"/proc/{worker}/syscall") as f:
            call = f.read().split()
        if call[0] == "running" or int(call[0]) not in _SELECTS:
            return None
        nfds, readfds, writefds, exceptfds, timeout = (int(a, 16) for a in call[1:6])
        if (nfds, writefds, exceptfds, timeout) != (CHANNEL_FD + 1, 0, 0, 0) or not readfds:
            return None
        with open(f"/proc/{worker}/mem", "rb", buffering=0) as mem:
            mem.seek(readfds)
            bits = int.from_bytes(mem.read(_FD_BITS), "little")
        if (
            bits != 1 << CHANNEL_FD
            or os.readlink(f"/proc/{worker}/fd/{CHANNEL_FD}") != self._socket
        ):
            return None
        # it was asleep in that call when we looked; the run time shows whether it ran since
        with open(f"/proc/{worker}/schedstat") as f:
            if int(f.read().split()[0]) != ran:
                return None
        return worker, ran


def access_problem(pids: list[int], bwrap: bool) -> str | None:
    """Whether the server may read what `token` reads of (pre-started) workers, given their
    host pids: None if so (or if no worker process is there yet to try), else why not."""
    for pid in pids:
        worker = _only_child(pid) if bwrap else pid
        worker = _only_child(worker) if bwrap and worker is not None else worker
        if worker is None:
            continue
        try:
            with open(f"/proc/{worker}/syscall") as f:
                f.read()
            with open(f"/proc/{worker}/mem", "rb", buffering=0):
                pass
        except PermissionError as exc:
            return f"cannot read the worker's /proc entries: {exc.strerror}"
        except OSError:
            continue  # gone meanwhile
    return None


def channel_inode(fd: int) -> int:
    """The inode of a socket: how /proc names it in the worker's fd table."""
    with contextlib.suppress(OSError):
        return os.fstat(fd).st_ino
    return 0
