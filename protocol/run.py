"""Run lifecycle events: start, queue, printed text, errors, halts, answers, the end."""

from typing import Any, Literal, NotRequired

from protocol.base import EventBase
from protocol.commands import RunOptions
from protocol.vocab import ErrorSource, RunStatus


class RunStarted(EventBase):
    """The server accepted a run (always seq 0). `engine`: what ran the code, for the page's
    badge: absent for backscope's own engine (the sandbox), "PyTorch 2.13.0" for real torch
    in the user's own process (`backscope run --torch`, `backscope.watch()`)."""

    type: Literal["run_started"]
    version: int
    code: str
    options: RunOptions
    engine: NotRequired[str]


class Queued(EventBase):
    """The run waits for a sandbox slot; `position` 0 is next."""

    type: Literal["queued"]
    position: int


class Stdout(EventBase):
    type: Literal["stdout"]
    text: str


class Stderr(EventBase):
    type: Literal["stderr"]
    text: str


class Error(EventBase):
    """Something ended the run. `source` says who reports it: the snippet raised
    (`error_type` is PyTorch's exception type, `line` the snippet's line, `traceback`
    Python's), the sandbox ended the run (`error_type` is the run's status: timeout, killed,
    limit, error; `line` the line the worker was executing when it was stopped, if it said),
    or the server failed to run it (`error_type` names what failed). `node`: the backward
    node that raised; `anomaly_trace`: its forward trace under detect_anomaly."""

    type: Literal["error"]
    source: ErrorSource
    error_type: str
    message: str
    line: int | None
    traceback: str
    node: NotRequired[int | None]
    anomaly_trace: NotRequired[list[str] | None]


class Halted(EventBase):
    """The worker was told to stop while the snippet ran (time limit, the user's stop) and
    got to say where it was: `line` is the snippet line it was executing (null when it was
    not in the snippet's own code), `lines` the snippet's frames, outermost first. Every
    event it had captured was sent before this one."""

    type: Literal["halted"]
    why: RunStatus
    line: int | None
    lines: list[int]


class TensorValues(EventBase):
    """An answer to `tensor_values`: the tensor's full values, flat in C order, in chunks of
    at most `VALUES_CHUNK` elements (`offset` is the first element's index, `total` the
    tensor's element count, `last` true on the final chunk), or one event with an `error`
    and no `values`."""

    type: Literal["tensor_values"]
    tensor_id: int | None
    shape: list[int] | None
    dtype: str | None
    offset: int
    total: int
    values: NotRequired[list[Any]]
    last: bool
    error: NotRequired[str]


class CommandError(EventBase):
    """A client command could not be understood or was refused (the connection stays up);
    not part of any run's log (seq -1)."""

    type: Literal["command_error"]
    message: str
    raw: str | None


class RunFinished(EventBase):
    """The run has ended: how, how many events its log holds, how long it took."""

    type: Literal["run_finished"]
    status: RunStatus
    events: int
    duration_ns: int
