"""A process group whose ranks are threads of this one process (the engine's local backend).

Each collective is one exchange: every rank puts its value in its slot, waits for the others,
reads all slots, and waits again before the slots can be reused. Ranks find their group by
the rendezvous key (`init_method`, or MASTER_ADDR:MASTER_PORT, or the default).
"""

from __future__ import annotations

import threading
from typing import Any


class World:
    """The ranks of one process group and their meeting point."""

    def __init__(self, size: int, backend: str) -> None:
        self.size = size
        self.backend = backend
        self.barrier = threading.Barrier(size)
        self.slots: list[Any] = [None] * size
        self.joined: set[int] = set()
        self.lock = threading.Lock()

    def exchange(self, rank: int, value: Any) -> list[Any]:
        """Every rank's `value`, in rank order (a barrier for all ranks of the group)."""
        self.slots[rank] = value
        self.barrier.wait()
        out = list(self.slots)
        self.barrier.wait()  # nobody overwrites a slot before everyone has read it
        return out


_WORLDS: dict[str, World] = {}
_WORLDS_LOCK = threading.Lock()


def join(key: str, size: int, rank: int, backend: str) -> World:
    """The group at `key` (made by its first rank), with `rank` taken."""
    with _WORLDS_LOCK:
        world = _WORLDS.get(key)
        if world is None or world.size != size or len(world.joined) == world.size:
            world = _WORLDS[key] = World(size, backend)
        if rank in world.joined:
            raise RuntimeError(f"rank {rank} joined the process group at {key} twice")
        world.joined.add(rank)
    return world


class Membership(threading.local):
    """The calling thread's rank and group (None before init_process_group)."""

    def __init__(self) -> None:
        self.world: World | None = None
        self.rank = -1
        self.joined: World | None = None  # kept after destroy: a failing rank stops it


MEMBER = Membership()
