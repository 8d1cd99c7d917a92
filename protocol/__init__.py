"""The wire vocabulary of backscope, defined once: every event (server → client), every command
(client → server, server → worker), and the named vocabularies they use.

Cheap types only (TypedDict + Literal, plain `typing`): producers build events as dict
literals typed by these classes, checked by mypy and free at run time (the tracer builds
~100k per run in the worker). The server validates what a worker sends against them
(`protocol.check`, msgspec); JSON Schema and `frontend/src/protocol.ts` are generated from
them (`tools/gen_ts_types.py`). Event types are the `type` literals of the classes below; the
name sets the server and the client need (`WORKER_EVENT_TYPES`, `TEXT_EVENT_TYPES`,
`RUN_COMMAND_TYPES`, `STEP_EVENT_TYPES`) are derived from them, never written out again.
One behaviour lives here too, because both producers share it and neither may import the
other: `protocol.stepping`, what the stepping commands mean (not imported by this module).

>>> ev: Stdout = {"type": "stdout", "t": 0, "text": "hi"}
>>> type_of(Stdout), "stdout" in WORKER_EVENT_TYPES, "run_finished" in WORKER_EVENT_TYPES
('stdout', True, False)
"""

from typing import Any, Union, get_args, get_type_hints

from protocol.backward import (
    BackwardFinished,
    BackwardStarted,
    GradAccumulated,
    HookFired,
    NodeEnter,
    NodeExit,
    Paused,
)
from protocol.base import EventBase
from protocol.commands import (
    Breakpoint,
    ContinueCommand,
    HaltCommand,
    PauseCommand,
    ResumeCommand,
    RunCommand,
    RunOptions,
    SetBreakpointsCommand,
    StepCommand,
    StopCommand,
    TensorValuesCommand,
)
from protocol.forward import (
    Cut,
    GradChanged,
    HookRegistered,
    HookRemoved,
    ModuleEnter,
    ModuleExit,
    NodeEvent,
    RequiresGradSet,
    RetainGrad,
    SavedPack,
    SavedUnpack,
    TensorEvent,
    UntrackedOp,
    VersionBump,
)
from protocol.run import (
    CommandError,
    Error,
    Halted,
    Queued,
    RunFinished,
    RunStarted,
    Stderr,
    Stdout,
    TensorValues,
)
from protocol.shapes import (
    DepCount,
    EdgeRef,
    Histogram,
    SavedInfo,
    Stats,
    TensorInfo,
    TensorValue,
)
from protocol.vocab import (
    INT64,
    CutKind,
    Default,
    ErrorSource,
    GradChangedHow,
    GradMode,
    HookKind,
    HookTarget,
    Int64,
    PauseWhere,
    PauseWhy,
    Range,
    RunStatus,
)

PROTOCOL_VERSION = 3
# A `tensor_values` answer is sent in chunks of at most this many elements (~1 MB of JSON)
VALUES_CHUNK = 1 << 16

# Events only the server sends: a worker that sends one is refused (a snippet can reach the
# tracer and forge any event; a forged run_finished would end the run for clients)
SERVER_EVENTS: tuple[type[Any], ...] = (RunStarted, Queued, CommandError, RunFinished)
WORKER_EVENTS: tuple[type[Any], ...] = (
    Stdout,
    Stderr,
    Error,
    Halted,
    TensorValues,
    TensorEvent,
    NodeEvent,
    UntrackedOp,
    Cut,
    RequiresGradSet,
    RetainGrad,
    VersionBump,
    GradChanged,
    HookRegistered,
    HookRemoved,
    SavedPack,
    SavedUnpack,
    ModuleEnter,
    ModuleExit,
    BackwardStarted,
    NodeEnter,
    NodeExit,
    HookFired,
    GradAccumulated,
    BackwardFinished,
    Paused,
)
EVENTS = SERVER_EVENTS + WORKER_EVENTS
# The type of an event a producer in the worker builds (for mypy; the same members as above)
WorkerEvent = Union[  # noqa: UP007
    Stdout,
    Stderr,
    Error,
    Halted,
    TensorValues,
    TensorEvent,
    NodeEvent,
    UntrackedOp,
    Cut,
    RequiresGradSet,
    RetainGrad,
    VersionBump,
    GradChanged,
    HookRegistered,
    HookRemoved,
    SavedPack,
    SavedUnpack,
    ModuleEnter,
    ModuleExit,
    BackwardStarted,
    NodeEnter,
    NodeExit,
    HookFired,
    GradAccumulated,
    BackwardFinished,
    Paused,
]
# Client → server
COMMANDS: tuple[type[Any], ...] = (
    RunCommand,
    StepCommand,
    ContinueCommand,
    PauseCommand,
    StopCommand,
    SetBreakpointsCommand,
    ResumeCommand,
    TensorValuesCommand,
)
# Server → worker: the client's run commands as validated, and the server's own
WORKER_COMMANDS: tuple[type[Any], ...] = (
    StepCommand,
    ContinueCommand,
    PauseCommand,
    StopCommand,
    SetBreakpointsCommand,
    TensorValuesCommand,
    HaltCommand,
)


