"""How a run ends early: the event cap, a `stop` command, a halt from outside (a time limit, the
user's stop) that sends what was captured and says where the snippet was."""

from __future__ import annotations

from types import FrameType
from typing import TYPE_CHECKING

from protocol import RunStatus

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer


class EventLimit(BaseException):
    """Raised when a run reaches its event cap (a BaseException: `except Exception` in the
    user's snippet must not swallow it)."""


class RunStopped(BaseException):
    """A `stop` command ended the run (not an error in the snippet)."""


class RunHalted(RunStopped):
    """The run is being ended from outside (a time limit, the user's stop): the tracer has
    sent what it had and said where the snippet was."""

    def __init__(self, why: RunStatus) -> None:
        super().__init__(why)
        self.why: RunStatus = why


def halt(self: Tracer, why: RunStatus, frame: FrameType | None) -> None:
    """The server is about to end the run (a signal handler calls this between two
    bytecodes of the snippet): send what was captured, say where the snippet is, and
    raise RunHalted. Inside a flush, the flush finishes first (a frame half sent would
    break the stream)."""
    if self.flushing:
        self.halting = (why, frame)
        return
    self._halt(why, frame)


def halt_now(self: Tracer, why: RunStatus, frame: FrameType | None) -> None:
    lines = []
    f = frame
    while f is not None:
        if f.f_code.co_filename == self.filename:
            lines.append(f.f_lineno)
        f = f.f_back
    lines.reverse()
    self.flush()
    self.emit(
        {
            "type": "halted",
            "t": self.now(),
            "why": why,
            "line": lines[-1] if lines else None,
            "lines": lines,
        }
    )
    self.flush()
    raise RunHalted(why)
