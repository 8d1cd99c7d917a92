"""A run's memory and CPU time over all of its processes, held to the run's limits.

Where the server may make cgroups (root on a cgroup v1 machine) the kernel counts and enforces
them (server.sandbox.cgroup). Elsewhere (a non-root server in Docker) the server meters the
run's processes (and the files of its own /tmp) from /proc every tick and ends a run over
budget (server.sandbox.usage); that
leaves a run one tick of allocation past the limit, and each process is still held to the limit
on its own by RLIMIT_AS. `Accounting.health()` says which is in force.

>>> accounting = Accounting.detect(settings, "backscope-60000")
>>> budget = Budget(settings, accounting.group_for("w1"), uid=60000)
>>> budget.started(pid)           # at the hand-over: the CPU the start-up took is not the run's
>>> budget.check()                # None, or (status, message) once the run is over a limit
"""

from __future__ import annotations

import itertools
import logging
import weakref
from dataclasses import dataclass
from typing import Any

from server.sandbox import usage
from server.sandbox.cgroup import CgroupRoot, CgroupUnavailable, RunGroup
from server.sandbox.settings import MiB, SandboxSettings

_log = logging.getLogger(__name__)


@dataclass
class Accounting:
    """How this sandbox counts a run's processes together: 'cgroup' or 'meter'."""

    kind: str
    reason: str
    root: CgroupRoot | None
    settings: SandboxSettings

    @classmethod
    def detect(cls, settings: SandboxSettings, name: str) -> Accounting:
        """The kernel's accounting if we may make cgroups here, else the /proc meter."""
        if settings.accounting == "meter":
            return cls("meter", "set by BACKSCOPE_ACCOUNTING=meter", None, settings)
        try:
            root = CgroupRoot.find(name)
        except CgroupUnavailable as exc:
            return cls("meter", str(exc), None, settings)
        return cls("cgroup", "cgroup v1 memory, pids and cpuacct per run", root, settings)

    _names = itertools.count(1)

    def __post_init__(self) -> None:
        # a sandbox dropped without close() (or open at exit) removes its groups too
        if self.root is not None:
            weakref.finalize(self, self.root.remove)

    def group(self) -> RunGroup | None:
        """A fresh cgroup for one worker (None with the meter). A cgroup that cannot be made
        now (e.g. the hierarchy was taken away) raises: a run never starts uncounted."""
        if self.root is None:
            return None
        s = self.settings
        return self.root.make(f"w{next(self._names)}", s.memory_bytes, s.processes)

    def health(self) -> dict[str, Any]:
        """What /healthz reports about a run's memory and CPU across its processes."""
        limit = f"{self.settings.memory_bytes / MiB:g} MiB"
        if self.kind == "cgroup":
            memory = f"{limit} per run, all its processes together (kernel: cgroup v1 memory)"
            cpu = f"{self.settings.cpu_seconds} s per run, all its processes (cgroup cpuacct)"
        else:
            memory = (
                f"{limit} per run, all its processes together (metered from /proc each tick; "
                f"each process also held to {limit} by RLIMIT_AS)"
            )
            cpu = f"{self.settings.cpu_seconds} s per run, all its processes (metered from /proc)"
        return {"accounting": self.kind, "reason": self.reason, "memory": memory, "cpu": cpu}

    def close(self) -> None:
        if self.root is not None:
            self.root.remove()


class Budget:
    """One run's use of memory and CPU time against its limits."""

    def __init__(self, settings: SandboxSettings, group: RunGroup | None, uid: int | None):
        self._s = settings
        self.group = group
        self._uid = uid
        self._pid: int | None = None
        self._cpu0 = 0.0
        self.cpu = 0.0  # seconds since the hand-over, all processes
        self.most_cpu = 0.0  # the most one process has used (RLIMIT_CPU counts per process)
        self.memory = 0  # bytes at most so far (the kernel's peak, or the meter's largest look)
        # processes of a run that has not forked: the worker (and bubblewrap's two)
        self._alone = 1 if uid is not None else 3
        self.forked = False  # the meter saw more: it measures more often (see `quick`)

    def started(self, pid: int) -> None:
        """The run starts now: CPU time used so far (imports, start-up) is not the run's."""
        self._pid = pid
        self._cpu0 = self._cpu_total(self._pids())

    def _pids(self) -> list[int]:
        if self._pid is None:
            return []
        if self.group is not None:
            return self.group.pids()
        return usage.run_pids(self._pid, self._uid)

    def _cpu_total(self, pids: list[int]) -> float:
        if self.group is not None:
            return self.group.cpu_seconds()
        return usage.cpu_seconds(pids)[0]

    @property
    def quick(self) -> bool:
        """Whether to measure at the quick tick: the meter, on a run of several processes
        (each can allocate up to the limit on its own between two looks)."""
        return self.group is None and self.forked

    def check(self) -> tuple[str, str] | None:
        """Measure now; (status, message) if the run is over its memory or CPU budget."""
        if self._pid is None:
            return None
        pids = self._pids()
        total, most = usage.cpu_seconds(pids)
        self.most_cpu = max(self.most_cpu, most)
        if self.group is not None:
            total = self.group.cpu_seconds()
            self.memory = self.group.memory_peak()
        else:
            self.forked = len(pids) > self._alone
            tmp = usage.tmp_bytes(reversed(pids))  # (the worker is the last one started)
            if tmp is None:
                return self.unmeasured()
            now = usage.memory_bytes(pids) + tmp
            if now > self._s.memory_bytes:  # shared pages counted in full: measure again
                now = usage.shared_memory_bytes(pids) + tmp
            self.memory = max(self.memory, now)
            if now > self._s.memory_bytes:
                return self.over_memory()
        self.cpu = max(self.cpu, total - self._cpu0)
        over = self.ended()
        if over is not None:
            return over
        if self.cpu > self._s.cpu_seconds:
            return self.over_cpu()
        return None

    def ended(self) -> tuple[str, str] | None:
        """What the kernel did about the memory limit: (status, message) if it had to kill."""
        if self.group is not None and self.group.oom_kills() > 0:
            return self.over_memory()
        return None

    def over_memory(self) -> tuple[str, str]:
        limit = self._s.memory_bytes / MiB
        return "limit", f"memory limit of {limit:g} MiB reached (all of the run's processes)"

    def unmeasured(self) -> tuple[str, str]:
        # fail closed: what a run keeps in its /tmp is memory, and unseen it would be unbounded
        return "limit", (
            "the run's /tmp could not be measured (the server may not look into any of the "
            "run's processes), so its memory limit could not be held"
        )

    def over_cpu(self) -> tuple[str, str]:
        limit = self._s.cpu_seconds
        return "timeout", f"CPU time limit of {limit} s reached (all of the run's processes)"
