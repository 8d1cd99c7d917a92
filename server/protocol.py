"""Every wire model: events (server → client) and commands (client → server).

One definition: `tools/gen_ts_types.py` turns the JSON Schema of `Event` and `Command` into
`frontend/src/protocol.ts`. Every event carries `run_id`, `seq` (dense from 0 per run) and
`t` (ns since the run started).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

PROTOCOL_VERSION = 1


# Integers a client sends fit in 64 bits: a bigger one would fail deep inside (SQLite, orjson)
# instead of getting a typed error.
Int64 = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]


class Model(BaseModel):
    """Base of every wire model: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


# -- shared shapes -------------------------------------------------------------------------
class Stats(Model):
    min: float
    max: float
    mean: float
    std: float


class Histogram(Model):
    edges: list[float]
    counts: list[int]


class TensorValue(Model):
    """Small tensors inline (`values`, non-finite floats as "nan"/"inf"/"-inf"); large ones as
    exact stats and NaN/Inf counts, the first 16 elements (`sample`) and a 16-bin histogram of
    an evenly strided sample of at most 4096 elements."""

    shape: list[int]
    dtype: str
    values: Any = None
    sample: Any = None
    nan: int | None = None
    inf: int | None = None
    stats: Stats | None = None
    hist: Histogram | None = None


class TensorInfo(Model):
    id: int
    shape: list[int]
    dtype: str
    requires_grad: bool
    is_leaf: bool
    version: int
    grad_fn: int | None
    output_nr: int
    name: str | None
    line: int | None
    value: TensorValue


class EdgeRef(Model):
    """One entry of `next_functions`: (node id or null, input number)."""

    node: int | None
    input_nr: int


class SavedInfo(Model):
    name: str
    tensor: int | None = None
    version: int | None = None
    hooked: bool = False
    repr: str | None = None


class DepCount(Model):
    node: int | None
    count: int


class Breakpoint(Model):
    node_id: Int64 | None = None
    op: str | None = None
    line: Int64 | None = None
    on_nan: bool = False


class RunOptions(Model):
    pause_in_backward: bool = False
    breakpoints: list[Breakpoint] = []
    max_events: Int64 | None = None
    inline_limit: int = Field(default=64, ge=0, le=1 << 20)


class EventBase(Model):
    run_id: str
    seq: int
    t: int


# -- run lifecycle -------------------------------------------------------------------------
class RunStarted(EventBase):
    type: Literal["run_started"] = "run_started"
    version: int
    code: str
    options: RunOptions


class RunFinished(EventBase):
    type: Literal["run_finished"] = "run_finished"
    status: Literal["ok", "error", "timeout", "killed", "limit", "stopped"]
    events: int
    duration_ns: int


class Queued(EventBase):
    type: Literal["queued"] = "queued"
    position: int


class Stdout(EventBase):
    type: Literal["stdout"] = "stdout"
    text: str


class Stderr(EventBase):
    type: Literal["stderr"] = "stderr"
    text: str


class Error(EventBase):
    """The snippet raised: PyTorch's type and message, the snippet line, the traceback."""

    type: Literal["error"] = "error"
    error_type: str
    message: str
    line: int | None
    traceback: str
    node: int | None = None
    anomaly_trace: list[str] | None = None


class CommandError(EventBase):
    """A client command could not be understood (the connection stays up)."""

    type: Literal["command_error"] = "command_error"
    message: str
    raw: str | None = None


# -- forward -------------------------------------------------------------------------------
class TensorEvent(EventBase):
    type: Literal["tensor"] = "tensor"
    tensor: TensorInfo


class NodeEvent(EventBase):
    type: Literal["node"] = "node"
    id: int
    name: str
    next: list[EdgeRef]
    inputs: list[int | None]
    outputs: list[TensorInfo]
    saved: list[SavedInfo]
    line: int | None
    grad_mode: str
    module_path: str | None
    # the call number of each module on module_path (two calls of one module are two scopes)
    module_calls: list[int] | None = None
    variable: int | None


class UntrackedOp(EventBase):
    """An op on tensors requiring grad run under no_grad/inference_mode: a cut point."""

    type: Literal["untracked_op"] = "untracked_op"
    name: str
    inputs: list[int | None]
    outputs: list[TensorInfo]
    line: int | None
    grad_mode: str


class VersionBump(EventBase):
    type: Literal["version_bump"] = "version_bump"
    tensor: int | None
    version: int
    grad_fn: int | None
    line: int | None
    value: TensorValue


class HookRegistered(EventBase):
    type: Literal["hook_registered"] = "hook_registered"
    hook: int
    kind: str
    target_kind: str
    target: int | None
    fn: str
    line: int | None


class HookRemoved(EventBase):
    type: Literal["hook_removed"] = "hook_removed"
    hook: int
    line: int | None


class SavedPack(EventBase):
    type: Literal["saved_pack"] = "saved_pack"
    node: int | None
    name: str
    tensor: int | None
    packed_type: str


class SavedUnpack(EventBase):
    type: Literal["saved_unpack"] = "saved_unpack"
    node: int | None
    name: str | None = None  # which of the node's saved tensors (as in its `saved` list)


