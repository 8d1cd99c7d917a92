"""The tracer slot: with none installed an op (or a module call) pays one `tracer()` call (~75 ns;
bench_trace measures it).

The tracer (engine/tracing) installs itself here; the engine calls only the methods of
`Observer`: `tensor_made`, `node_made`, `untracked` (an op skipped under no_grad),
`before_write` (an in-place write is about to happen), `rebased` (an in-place op's result is
the tensor written into), `version_bump`, the hooks' `hook_registered`/`hook_removed`/
`hook_before`/`hook_fired`, `grad_accumulated`, the saved tensors' `saved_packed`/
`saved_unpack`, `module_enter`/`module_exit` (nn.Module.__call__'s scope) and `drive(steps)`
(runs a backward walk, see engine/tracing/stepper.py).

Every in-place change of a tensor (its memory, or its strides: transpose_) goes through
engine/_tensor.py `writing` (or `write`, one write of the memory through it), which tells
`before_write` and `version_bump`; an in-place op's `check_inplace` tells `before_write` before
the op computes.

Calls that cut or change a tensor's autograd state are told with the frame that made the call
(`caller`), so the observer can tell the program's own calls from the engine's internal ones:
`detached` (detach(), detach_(), .data), `requires_grad_changed`, `grad_retained`,
`grad_assigned` (`.grad = ...`) and `grads_zeroed` (Optimizer/Module.zero_grad). A change of
what the observer reads of a tensor outside an op (requires_grad, grad_fn, `.grad`, the array
behind `.data = ...`) is told first, before the engine makes it: `state_changing`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from engine.autograd.node import Node
    from engine.autograd.saved_tensor import SavedTensor
    from protocol.vocab import CutKind, HookKind


class Observer(Protocol):
    """What the engine tells an observer of a run (engine/tracing's Tracer is the one)."""

    def tensor_made(self, t: Tensor) -> None: ...
    def node_made(
        self, node: Node, outputs: tuple[Tensor, ...], inputs: tuple[Any, ...]
    ) -> None: ...
    def untracked(
        self, name: str, outputs: tuple[Tensor, ...], inputs: tuple[Any, ...]
    ) -> None: ...
    def before_write(self, t: Tensor) -> None: ...
    def rebased(self, t: Tensor, out: Tensor) -> None: ...
    def version_bump(self, t: Tensor) -> None: ...
    def hook_registered(self, hook_id: int, kind: HookKind, target: Any, fn: Any) -> None: ...
    def hook_removed(self, hook_id: int) -> None: ...
    def hook_before(self, kind: str, args: tuple[Any, ...]) -> Any: ...
    def hook_fired(
        self, kind: HookKind, hook_id: int, args: tuple[Any, ...], out: Any, before: Any = None
    ) -> None: ...
    def grad_accumulated(self, var: Tensor, grad: Tensor) -> None: ...
    def saved_packed(self, saved: SavedTensor, tensor: Tensor) -> None: ...
    def saved_unpack(self, saved: SavedTensor, node: Node | None) -> None: ...
    def drive(self, steps: Iterator[Any]) -> None: ...
    def module_enter(self, module: Any, name: str | None = None) -> None: ...
    def module_exit(self, module: Any, output: Any) -> None: ...
    def detached(
        self, kind: CutKind, t: Tensor, out: Tensor | None, was_rg: bool, caller: FrameType
    ) -> None: ...
    def state_changing(self, t: Tensor, caller: FrameType) -> None: ...
    def requires_grad_changed(self, t: Tensor, caller: FrameType) -> None: ...
    def grad_retained(self, t: Tensor, caller: FrameType) -> None: ...
    def grad_assigned(self, t: Tensor, caller: FrameType) -> None: ...
    def grads_zeroed(self, params: list[Tensor], caller: FrameType) -> None: ...


TRACER: Observer | None = None  # the installed tracer; the engine reads it through `tracer()`
# saved_tensors_hooks stack: (pack, unpack) pairs, innermost last.
SAVED_HOOKS: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []


class _Private(threading.local):
    """How deep this thread is in the engine's private work (`untraced`): per thread, as grad
    mode is, so that one thread's private work neither hides another thread's ops from the
    tracer nor, restoring the slot late, uninstalls it."""

    depth = 0


_PRIVATE = _Private()


def install(tracer: Observer | None) -> None:
    """Install (or with None, remove) the tracer."""
    global TRACER
    TRACER = tracer


def tracer() -> Observer | None:
    """The tracer to tell about this thread's work: None when none is installed or inside
    `untraced`."""
    t = TRACER
    return t if t is None or not _PRIVATE.depth else None


@contextlib.contextmanager
def untraced(private: bool = True) -> Iterator[None]:
    """The engine's own work, not the user's, runs unseen by the tracer (when `private`)."""
    if not private:
        yield
        return
    _PRIVATE.depth += 1
    try:
        yield
    finally:
        _PRIVATE.depth -= 1
