"""The kernel's accounting for a whole run: one cgroup (v1 `memory`, `pids`, `cpuacct`) per worker,
so that memory, processes and CPU time are counted over every process of the run together.

RLIMIT_AS, RLIMIT_NPROC and RLIMIT_CPU count per process (or per uid); a run that forks four
children gets four times the memory. A cgroup counts the run as one: the kernel refuses (or
OOM-kills inside the group) past `memory.limit_in_bytes`, refuses a fork past `pids.max`, and
`cpuacct.usage` sums the CPU time of every process that ever ran in it.

>>> root = CgroupRoot.find("backscope-60000")    # None (and why) where we may not make groups
>>> group = root.make("w1", memory_bytes=1 << 30, processes=16)
>>> argv = group.joining(["bwrap", ...])         # the worker starts inside the group
>>> group.oom_kills(), group.cpu_seconds(), group.pids()
>>> group.remove()                               # kills what is left, then deletes it
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

# the controllers a run's group needs, each in its own v1 hierarchy (or several in one)
CONTROLLERS = ("memory", "pids", "cpuacct")
# The worker is started through this: it writes its own pid into every group, then becomes the
# worker (exec keeps the pid), so every process the run ever makes is born inside the group.
# Builtins only; a failed write ends it before the worker exists (exit 125: fail closed).
_JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
SHELL = "/bin/sh"


class CgroupUnavailable(Exception):
    """The kernel's accounting cannot be used here; the message says why."""


def _mounts() -> dict[str, Path]:
    """Controller name -> the mount point of its v1 hierarchy, from our own mountinfo."""
    found: dict[str, Path] = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) < 5 or len(tail) < 3 or tail[0] != "cgroup":
                continue
            for option in tail[2].split(","):
                if option in CONTROLLERS:
                    found.setdefault(option, Path(fields[4]))
    return found


def _own_paths() -> dict[str, str]:
    """Controller name -> the cgroup this process is in (relative to its hierarchy's root)."""
    found: dict[str, str] = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, names, path = line.rstrip("\n").split(":", 2)
            for name in names.split(","):
                if name in CONTROLLERS:
                    found[name] = path
    return found


@dataclass(frozen=True)
class CgroupRoot:
    """The directories (one per controller) under which this sandbox makes its runs' groups:
    below the server's own groups, so a run is also counted wherever the server is."""

    dirs: dict[str, Path]

    @classmethod
    def find(cls, name: str) -> CgroupRoot:
        """Make (or reuse) `name` below our own group in each controller; raises
        CgroupUnavailable if a controller is missing or not writable."""
        try:
            mounts, own = _mounts(), _own_paths()
        except OSError as exc:
            raise CgroupUnavailable(f"cannot read our cgroups: {exc.strerror}") from None
        missing = [c for c in CONTROLLERS if c not in mounts or c not in own]
        if missing:
            raise CgroupUnavailable(f"no cgroup v1 hierarchy for {', '.join(missing)}")
        # (in a container the hierarchy mounted is often just its own group, while
        # /proc/self/cgroup names it by the host's path: then the mount is our group)
        dirs = {}
        for c in CONTROLLERS:
            mine = mounts[c] / own[c].lstrip("/")
            dirs[c] = (mine if mine.is_dir() else mounts[c]) / name
        root = cls(dirs)
        for controller, path in dirs.items():
            try:
                path.mkdir(exist_ok=True)
            except OSError as exc:  # (the path is the host's: not for /healthz)
                root.remove()
                raise CgroupUnavailable(
                    f"cannot make a {controller} cgroup: {exc.strerror}"
                ) from None
        root.sweep()
        try:  # a group with limits can really be made here (else say so now, not per run)
            root.make("probe", 64 << 20, 4).remove()
        except CgroupUnavailable:
            root.remove()
            raise
        return root

    def make(self, name: str, memory_bytes: int, processes: int) -> RunGroup:
        """A fresh group for one worker with the run's limits (raises CgroupUnavailable)."""
        group = RunGroup({c: d / name for c, d in self.dirs.items()})
        try:
            for path in group.dirs.values():
                if path.exists():  # left by an earlier server with this uid block
                    group.remove()
                path.mkdir()
            group.limit(memory_bytes, processes)
        except OSError as exc:
            group.remove()
            raise CgroupUnavailable(f"cannot set up a run's cgroup: {exc.strerror}") from None
        return group

    def sweep(self) -> None:
        """Remove groups left behind (a server killed mid-run); their processes are gone."""
        for base in self.dirs.values():
            with contextlib.suppress(OSError):
                for entry in base.iterdir():
                    if entry.is_dir():
                        RunGroup({base.name: entry}).remove()

    def remove(self) -> None:
        """Remove the (empty) directories of this sandbox."""
        self.sweep()
        for path in self.dirs.values():
            with contextlib.suppress(OSError):
                path.rmdir()


@dataclass(frozen=True)
class RunGroup:
    """One worker's group: the limits, what it has used, and its processes."""

    dirs: dict[str, Path]

    def limit(self, memory_bytes: int, processes: int) -> None:
        """Memory (and memory + swap, where swap is accounted) and tasks of the whole run."""
        memory = self.dirs["memory"]
        _write(memory / "memory.limit_in_bytes", memory_bytes)
        swap = memory / "memory.memsw.limit_in_bytes"
        if swap.exists():
            _write(swap, memory_bytes)
        # bubblewrap's own two processes (the outer one and the namespace's init) are in it too
        _write(self.dirs["pids"] / "pids.max", processes + 2)

    def joining(self, argv: list[str]) -> list[str]:
        """`argv`, started inside this group."""
        procs = [str(d / "cgroup.procs") for d in self.dirs.values()]
        return [SHELL, "-c", _JOIN, "sh", *procs, "--", *argv]

    def oom_kills(self) -> int:
        """How many processes the kernel killed for going over the memory limit."""
        try:
            text = (self.dirs["memory"] / "memory.oom_control").read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def memory_peak(self) -> int:
        """The most memory the run has held at once (bytes)."""
        return _read_int(self.dirs["memory"] / "memory.max_usage_in_bytes")

    def cpu_seconds(self) -> float:
        """CPU time of every process that ran in the group, exited ones too."""
        return _read_int(self.dirs["cpuacct"] / "cpuacct.usage") / 1e9

    def pids(self) -> list[int]:
        """The processes in the group now."""
        try:  # the same processes are in the group of every controller
            text = (next(iter(self.dirs.values())) / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        """SIGKILL every process in the group now."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        """Kill what is left and delete the group's directories (a dying process keeps a group
        busy a moment; pids.max bounds a fork loop); one still busy is left for a sweep."""
        for path in self.dirs.values():
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    self.kill()
                    time.sleep(0.005)


def _write(path: Path, value: int) -> None:
    with open(path, "w") as f:
        f.write(str(value))


def _read_int(path: Path) -> int:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