class ModuleEnter(EventBase):
    type: Literal["module_enter"] = "module_enter"
    path: str
    module_type: str
    line: int | None
    call: int = 0


class ModuleExit(EventBase):
    type: Literal["module_exit"] = "module_exit"
    path: str | None
    call: int | None = None


# -- backward ------------------------------------------------------------------------------
class BackwardStarted(EventBase):
    type: Literal["backward_started"] = "backward_started"
    backward: int
    roots: list[EdgeRef]
    grad_tensors: list[TensorValue | None]
    retain_graph: bool
    create_graph: bool
    inputs: list[int | None]
    line: int | None


class NodeEnter(EventBase):
    type: Literal["node_enter"] = "node_enter"
    backward: int
    node: int | None
    grad_outputs: list[TensorValue | None]
    queue: list[int | None]
    deps: list[DepCount]


class NodeExit(EventBase):
    type: Literal["node_exit"] = "node_exit"
    backward: int
    node: int | None
    grad_inputs: list[TensorValue | None]


class HookFired(EventBase):
    """A hook ran; `grad_out` is null when it returned None (gradient unchanged)."""

    type: Literal["hook_fired"] = "hook_fired"
    hook: int
    kind: str
    backward: int
    node: int | None
    grad_in: list[TensorValue | None]
    grad_out: list[TensorValue | None] | None


class GradAccumulated(EventBase):
    type: Literal["grad_accumulated"] = "grad_accumulated"
    backward: int
    node: int | None
    tensor: int | None
    grad: TensorValue | None
    total: TensorValue | None


class BuffersFreed(EventBase):
    type: Literal["buffers_freed"] = "buffers_freed"
    backward: int
    node: int | None


class BackwardFinished(EventBase):
    type: Literal["backward_finished"] = "backward_finished"
    backward: int
    nodes_run: int


class Paused(EventBase):
    type: Literal["paused"] = "paused"
    node: int | None
    backward: int | None
    where: Literal["before_node", "end"]
    why: Literal["step", "breakpoint", "pause", "nan", "finished"]


class TensorValues(EventBase):
    type: Literal["tensor_values"] = "tensor_values"
    tensor_id: Any = None
    shape: list[int] | None = None
    dtype: str | None = None
    values: Any = None
    error: str | None = None


Event = Annotated[
    RunStarted
    | RunFinished
    | Queued
    | Stdout
    | Stderr
    | Error
    | CommandError
    | TensorEvent
    | NodeEvent
    | UntrackedOp
    | VersionBump
    | HookRegistered
    | HookRemoved
    | SavedPack
    | SavedUnpack
    | ModuleEnter
    | ModuleExit
    | BackwardStarted
    | NodeEnter
    | NodeExit
    | HookFired
    | GradAccumulated
    | BuffersFreed
    | BackwardFinished
    | Paused
    | TensorValues,
    Field(discriminator="type"),
]


# -- commands (client → server) ------------------------------------------------------------
class RunCommand(Model):
    type: Literal["run"] = "run"
    code: str
    options: RunOptions = RunOptions()
    # stop this session's active run first instead of refusing
    replace: bool = False


class StepCommand(Model):
    """Advance one backward node."""

    type: Literal["step"] = "step"
    run_id: str | None = None


class ContinueCommand(Model):
    type: Literal["continue"] = "continue"
    run_id: str | None = None


class PauseCommand(Model):
    type: Literal["pause"] = "pause"
    run_id: str | None = None


class StopCommand(Model):
    type: Literal["stop"] = "stop"
    run_id: str | None = None


class SetBreakpointsCommand(Model):
    type: Literal["set_breakpoints"] = "set_breakpoints"
    run_id: str | None = None
    breakpoints: list[Breakpoint]


class ResumeCommand(Model):
    """Reconnect: send the events of `run_id` after `after_seq` (-1 for all)."""

    type: Literal["resume"] = "resume"
    run_id: str
    after_seq: int = Field(default=-1, ge=-1, le=2**63 - 1)


class TensorValuesCommand(Model):
    type: Literal["tensor_values"] = "tensor_values"
    run_id: str | None = None
    tensor_id: Int64


Command = Annotated[
    RunCommand
    | StepCommand
    | ContinueCommand
    | PauseCommand
    | StopCommand
    | SetBreakpointsCommand
    | ResumeCommand
    | TensorValuesCommand,
    Field(discriminator="type"),
]

EVENT: TypeAdapter[Event] = TypeAdapter(Event)
COMMAND: TypeAdapter[Command] = TypeAdapter(Command)


def parse_command(
    raw: str | bytes, run_id: str = "", seq: int = 0, t: int = 0
) -> Command | CommandError:
    """A command from raw JSON, or the typed error event to send back (never raises)."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        return CommandError(
            run_id=run_id, seq=seq, t=t, message=f"invalid JSON: {e}", raw=_clip(raw)
        )
    try:
        return COMMAND.validate_python(data)
    except ValidationError as e:
        msgs = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        return CommandError(run_id=run_id, seq=seq, t=t, message=msgs, raw=_clip(raw))


def _clip(raw: str | bytes) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return text[:1000]
