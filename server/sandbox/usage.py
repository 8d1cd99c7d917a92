"""What a run's processes use, read from the host's /proc: the meter used where the kernel's
accounting (server.sandbox.cgroup) is not available, e.g. a non-root server in Docker.

Memory is the proportional set size (a page shared by n processes counts 1/n to each, so a
fork's shared pages are not counted twice), or the resident size where smaps_rollup cannot be
read (an overcount, never an undercount). CPU time is user + system time of every live process
plus what each has collected from its reaped children: time of processes that exited is kept.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

from server.sandbox.procs import descendants
from server.sandbox.reaper import pids_of_uid

_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def run_pids(pid: int, uid: int | None) -> list[int]:
    """Every process of the run: what runs as its slot uid (a weak-mode daemon leaves the tree)
    or, without one, what is below the worker (in bubblewrap its pid namespace keeps them)."""
    below = [pid, *descendants(pid)]
    if uid is None:
        return below
    return sorted({*below, *pids_of_uid(uid)})


def memory_bytes(pids: Iterable[int]) -> int:
    """Memory held by `pids` together (bytes)."""
    return sum(_memory_of(pid) for pid in pids)


def _memory_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            text = f.read()
        total = 0
        for line in text.splitlines():
            if line.startswith((b"Pss:", b"SwapPss:")):
                total += int(line.split()[1]) * 1024
        return total
    except (OSError, ValueError):
        pass
    try:  # not readable (or no smaps_rollup): resident pages, shared ones counted in full
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0  # exited meanwhile


def cpu_seconds(pids: Iterable[int]) -> float:
    """CPU time of `pids` and of the children they have reaped (seconds)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            # utime, stime, cutime, cstime (fields 14-17 of stat; 0-based 11-14 after the name)
            total += sum(int(v) for v in fields[11:15])
    return total / _TICK


def most_cpu(pids: Iterable[int]) -> float:
    """The most CPU time any one of `pids` has used (seconds): RLIMIT_CPU counts per process."""
    best = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            best = max(best, int(fields[11]) + int(fields[12]))
    return best / _TICK
