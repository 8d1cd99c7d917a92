"""A fixed number of worker slots, each with its own uid, and a FIFO queue with positions."""

from __future__ import annotations

import asyncio
import fcntl
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from server.sandbox.reaper import pids_of_uid


class QueueFull(Exception):
    """Too many runs are already waiting."""


class SlotPool:
    """Hands out slot numbers first come, first served; waiters can see their position."""

    def __init__(self, size: int, max_queue: int) -> None:
        self._size = size
        self._free = list(range(size))
        self._max_queue = max_queue
        self._waiters: list[tuple[asyncio.Future[int], Callable[[int], None]]] = []

    @property
    def waiting(self) -> int:
        """How many runs are queued."""
        return len(self._waiters)

    @property
    def busy(self) -> int:
        """How many slots are taken."""
        return self._size - len(self._free)

    def reserve(self, on_position: Callable[[int], None]) -> asyncio.Future[int]:
        """A future slot number, queued at once; `on_position(n)` hears the queue position
        (1 = next, 0 = running). Raises QueueFull."""
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        if self._free and not self._waiters:
            fut.set_result(self._free.pop(0))
            on_position(0)
            return fut
        if len(self._waiters) >= self._max_queue:
            raise QueueFull(f"{len(self._waiters)} runs are already waiting")
        self._waiters.append((fut, on_position))
        on_position(len(self._waiters))
        return fut

    async def acquire(self, on_position: Callable[[int], None]) -> int:
        """Wait for a slot (see `reserve`)."""
        fut = self.reserve(on_position)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            self.cancel(fut)
            raise

    def cancel(self, fut: asyncio.Future[int]) -> None:
        """Leave the queue; a slot already handed to `fut` goes back."""
        if fut.done() and not fut.cancelled():
            if all(w[0] is not fut for w in self._waiters):
                self.release(fut.result())
        else:
            fut.cancel()
        self._waiters = [w for w in self._waiters if w[0] is not fut]
        self._renumber()

    def release(self, slot: int) -> None:
        """Give the slot to the first waiter, or back to the pool."""
        while self._waiters:
            fut, on_position = self._waiters.pop(0)
            if not fut.done():
                fut.set_result(slot)
                on_position(0)
                self._renumber()
                return
        self._free.append(slot)
        self._free.sort()

    def _renumber(self) -> None:
        for i, (_, on_position) in enumerate(self._waiters):
            on_position(i + 1)


_CLAIMED: set[int] = set()
_LOCKS: list[int] = []  # fds of held uid locks: released when the process exits
LOCK_DIR = Path(tempfile.gettempdir()) / "backscope-uids"


def _lock_uid(uid: int) -> bool:
    """Hold an exclusive lock on `uid` for this process's lifetime (False: another has it)."""
    try:
        LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(LOCK_DIR / f"{uid}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return True  # no lock directory to share: fall back to the process check alone
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _LOCKS.append(fd)
    return True


def claim_uids(base: int, count: int) -> int:
    """A block of `count` uids from `base` up that no other Sandbox uses, in this process or
    another (a lock file per uid), and that no process runs as: every run ends by killing all
    of its slot uid's processes, so two servers sharing a uid would kill each other's runs."""
    while True:
        block = range(base, base + count)
        if not any(uid in _CLAIMED or pids_of_uid(uid) for uid in block):
            locked = []
            for uid in block:
                if not _lock_uid(uid):
                    break
                locked.append(uid)
            else:
                _CLAIMED.update(block)
                return base
            # partly locked by another process: let go of ours and try the next block
            for _ in locked:
                os.close(_LOCKS.pop())
        base += count
