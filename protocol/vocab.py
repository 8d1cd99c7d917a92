"""Named vocabularies of the wire (statuses, grad modes, hook kinds, ...) and the two markers
that give a field a range or a default. Plain `typing` only: the worker imports this."""

from dataclasses import dataclass
from typing import Annotated, Any, Literal

# How a run ended (run_finished.status, the sandbox's error events): the server decides.
# "interrupted": the server stopped or crashed during the run (its log is what was saved)
RunStatus = Literal["ok", "error", "timeout", "killed", "limit", "stopped", "interrupted"]
# The grad mode an op or tensor was made in
GradMode = Literal["grad", "no_grad", "inference_mode"]
# Who reports an error: the snippet raised, the sandbox ended the run, the server failed
ErrorSource = Literal["snippet", "sandbox", "server"]
# Where a hook was registered (hook_registered.kind, hook_fired.kind)
HookKind = Literal[
    "tensor",
    "node_pre",
    "node_post",
    "post_accumulate",
    "module_forward_pre",
    "module_forward",
    "module_backward_pre",
    "module_backward",
]
HookTarget = Literal["tensor", "node", "module"]
PauseWhere = Literal["before_node", "end"]
PauseWhy = Literal["step", "breakpoint", "pause", "nan", "finished"]
# A cut point made by a call (no_grad/inference_mode ops are `untracked_op` events)
CutKind = Literal["detach", "detach_", "data"]
# How a `.grad` changed outside backward's accumulation: zero_grad() to None or to zeros,
# assigned by the snippet, left changed by a post-accumulate hook, or written in place
# (clip_grad_norm_, `p.grad.mul_(...)`, `p.grad.data.zero_()`)
GradChangedHow = Literal["set_to_none", "zeroed", "assigned", "hook", "written"]


@dataclass(frozen=True)
class Range:
    """An integer field's bounds (inclusive), checked where the server validates."""

    ge: int | None = None
    le: int | None = None


@dataclass(frozen=True)
class Default:
    """A field's value when it is left out (a command's option)."""

    value: Any


INT64 = Range(ge=-(2**63), le=2**63 - 1)
# Integers a client sends fit in 64 bits: a bigger one would fail deep inside (SQLite, orjson)
# instead of getting a typed error.
Int64 = Annotated[int, INT64]
