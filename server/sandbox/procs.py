"""Small process plumbing for the runner: pipe readers, group kills, exit signals."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from typing import Any

from server.sandbox.settings import SandboxSettings


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


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, from /proc's children lists (parents before children)."""
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
    worker: dict[str, Any] | None, returncode: int | None, s: SandboxSettings, bwrap: bool
) -> tuple[str, str]:
    """Status and message of a run the sandbox did not end itself, from the worker's summary
    or, without one, from how the worker died."""
    if worker is not None:
        status = worker.get("status")
        if status == "stopped":
            return "killed", "stopped by command"
        if status == "limit":
            return "limit", f"more than {s.max_events} events"
        return ("ok", "finished") if status == "ok" else ("error", "the code raised an error")
    sig = signal_of(returncode, bwrap)
    if sig == signal.SIGXCPU:
        return "timeout", f"CPU time limit of {s.cpu_seconds} s reached"
    if sig is not None:
        return "error", f"the worker died with {signal.Signals(sig).name}"
    return "error", f"the worker exited with code {returncode} before the run finished"
