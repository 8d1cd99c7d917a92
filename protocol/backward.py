"""Backward events: a pass's start and end, each node's entry and exit, hooks as they fire,
gradients accumulated, buffers freed, and the stepper's pauses."""

from typing import Literal

from protocol.base import EventBase
from protocol.shapes import DepCount, EdgeRef, TensorValue
from protocol.vocab import HookKind, PauseWhere, PauseWhy


class BackwardStarted(EventBase):
    """A backward pass (`backward()` or `autograd.grad`), numbered from 0 per run."""

    type: Literal["backward_started"]
    backward: int
    roots: list[EdgeRef]
    grad_tensors: list[TensorValue | None]
    retain_graph: bool
    create_graph: bool
    inputs: list[int | None]
    line: int | None


class NodeEnter(EventBase):
    """A node is about to run: the gradients it gets, the ready queue, and the dependency
    counts of its next functions."""

    type: Literal["node_enter"]
    backward: int
    node: int | None
    grad_outputs: list[TensorValue | None]
    queue: list[int | None]
    deps: list[DepCount]


class NodeExit(EventBase):
    """A node has run: the gradients it sends along its edges; `freed`: its saved tensors were
    freed as it finished (the pass does not retain the graph, and it saved some). Protocol 2
    logs sent a separate `buffers_freed` event for that instead."""

    type: Literal["node_exit"]
    backward: int
    node: int | None
    grad_inputs: list[TensorValue | None]
    freed: bool


class HookFired(EventBase):
    """A hook ran, once per call as PyTorch calls it: `grad_in` what it was given, `grad_out`
    what it returned (null when it returned None: unchanged). A module forward hook's
    `grad_in` are the module's tensor inputs and `grad_out` its replaced output;
    `backward`/`node` are null outside backward. `module_path` names a module hook's module."""

    type: Literal["hook_fired"]
    hook: int
    kind: HookKind
    backward: int | None
    node: int | None
    grad_in: list[TensorValue | None]
    grad_out: list[TensorValue | None] | None
    module_path: str | None


class GradAccumulated(EventBase):
    """`grad` was added into the leaf `tensor`'s `.grad`, which is now `total`."""

    type: Literal["grad_accumulated"]
    backward: int
    node: int | None
    tensor: int | None
    grad: TensorValue | None
    total: TensorValue | None


class BackwardFinished(EventBase):
    type: Literal["backward_finished"]
    backward: int
    nodes_run: int


class Paused(EventBase):
    """The stepper waits for a command: before a node, or at the end (`finished`: the
    snippet is done and the worker answers `tensor_values` until another command)."""

    type: Literal["paused"]
    node: int | None
    backward: int | None
    where: PauseWhere
    why: PauseWhy
