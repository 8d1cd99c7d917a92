"""A fixed number of worker slots, each with its own uid, and a queue (fair between clients)
with positions."""

from __future__ import annotations

import asyncio
import fcntl
import os
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.sandbox.reaper import pids_of_uid


class QueueFull(Exception):
    """Too many runs are already waiting."""


@dataclass(eq=False)
class _Waiter:
    fut: asyncio.Future[int]
    on_position: Callable[[int], None]
    owner: str
    position: int = -1  # the last one reported


class SlotPool:
    """Hands out slot numbers fairly between owners (client addresses): a free slot goes to the
    waiting run whose owner holds the fewest slots and has the fewest runs ahead in the queue,
    then to the owner served least recently, then first come first served. One owner's many
    runs cannot make another owner's run wait behind all of them. Waiters hear their position
    whenever it changes."""

    def __init__(
        self, size: int, max_queue: int, prefer: Callable[[int], bool] = lambda slot: False
    ) -> None:
        self._size = size
        self._free = list(range(size))
        self._prefer = prefer  # a free slot to hand out first (its worker is ready)
        self._max_queue = max_queue
        self._waiters: list[_Waiter] = []
        self._held: dict[int, str] = {}  # slot -> owner
        self._served: dict[str, int] = {}  # owner -> when it last got a slot (a counter)
        self._grants = 0

    @property
    def waiting(self) -> int:
        """How many runs are queued."""
        return len(self._waiters)

    @property
    def free(self) -> list[int]:
        """The free slots, in the order they are handed out when none is preferred."""
        return list(self._free)

    @property
    def busy(self) -> int:
        """How many slots are taken."""
        return self._size - len(self._free)

    def others_waiting(self, owner: str) -> bool:
        """Whether a run of another owner waits for a slot."""
        return any(w.owner != owner for w in self._waiters)

    def reserve(self, on_position: Callable[[int], None], owner: str = "") -> asyncio.Future[int]:
        """A future slot number, queued at once; `on_position(n)` hears the queue position
        (1 = next, 0 = running). Raises QueueFull."""
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        if self._free and not self._waiters:
            slot = next((s for s in self._free if self._prefer(s)), self._free[0])
            self._free.remove(slot)
            self._grant(slot, owner)
            fut.set_result(slot)
            on_position(0)
            return fut
        if len(self._waiters) >= self._max_queue:
            self._push_out(owner)
        self._waiters.append(_Waiter(fut, on_position, owner))
        self._renumber()
        return fut

    async def acquire(self, on_position: Callable[[int], None], owner: str = "") -> int:
        """Wait for a slot (see `reserve`)."""
        fut = self.reserve(on_position, owner)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            self.cancel(fut)
            raise

    def cancel(self, fut: asyncio.Future[int]) -> None:
        """Leave the queue; a slot already handed to `fut` goes back."""
        if fut.done() and not fut.cancelled():
            if fut.exception() is None and all(w.fut is not fut for w in self._waiters):
                self.release(fut.result())
        else:
            fut.cancel()
        self._waiters = [w for w in self._waiters if w.fut is not fut]
        self._renumber()

    def release(self, slot: int) -> None:
        """Give the slot to the next waiter in fair order, or back to the pool."""
        self._held.pop(slot, None)
        for waiter in self._order():
            self._waiters.remove(waiter)
            if not waiter.fut.done():
                self._grant(slot, waiter.owner)
                waiter.fut.set_result(slot)
                waiter.on_position(0)
                self._renumber()
                return
        self._free.append(slot)
        self._free.sort()

    def _grant(self, slot: int, owner: str) -> None:
        self._held[slot] = owner
        self._grants += 1
        self._served[owner] = self._grants
        # forget owners with nothing held or waiting (they were served long enough ago)
        active = {*self._held.values(), *(w.owner for w in self._waiters)}
        self._served = {o: n for o, n in self._served.items() if o in active}

    def _push_out(self, owner: str) -> None:
        """Make room in a full queue for `owner`'s run by refusing the newest run of the owner
        with the most waiting, if that is more than `owner` has; else raise QueueFull. (One
        client's flood must not fill the queue so that everyone else is refused.)"""
        waiting = Counter(w.owner for w in self._waiters)
        heavy, most = waiting.most_common(1)[0] if waiting else (owner, 0)
        if most <= waiting[owner]:
            raise QueueFull(f"{len(self._waiters)} runs are already waiting")
        newest = next(w for w in reversed(self._waiters) if w.owner == heavy)
        self._waiters.remove(newest)
        if not newest.fut.done():
            message = "the queue is full: this run made room for another client's run"
            newest.fut.set_exception(QueueFull(message))

    def _order(self) -> list[_Waiter]:
        """The waiters in the order slots will go to them: an owner's k-th waiting run comes
        in round k + (slots it holds); within a round, owners served least recently first,
        then first come first served."""
        ahead = Counter(self._held.values())
        keyed = []
        for arrival, waiter in enumerate(self._waiters):
            owner = waiter.owner
            keyed.append(((ahead[owner], self._served.get(owner, 0), arrival), waiter))
            ahead[owner] += 1
        return [waiter for _, waiter in sorted(keyed, key=lambda k: k[0])]

    def _renumber(self) -> None:
        for i, waiter in enumerate(self._order()):
            if waiter.position != i + 1:
                waiter.position = i + 1
                waiter.on_position(i + 1)


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
