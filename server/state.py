"""Explicit state for the server's long-lived objects: a small enum per object and the moves it
allows; any other move is refused (as starlette's WebSocketState), never silently taken.

>>> m = Machine(RunState.STARTING, RUN_MOVES)
>>> m.move(RunState.RUNNING); m.move(RunState.STARTING)
Traceback (most recent call last):
IllegalTransition: run cannot go from running to starting
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Generic, TypeVar


class IllegalTransition(RuntimeError):
    """A move the object's state does not allow (a bug in the caller, never a client's)."""


class RunState(enum.Enum):
    """A live run, from the click to its log in storage."""

    STARTING = "starting"  # waiting for a sandbox slot (queued)
    RUNNING = "running"  # a worker runs the snippet
    STOPPING = "stopping"  # asked to end (user, limit, shutdown); the worker is being ended
    FINISHED = "finished"  # run_finished is in the log; nothing more is appended
    ARCHIVED = "archived"  # the whole log is in storage, and served from there


class SessionState(enum.Enum):
    """One websocket connection."""

    IDLE = "idle"  # no run
    CONTROLLING = "controlling"  # its owner's session: follows a run and may command it
    WATCHING = "watching"  # follows a run read-only (a share link, a stored run)
    CLOSED = "closed"


class ManagerState(enum.Enum):
    """The run manager: serving, then (SIGTERM) refusing new runs while in-flight ones end."""

    SERVING = "serving"
    DRAINING = "draining"
    STOPPED = "stopped"


RUN_MOVES: Mapping[RunState, frozenset[RunState]] = {
    RunState.STARTING: frozenset({RunState.RUNNING, RunState.STOPPING, RunState.FINISHED}),
    RunState.RUNNING: frozenset({RunState.STOPPING, RunState.FINISHED}),
    RunState.STOPPING: frozenset({RunState.FINISHED}),
    RunState.FINISHED: frozenset({RunState.ARCHIVED}),
    RunState.ARCHIVED: frozenset(),
}
_OPEN = frozenset({SessionState.IDLE, SessionState.CONTROLLING, SessionState.WATCHING})
SESSION_MOVES: Mapping[SessionState, frozenset[SessionState]] = {
    SessionState.IDLE: _OPEN | {SessionState.CLOSED},
    SessionState.CONTROLLING: _OPEN | {SessionState.CLOSED},
    SessionState.WATCHING: _OPEN | {SessionState.CLOSED},
    SessionState.CLOSED: frozenset(),
}
MANAGER_MOVES: Mapping[ManagerState, frozenset[ManagerState]] = {
    ManagerState.SERVING: frozenset({ManagerState.DRAINING}),
    ManagerState.DRAINING: frozenset({ManagerState.STOPPED}),
    ManagerState.STOPPED: frozenset(),
}

S = TypeVar("S", bound=enum.Enum)


class Machine(Generic[S]):
    """A current state and the moves allowed from each state."""

    def __init__(self, start: S, moves: Mapping[S, frozenset[S]], what: str = "") -> None:
        self.state = start
        self._moves = moves
        self._what = what or type(start).__name__.removesuffix("State").lower()

    def move(self, to: S) -> None:
        if to not in self._moves[self.state]:
            raise IllegalTransition(f"{self._what} cannot go from {self.state.value} to {to.value}")
        self.state = to

    def can(self, to: S) -> bool:
        return to in self._moves[self.state]

    def __repr__(self) -> str:
        return f"Machine({self.state})"
