"""Whether a run is really paused: every process of it is blocked waiting for a command on its
control channel, and has not run since the last look.

The stepper runs inside the snippet's process, so anything it sends (a `paused` event) the
snippet can send too, and then go on computing or sleeping with the wall clock stopped. The
server therefore looks at the kernel's view (/proc) of the run instead: the worker is the run's
only process (besides bubblewrap's two), at least one of its threads sleeps reading the channel
socket (select() on it alone with no timeout, or a read/recv of it), every other thread sleeps
in an untimed futex wait (a queue or lock the reader fills), no thread ran since the previous
look, and no SIGALRM handler is installed. Nothing can then wake the run but a command from the
server: no timeout is pending, no other process exists, a timer's signal would kill it (POSIX
timers and socket receive timeouts are refused by the seccomp filter). Anything else (a sleep, a
timed wait, another process, work between looks) means the run is running. Where /proc does not
show this (another architecture, no permission), no time counts as paused: pauses then spend
the wall clock (fail closed), and /healthz says so.

>>> look = PauseCheck(inode=worker.channel_inode)
>>> look.token(worker.pid, bwrap=True, uid=None)   # equal non-None tokens: idle in between
"""

from __future__ import annotations

import contextlib
import os
import platform
import signal

from server.sandbox.reaper import pids_of_uid

# syscall numbers: select-like calls (nfds, readfds, writefds, exceptfds, timeout), reads of one
# fd (fd, ...) and futex (uaddr, op, val, timeout, ...)
_CALLS = {
    "x86_64": {"select": {23, 270}, "read": {0, 45, 47}, "futex": {202}},
    "aarch64": {"select": {72}, "read": {63, 207, 212}, "futex": {98}},
}.get(platform.machine(), {})
_FUTEX_WAITS = {0, 9}  # FUTEX_WAIT, FUTEX_WAIT_BITSET (without the private/clock flags)
_FUTEX_CMD = 0x7F
_SIGALRM_BIT = 1 << (signal.SIGALRM - 1)
Token = tuple[int, ...]


def supported() -> str | None:
    """None when pauses can be verified on this machine, else why not."""
    if not _CALLS:
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

    def token(self, pid: int, bwrap: bool, uid: int | None) -> Token | None:
        """What the run's threads have run so far when it waits for a command, else None."""
        if not _CALLS:
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

    def _waiting(self, worker: int) -> Token | None:
        tasks = sorted(int(t) for t in os.listdir(f"/proc/{worker}/task"))
        ran = [_ran(worker, t) for t in tasks]
        with open(f"/proc/{worker}/status") as f:
            caught = next(v for k, _, v in (ln.partition(":") for ln in f) if k == "SigCgt")
        if int(caught, 16) & _SIGALRM_BIT:
            return None  # a timer could wake it to work
        readers = 0
        for task in tasks:
            how = self._blocked(worker, task)
            if how is None:
                return None
            readers += how == "channel"
        # asleep in those calls when we looked; their run times show none ran meanwhile
        if not readers or [_ran(worker, t) for t in tasks] != ran:
            return None
        return (worker, *tasks, *ran)

    def _blocked(self, worker: int, task: int) -> str | None:
        """'channel' (reading the channel), 'futex' (an untimed wait) or None (anything else)."""
        with open(f"/proc/{worker}/task/{task}/syscall") as f:
            call = f.read().split()
        if call[0] == "running":
            return None
        nr, args = int(call[0]), [int(a, 16) for a in call[1:7]]
        if nr in _CALLS["futex"]:
            return "futex" if args[1] & _FUTEX_CMD in _FUTEX_WAITS and args[3] == 0 else None
        if nr in _CALLS["read"]:
            return "channel" if self._is_channel(worker, args[0]) else None
        if nr in _CALLS["select"]:
            nfds, readfds, writefds, exceptfds, timeout = args[:5]
            if not 0 < nfds <= 1024 or (writefds, exceptfds, timeout) != (0, 0, 0) or not readfds:
                return None
            with open(f"/proc/{worker}/mem", "rb", buffering=0) as mem:
                mem.seek(readfds)
                bits = int.from_bytes(mem.read((nfds + 7) // 8), "little")
            fd = nfds - 1
            return "channel" if bits == 1 << fd and self._is_channel(worker, fd) else None
        return None

    def _is_channel(self, worker: int, fd: int) -> bool:
        return os.readlink(f"/proc/{worker}/fd/{fd}") == self._socket


def _ran(worker: int, task: int) -> int:
    """Nanoseconds a thread has run so far."""
    with open(f"/proc/{worker}/task/{task}/schedstat") as f:
        return int(f.read().split()[0])


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