def type_of(cls: type[Any]) -> str:
    """The `type` tag of an event or command class."""
    (tag,) = get_args(get_type_hints(cls)["type"])
    return str(tag)


WORKER_EVENT_TYPES = frozenset(map(type_of, WORKER_EVENTS))
SERVER_EVENT_TYPES = frozenset(map(type_of, SERVER_EVENTS))
# Events whose `text` a client appends to its console
TEXT_EVENT_TYPES = frozenset(type_of(c) for c in WORKER_EVENTS if "text" in get_type_hints(c))
# Commands that act on the session's running run (they carry an optional run_id)
RUN_COMMAND_TYPES = frozenset(type_of(c) for c in COMMANDS if "run_id" in c.__optional_keys__)
# Commands that end a pause of the stepper (others are answered while it stays paused)
PAUSE_ENDING_TYPES = frozenset(
    type_of(c) for c in (StepCommand, ContinueCommand, StopCommand, HaltCommand)
)
# The moments a backward step stops at, in the stepper and in the client's time travel
STEP_EVENTS: tuple[type[Any], ...] = (
    NodeEnter,
    HookFired,
    SavedUnpack,
    NodeExit,
    BackwardFinished,
    Error,
)
STEP_EVENT_TYPES = frozenset(map(type_of, STEP_EVENTS))

__all__ = [
    "COMMANDS",
    "EVENTS",
    "INT64",
    "PAUSE_ENDING_TYPES",
    "PROTOCOL_VERSION",
    "RUN_COMMAND_TYPES",
    "SERVER_EVENTS",
    "SERVER_EVENT_TYPES",
    "STEP_EVENTS",
    "STEP_EVENT_TYPES",
    "TEXT_EVENT_TYPES",
    "VALUES_CHUNK",
    "WORKER_COMMANDS",
    "WORKER_EVENTS",
    "WORKER_EVENT_TYPES",
    "BackwardFinished",
    "BackwardStarted",
    "Breakpoint",
    "CommandError",
    "ContinueCommand",
    "Cut",
    "CutKind",
    "Default",
    "DepCount",
    "EdgeRef",
    "Error",
    "ErrorSource",
    "EventBase",
    "GradAccumulated",
    "GradChanged",
    "GradChangedHow",
    "GradMode",
    "HaltCommand",
    "Halted",
    "Histogram",
    "HookFired",
    "HookKind",
    "HookRegistered",
    "HookRemoved",
    "HookTarget",
    "Int64",
    "ModuleEnter",
    "ModuleExit",
    "NodeEnter",
    "NodeEvent",
    "NodeExit",
    "PauseCommand",
    "PauseWhere",
    "PauseWhy",
    "Paused",
    "Queued",
    "Range",
    "RequiresGradSet",
    "ResumeCommand",
    "RetainGrad",
    "RunCommand",
    "RunFinished",
    "RunOptions",
    "RunStarted",
    "RunStatus",
    "SavedInfo",
    "SavedPack",
    "SavedUnpack",
    "SetBreakpointsCommand",
    "Stats",
    "Stderr",
    "Stdout",
    "StepCommand",
    "StopCommand",
    "TensorEvent",
    "TensorInfo",
    "TensorValue",
    "TensorValues",
    "TensorValuesCommand",
    "UntrackedOp",
    "VersionBump",
    "WorkerEvent",
    "type_of",
]
