"""What the tracer keeps on the hot path: one named tuple per observed moment, built into
events later (`build.py`, in batches). Each starts with `ts` (perf_counter ns), the snippet
`line` and `frame` (or None) so the batch side can read the user's names from the frame.

Hot captures are made with `tuple.__new__(Cls, (...))`: a NamedTuple's own constructor is a
Python function and costs several times more. The field order is the NamedTuple's.
"""

from typing import Any, NamedTuple

from engine._tensor import Tensor
from engine.autograd.graph import Node, SavedTensor
from protocol import CutKind, GradChangedHow, GradMode, HookKind

# (the ones below only carry references: values are read when the batch is built, which the
# tracer makes happen before any in-place write to a tensor a pending capture refers to)


class TensorMade(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    tensor: Tensor
    mode: GradMode
    backward: int | None


class NodeMade(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    node: Node
    outputs: tuple[Tensor, ...]
    inputs: tuple[Any, ...]
    mode: GradMode
    module_path: str | None
    module_calls: tuple[int, ...] | None
    backward: int | None
    rank: int = -1  # the torch.distributed rank of the thread that made it (-1: none)


class Untracked(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    name: str
    outputs: tuple[Tensor, ...]
    inputs: tuple[Any, ...]
    mode: GradMode
    module_path: str | None
    module_calls: tuple[int, ...] | None


class CutMade(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    kind: CutKind
    tensor: Tensor
    output: Tensor | None


class RequiresGradSet(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    tensor: Tensor
    value: bool


class GradRetained(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    tensor: Tensor


class Bumped(NamedTuple):
    """`data`: a copy of a small tensor's values (a large one is read at build time)."""

    ts: int
    line: int | None
    frame: Any
    tensor: Tensor
    version: int
    data: Any
    grad_fn: Node | None


class GradReset(NamedTuple):
    """`.grad` of `tensor` changed outside backward; `data` a copy of its new values."""

    ts: int
    line: int | None
    frame: Any
    tensor: Tensor
    how: GradChangedHow
    data: Any
    hook: int | None


class HookRegistered(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    hook: int
    kind: HookKind
    target: Any
    fn: Any
    module_path: str | None


class HookRemoved(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    hook: int


class HookFired(NamedTuple):
    """`before`: for a post-accumulate hook, (the .grad it was given, its version, its wire
    value) kept before it ran (it may change or clear .grad)."""

    ts: int
    line: int | None
    frame: Any
    kind: HookKind
    hook: int
    args: tuple[Any, ...]
    out: Any
    backward: int | None
    node: Node | None
    before: Any
    module_path: str | None


class Accumulated(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    backward: int
    node: Node | None
    tensor: Tensor
    grad: Tensor
    total: Tensor | None


class Unpacked(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    saved: SavedTensor
    node: Node | None
    name: str | None


class ModuleEntered(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    path: str
    module_type: str
    call: int


class ModuleExited(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    path: str | None
    call: int | None
    output_shape: list[int] | None


class Raw(NamedTuple):
    """An event built by the caller (printed text, errors, pauses), without its `t`."""

    ts: int
    line: int | None
    frame: Any
    event: dict[str, Any]


class BackwardStarted(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    backward: int
    roots: list[tuple[Node | None, int]]
    grads: list[Any]
    retain_graph: bool
    create_graph: bool
    inputs: list[Any]


class Entered(NamedTuple):
    """A node about to run: its gradients, the ready queue's entries, and the dependency
    counts of its next functions (None for a missing edge)."""

    ts: int
    line: int | None
    frame: Any
    backward: int
    node: Node
    grads: list[Any]
    queue: list[Any]
    deps: tuple[int, ...]


class Exited(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    backward: int
    node: Node
    grads: list[Any]
    freed: bool


class BackwardFinished(NamedTuple):
    ts: int
    line: int | None
    frame: Any
    backward: int
    nodes_run: int
