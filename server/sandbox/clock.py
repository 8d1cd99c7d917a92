"""A run's wall clock: time running, and time in a pause the server has verified.

Time counts as paused only between two looks that both found the run waiting for a command
(server.sandbox.pause) with nothing run in between; every other moment is running time, whatever
the run says about itself. A pause's own (longer) limit counts from the first such look until
the user resumes the run.

>>> clock = RunClock(now=0.0)
>>> clock.advance(0.1, token=None)           # running
>>> clock.advance(0.2, token=(7, 100))       # seen waiting: the span before is still running
>>> clock.advance(5.2, token=(7, 100))       # waiting all along: 5 s paused
>>> clock.running, clock.paused
(0.2, 5.0)
"""

from __future__ import annotations

# how often the clock looks at a run, and how often (for a short while) when a pause is
# claimed or a command resumed the run: a stepped node costs the wall clock its own run time
# plus at most one quick look, not a whole tick
TICK = 0.1
QUICK_TICK = 0.01
QUICK_FOR = 1.0


class RunClock:
    """Running time and the current pause of one run."""

    def __init__(self, now: float) -> None:
        self.running = 0.0
        self.paused = 0.0  # the current pause (since the user last resumed the run)
        self.paused_total = 0.0
        self._last = now
        self._token: tuple[int, ...] | None = None

    @property
    def waiting(self) -> bool:
        """Whether the last look found the run waiting for a command."""
        return self._token is not None

    def advance(self, now: float, token: tuple[int, ...] | None) -> None:
        """Account the time since the last look; `token` is what this look found (None: not
        waiting on its channel)."""
        span = max(0.0, now - self._last)
        if token is not None and token == self._token:
            self.paused += span
            self.paused_total += span
        else:
            self.running += span
        self._token, self._last = token, now

    def resumed(self) -> None:
        """The user resumed the run: the next pause has its limit afresh."""
        self.paused = 0.0
