"""What the server holds a running run to, every tick: the wall clock (stopped only by a pause it
has verified), a pause's own limit, and memory and CPU time over all of the run's processes.

Every limit belongs to the server. The worker's events are claims at most: a `paused` event
only makes the server look (often, for a moment) whether the run really waits for a command
(server.sandbox.pause), and only a run the client asked to pause (stepping, breakpoints, a
pause command) can have its wall clock stopped at all.

>>> limits = RunLimits(settings, options, end=handle_end, contended=lambda: False)
>>> limits.start(worker, uid=None)            # uid: weak mode only
>>> await limits.watch({exited, stopped})     # returns when one of them is done
"""

from __future__ import annotations

import asyncio
from asyncio import FIRST_COMPLETED
from collections.abc import Callable
from typing import Any

from protocol import PAUSE_ENDING_TYPES
from server.sandbox.budget import Budget
from server.sandbox.clock import QUICK_FOR, QUICK_TICK, TICK, RunClock
from server.sandbox.pause import PauseCheck
from server.sandbox.prestart import Worker
from server.sandbox.settings import SandboxSettings

# commands (and run options) by which a client asks the stepper to pause
ASKING = frozenset({"step", "pause", "set_breakpoints"})
ASKING_OPTIONS = ("pause_in_backward", "breakpoints", "linger")


def limits_health(settings: SandboxSettings, pause_problem: str | None) -> dict[str, str]:
    """What /healthz says about the clocks (memory and CPU: Accounting.health)."""
    if pause_problem is None:
        pauses = "stop the wall clock only while the run verifiably waits for a command"
    else:
        pauses = f"count toward the wall clock ({pause_problem})"
    wall = f"{settings.wall_seconds:g} s running; a pause {settings.pause_seconds:g} s"
    return {"wall": wall, "pauses": pauses}


class RunLimits:
    """The server's limits on one run, and the state they are checked against."""

    def __init__(
        self,
        settings: SandboxSettings,
        options: dict[str, Any],
        end: Callable[[str, str], None],
        contended: Callable[[], bool],
    ) -> None:
        self._s = settings
        self._end = end
        self._contended = contended  # whether another client's run waits for a slot
        self.asked = any(options.get(k) for k in ASKING_OPTIONS)
        self.claimed = False  # the worker said it pauses, and nothing resumed it since
        self._quick_until = 0.0  # look often until then (a pause was claimed or resumed)
        self.clock: RunClock | None = None
        self.budget: Budget | None = None
        self._pauses: PauseCheck | None = None
        self._pid = 0
        self._bwrap = False
        self._uid: int | None = None

    def start(self, worker: Worker, uid: int | None) -> None:
        """The run starts now in `worker`; `uid` (weak mode: no bubblewrap) finds the run's
        processes that left the worker's tree (in bubblewrap its pid namespace holds them)."""
        self._pid, self._bwrap, self._uid = worker.pid, uid is None, uid
        self.budget = Budget(self._s, worker.group, uid)
        self.budget.started(worker.pid)
        self._pauses = PauseCheck(worker.channel_inode)

    def command(self, kind: str) -> None:
        """A command is about to go to the worker."""
        if kind in PAUSE_ENDING_TYPES and self.clock is not None:
            # a verified pause lasted until now; from here on the run is running
            now = asyncio.get_running_loop().time()
            self._look(now)
            self.clock.resumed()
            self._quick_until = now + QUICK_FOR
        if kind in ASKING:
            self.asked = True
        if kind in PAUSE_ENDING_TYPES:  # others (tensor_values, breakpoints) are answered in place
            self.claimed = False

    def claim(self, paused: bool) -> None:
        """The worker's events say it now pauses (True) or runs (False)."""
        if paused and not self.claimed:
            self._quick_until = asyncio.get_running_loop().time() + QUICK_FOR
        self.claimed = paused

    async def watch(self, ends: set[asyncio.Task[Any]]) -> None:
        """Check every limit each tick until one of `ends` is done; a limit passed ends the
        run through `end(status, message)`."""
        loop = asyncio.get_running_loop()
        clock = self.clock = RunClock(loop.time())
        budget = self.budget
        assert budget is not None, "start() first"
        measured = loop.time()
        while True:
            quick = self.asked and loop.time() < self._quick_until and not clock.waiting
            tick = QUICK_TICK if quick or budget.quick else TICK
            done, _ = await asyncio.wait(ends, timeout=tick, return_when=FIRST_COMPLETED)
            if done:
                return
            now = loop.time()
            self._look(now)
            if budget.quick or now - measured >= TICK:
                measured = now
                over = budget.check()
                if over is not None:
                    self._end(*over)
            self._check_clock(clock)

    def _check_clock(self, clock: RunClock) -> None:
        s = self._s
        pause_limit = s.pause_seconds
        if self._contended():
            pause_limit = min(pause_limit, s.contended_pause_seconds)
        if clock.running > s.wall_seconds:
            self._end("timeout", f"wall-clock limit of {s.wall_seconds:g} s reached")
        elif clock.paused > pause_limit:
            why = "" if pause_limit == s.pause_seconds else " while others waited"
            self._end("timeout", f"paused for more than {pause_limit:g} s{why}")

    def _look(self, now: float) -> None:
        """Advance the clock: paused time only while the client asked for pauses, the worker
        says it waits, and /proc shows that it does."""
        if self.clock is None:
            return
        token = None
        if self.asked and self.claimed and self._pauses is not None:
            token = self._pauses.token(self._pid, self._bwrap, self._uid)
        self.clock.advance(now, token)

    @property
    def most_cpu(self) -> float:
        """The most CPU time one process of the run has used (RLIMIT_CPU's count)."""
        return self.budget.most_cpu if self.budget is not None else 0.0

    def used(self) -> dict[str, float]:
        """What the run used of its limits (for its summary)."""
        clock, budget = self.clock, self.budget
        return {
            "running_s": clock.running if clock is not None else 0.0,
            "paused_s": clock.paused_total if clock is not None else 0.0,
            "cpu_s": budget.cpu if budget is not None else 0.0,
        }

    def pause_problem(self) -> str | None:
        """Why pauses could not be verified during this run (None: they could)."""
        return self._pauses.problem if self._pauses is not None else None

    def over(self) -> tuple[str, str] | None:
        """After the run's processes are gone: a limit the kernel enforced (memory)."""
        return self.budget.ended() if self.budget is not None else None
