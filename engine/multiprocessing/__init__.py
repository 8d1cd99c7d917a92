"""`torch.multiprocessing.spawn`: the engine starts each "process" as a thread of the run (the
sandbox allows one process), with its own rank, grad mode and default RNG, named `rank<i>` so
the tracer can tell the ranks' graphs apart.

>>> torch.multiprocessing.spawn(worker, args=(world_size,), nprocs=world_size)
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from engine._generator import default_generator


class ProcessRaisedException(Exception):
    """A rank failed: its traceback is part of the message, as PyTorch reports it."""

    def __init__(self, msg: str, error_index: int, error_pid: int) -> None:
        super().__init__(msg)
        self.error_index = error_index
        self.pid = error_pid


class ProcessContext:
    """The running ranks of one spawn (join=False returns it)."""

    def __init__(self, threads: list[threading.Thread], errors: dict[int, str]) -> None:
        # ranks in the order they failed: the first is the cause, the others were stopped
        # waiting for it at a collective
        self.threads = threads
        self.errors = errors

    def pids(self) -> list[int]:
        return [t.native_id or 0 for t in self.threads]

    def join(self, timeout: float | None = None) -> bool:
        for t in self.threads:
            t.join(timeout)
        if self.errors:
            i = next(iter(self.errors))
            raise ProcessRaisedException(
                f"\n\n-- Process {i} terminated with the following error:\n{self.errors[i]}",
                i,
                self.threads[i].native_id or 0,
            )
        return all(not t.is_alive() for t in self.threads)


def start_processes(
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """Run `fn(i, *args)` for i in range(nprocs), each in its own rank thread."""
    errors: dict[int, str] = {}

    def run(i: int) -> None:
        default_generator.start_process()  # a new process starts with a fresh generator
        try:
            fn(i, *args)
        except BaseException:
            errors[i] = traceback.format_exc()
            from engine.distributed.world import MEMBER

            world = MEMBER.joined
            if world is not None:  # the other ranks would wait for this one forever
                world.barrier.abort()

    threads = [
        threading.Thread(target=run, args=(i,), name=f"rank{i}", daemon=daemon)
        for i in range(nprocs)
    ]
    for t in threads:
        t.start()
    context = ProcessContext(threads, errors)
    if not join:
        return context
    context.join()
    return None


def spawn(
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """`torch.multiprocessing.spawn`: `fn(rank, *args)` on `nprocs` ranks."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)


def get_all_start_methods() -> list[str]:
    return ["fork", "spawn", "forkserver"]


def cpu_count() -> int:
    import os

    return os.cpu_count() or 1


__all__ = ["ProcessContext", "ProcessRaisedException", "spawn", "start_processes"]
