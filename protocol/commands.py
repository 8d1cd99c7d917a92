"""Commands: client → server over the websocket, and server → worker on the control channel.

A command that acts on a run has an optional `run_id` (the session's run when left out; a
different id is refused); `run` and `resume` name no running run.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from protocol.vocab import Default, Int64, Range, RunStatus

# The stepper's breakpoints: any field set matches (a node id, an op name, a snippet line, a
# NaN in the gradients a node gets)


class Breakpoint(TypedDict):
    node_id: NotRequired[Int64 | None]
    op: NotRequired[str | None]
    line: NotRequired[Int64 | None]
    on_nan: NotRequired[Annotated[bool, Default(False)]]


class RunOptions(TypedDict):
    """What a client may choose for its run (never a server limit: the server adds those)."""

    pause_in_backward: NotRequired[Annotated[bool, Default(False)]]
    breakpoints: NotRequired[Annotated[list[Breakpoint], Default([])]]
    # fewer events than the server's limit (the run_started event alone is one)
    max_events: NotRequired[Annotated[int, Range(ge=1, le=2**63 - 1)] | None]
    inline_limit: NotRequired[Annotated[int, Range(ge=0, le=1 << 20), Default(64)]]


class RunCommand(TypedDict):
    """Start a run of `code`; `replace` stops this session's active run first instead of
    refusing."""

    type: Literal["run"]
    code: str
    options: NotRequired[Annotated[RunOptions, Default({})]]
    replace: NotRequired[Annotated[bool, Default(False)]]


class StepCommand(TypedDict):
    """Advance one backward node."""

    type: Literal["step"]
    run_id: NotRequired[str | None]


class ContinueCommand(TypedDict):
    type: Literal["continue"]
    run_id: NotRequired[str | None]


class PauseCommand(TypedDict):
    type: Literal["pause"]
    run_id: NotRequired[str | None]


class StopCommand(TypedDict):
    type: Literal["stop"]
    run_id: NotRequired[str | None]


class SetBreakpointsCommand(TypedDict):
    type: Literal["set_breakpoints"]
    run_id: NotRequired[str | None]
    breakpoints: list[Breakpoint]


class ResumeCommand(TypedDict):
    """Reconnect: send the events of `run_id` after `after_seq` (-1 for all)."""

    type: Literal["resume"]
    run_id: str
    after_seq: NotRequired[Annotated[int, Range(ge=-1, le=2**63 - 1), Default(-1)]]


class TensorValuesCommand(TypedDict):
    """Ask the live worker for a tensor's full values (answered by `tensor_values` events in
    chunks, up to the server's per-request element cap)."""

    type: Literal["tensor_values"]
    run_id: NotRequired[str | None]
    tensor_id: Int64


class HaltCommand(TypedDict):
    """Server → worker only: the server is about to end the run (`why`); send what you have
    and say where you are. The server kills the worker shortly after, whatever it does."""

    type: Literal["halt"]
    why: RunStatus
