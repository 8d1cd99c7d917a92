"""The explicit states of a run, a session and the manager: the moves each allows, and the
others refused."""

from __future__ import annotations

import pytest

from server.state import (
    MANAGER_MOVES,
    RUN_MOVES,
    SESSION_MOVES,
    IllegalTransition,
    Machine,
    ManagerState,
    RunState,
    SessionState,
)


def test_a_run_goes_forward_only() -> None:
    m = Machine(RunState.STARTING, RUN_MOVES, "run")
    for state in (RunState.RUNNING, RunState.STOPPING, RunState.FINISHED, RunState.ARCHIVED):
        m.move(state)
    for state in RunState:
        with pytest.raises(IllegalTransition, match="run cannot go from archived"):
            m.move(state)


@pytest.mark.parametrize("start", list(RunState))
def test_no_run_state_goes_back(start: RunState) -> None:
    order = list(RunState)
    for to in order[: order.index(start) + 1]:
        assert not Machine(start, RUN_MOVES).can(to)


def test_a_closed_session_stays_closed() -> None:
    m = Machine(SessionState.IDLE, SESSION_MOVES, "session")
    m.move(SessionState.CONTROLLING)
    m.move(SessionState.WATCHING)
    m.move(SessionState.CLOSED)
    with pytest.raises(IllegalTransition):
        m.move(SessionState.IDLE)


def test_the_manager_drains_once() -> None:
    m = Machine(ManagerState.SERVING, MANAGER_MOVES)
    m.move(ManagerState.DRAINING)
    with pytest.raises(IllegalTransition):
        m.move(ManagerState.SERVING)
    m.move(ManagerState.STOPPED)
