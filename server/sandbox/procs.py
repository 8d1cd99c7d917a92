"""Small process plumbing for the runner: pipe readers, group kills, exit signals."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from typing import Any

from server.sandbox.settings import SandboxSettings

# the worker's exit code when its event channel fails (fds closed or dup2'd over by a snippet)
CHANNEL_LOST = 3


def signal_of(returncode: int | None, bwrap: bool) -> int | None:
    """The signal that ended the worker (bubblewrap reports it as 128 + signal)."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    if bwrap and 128 < returncode < 128 + 65:
        return returncode - 128
    return None


async def read_end(fd: int) -> tuple[asyncio.StreamReader, asyncio.BaseTransport]:
    """An asyncio reader over the read end of a pipe we made."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    pipe = os.fdopen(fd, "rb", buffering=0)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    return reader, transport


class _EventReader(asyncio.StreamReader):
    """A reader for which a broken connection is an end of file: a worker that exits with
    commands unread resets its socket, and what it sent before (its summary) must still be
    read (a plain StreamReader raises at once, dropping what it holds)."""

    def set_exception(self, exc: BaseException) -> None:
        self.feed_eof()


async def read_socket(sock: socket.socket) -> tuple[asyncio.StreamReader, asyncio.BaseTransport]:
    """An asyncio reader over the worker's event socket (its transport is only read)."""
    loop = asyncio.get_running_loop()
    reader = _EventReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    transport, _ = await loop.create_unix_connection(lambda: protocol, sock=sock)
    return reader, transport


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, from /proc's children lists (parents before children); from
    every process's parent where the kernel has no children lists."""
    if not _CHILDREN_LISTS:
        return _descendants_by_parent(pid)
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


_CHILDREN_LISTS = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def _descendants_by_parent(pid: int) -> list[int]:
    below: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            below.setdefault(ppid, []).append(int(entry.name))
    out: list[int] = []
    todo = [pid]
    while todo:
        kids = below.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not yet exited (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


async def gone(pids: list[int], timeout: float = 2.0) -> None:
    """Wait until every one of `pids` has exited: a SIGKILLed pid-namespace init takes a
    moment to tear its namespace down, after its parent has already been reaped."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while any(alive(pid) for pid in pids) and loop.time() < end:
        await asyncio.sleep(0.01)


def kill_tree(pid: int) -> None:
    """SIGKILL `pid`'s process group and every descendant: bubblewrap's pid-namespace init
    runs in its own session, so the group alone can miss it if bwrap is killed mid-setup."""
    below = descendants(pid)
    killpg(pid)
    for child in below:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)


def killpg(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def classify(
    worker: dict[str, Any] | None,
    returncode: int | None,
    s: SandboxSettings,
    bwrap: bool,
    cpu: float | None = None,
) -> tuple[str, str]:
    """Status and message of a run the sandbox did not end itself, from the worker's summary
    or, without one, from how the worker died (and how much CPU time its tree used)."""
    if worker is not None:
        status = worker.get("status")
        if status == "stopped":
            return "killed", "stopped by command"
        if status == "limit":
            return "limit", f"more than {s.max_events} events"
        if status == "halted" and worker.get("why") == "timeout":
            # halted by the CPU limit's soft signal (the server halts runs for its own ends)
            return "timeout", f"CPU time limit of {s.cpu_seconds} s reached"
        if status == "halted":
            return "killed", "stopped"
        return ("ok", "finished") if status == "ok" else ("error", "the code raised an error")
    sig = signal_of(returncode, bwrap)
    # SIGKILL past the limit: the hard limit, one second after a SIGXCPU the snippet ignored
    if sig == signal.SIGXCPU or (sig == signal.SIGKILL and (cpu or 0.0) >= s.cpu_seconds):
        return "timeout", f"CPU time limit of {s.cpu_seconds} s reached"
    if sig is not None:
        return "error", f"the worker died with {signal.Signals(sig).name}"
    message = f"the worker exited with code {returncode} before the run finished"
    if returncode == CHANNEL_LOST:
        message += " (it could not send its summary: the event channel was closed or replaced)"
    return "error", message


def unreported_error(worker: dict[str, Any] | None) -> str | None:
    """The snippet's error as the worker's summary gives it, for a run that sent no error
    event; None when the summary has none."""
    error = worker.get("error") if worker is not None else None
    if not isinstance(error, dict):
        return None
    kind = error.get("error_type") or error.get("type")
    return f"the code raised {kind}: {error.get('message')} (and its error report failed)"
