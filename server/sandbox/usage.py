"""What a run's processes use, read from the host's /proc: the meter used where the kernel's
accounting (server.sandbox.cgroup) is not available, e.g. a non-root server in Docker.

Memory is what the run's processes hold of their own: anonymous and shared-memory pages,
resident or swapped (page cache of files is the host's, shared and reclaimable). The cheap count
(/proc/<pid>/status) counts a page shared by n processes (a fork's copy-on-write pages) n
times; only past the limit is the run measured again by proportional share (smaps_rollup,
much slower), and ended if that too is past it. The run's own /tmp (a tmpfs bounded only in
bytes of file data) counts too: every file, directory and extended attribute there is kernel
memory that no process shows. CPU time is user + system time of every live
process plus what each has collected from its reaped children, so time of exited processes is
kept.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable

from server.sandbox.procs import descendants
from server.sandbox.reaper import pids_of_uid

_TICK = os.sysconf("SC_CLK_TCK")
# tmpfs counts inodes and extended attributes in units of this many bytes ("bogo inodes",
# what statvfs reports); measured here: about 1 KiB of slab per empty file or directory
_INODE_BYTES = 1024


def run_pids(pid: int, uid: int | None) -> list[int]:
    """Every process of the run: what runs as its slot uid (a weak-mode daemon leaves the tree)
    or, without one, what is below the worker (in bubblewrap its pid namespace keeps them)."""
    below = [pid, *descendants(pid)]
    if uid is None:
        return below
    return sorted({*below, *pids_of_uid(uid)})


def memory_bytes(pids: Iterable[int]) -> int:
    """Memory held by `pids`, a page shared by several counted for each (bytes)."""
    total = 0
    for pid in pids:
        # (OSError: it exited meanwhile)
        with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith((b"RssAnon:", b"RssShmem:", b"VmSwap:")):
                    total += int(line.split()[1]) * 1024
    return total


def tmp_bytes(pids: Iterable[int]) -> int | None:
    """What the run's private /tmp holds (file pages, and inodes and extended attributes as
    tmpfs counts them), read through the first of `pids` in a mount namespace of its own whose
    root the server may look into; 0 when none is in another namespace (weak mode: /tmp is the
    host's); None when some are but none of them can be looked into (a non-root server, and a
    run that made its processes non-dumpable): the caller must not take that for empty."""
    try:
        ours = os.readlink("/proc/self/ns/mnt")
    except OSError:
        return None
    hidden = False
    for pid in pids:
        try:
            if os.readlink(f"/proc/{pid}/ns/mnt") == ours:
                continue
            st = os.statvfs(f"/proc/{pid}/root/tmp")
        except (FileNotFoundError, ProcessLookupError):
            continue  # exited meanwhile
        except OSError:
            hidden = True  # not ours to look at: another of the run's processes may be
            continue
        pages = (st.f_blocks - st.f_bfree) * st.f_frsize
        return pages + (st.f_files - st.f_ffree) * _INODE_BYTES
    return None if hidden else 0


def shared_memory_bytes(pids: Iterable[int]) -> int:
    """Memory held by `pids` together, a page shared by n counted 1/n to each (bytes); where
    smaps_rollup cannot be read, as `memory_bytes` counts it."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith((b"Pss_Anon:", b"Pss_Shmem:", b"SwapPss:")):
                        total += int(line.split()[1]) * 1024
        except PermissionError:
            total += memory_bytes([pid])
        except (OSError, ValueError, IndexError):
            continue  # exited meanwhile
    return total


def cpu_seconds(pids: Iterable[int]) -> tuple[float, float]:
    """CPU time of `pids` and of the children they have reaped, and the most one of them has
    used itself (RLIMIT_CPU counts per process), in seconds."""
    total = most = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            # utime, stime, cutime, cstime (fields 14-17 of stat; 0-based 11-14 after the name)
            own = int(fields[11]) + int(fields[12])
            total += own + int(fields[13]) + int(fields[14])
            most = max(most, own)
    return total / _TICK, most / _TICK
