"""Changes to a tensor's autograd state: the snippet's own calls (detach/.data cuts,
requires_grad_, retain_grad, `.grad` assigned or zeroed; the engine's internal calls are not
told) and gradients accumulated into a leaf's `.grad`."""

from __future__ import annotations

import time
import weakref
from types import FrameType
from typing import TYPE_CHECKING

from engine._tensor import Tensor
from engine.autograd.graph import AccumulateGrad
from engine.tracing import captures as cap
from protocol import CutKind, GradChangedHow

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns


def by_snippet(self: Tracer, caller: FrameType | None, through: str | None = None) -> bool:
    """Whether `caller` is the snippet's own code (skipping frames of functions named
    `through`, e.g. requires_grad_): the engine's internal calls are not cut points."""
    if through is not None:
        while caller is not None and caller.f_code.co_name == through:
            caller = caller.f_back
    return caller is not None and caller.f_code.co_filename == self.filename


def detached(
    self: Tracer, kind: CutKind, t: Tensor, out: Tensor | None, was_rg: bool, caller: FrameType
) -> None:
    """detach()/detach_()/.data was called on `t` (`was_rg`: t required grad before)."""
    if kind == "data":
        if not self._by_snippet(caller):
            return
        assert out is not None
        self.alias(out, t)
    elif not was_rg or not self._by_snippet(caller):
        return
    if was_rg:
        self.cut(kind, t, out)


def state_changing(self: Tracer, t: Tensor, caller: FrameType) -> None:
    """The snippet is about to change what a built event says of `t` (requires_grad, grad_fn,
    `.grad`, its array): the captures made before are built first, reading `t` as it was
    (`p = torch.tensor([4.], requires_grad=True); p.requires_grad_(False)`: p was made
    requiring grad, and the flip is the cut point). The engine's own changes are not told
    here: a factory's requires_grad=True is part of the op its capture shows."""
    if self.buf and self._by_snippet(caller, "requires_grad_"):
        if self.saving is not None:
            self._number_saved()  # (the last op has returned: it has stashed what it saves)
        self._build(len(self.buf))


def requires_grad_changed(self: Tracer, t: Tensor, caller: FrameType) -> None:
    """`t.requires_grad` was just flipped (the engine tells only a change)."""
    if self._by_snippet(caller, "requires_grad_"):
        self.requires_grad_set(t, t._rg)


def grad_retained(self: Tracer, t: Tensor, caller: FrameType) -> None:
    if self._by_snippet(caller):
        self.retain_grad(t)


def grad_assigned(self: Tracer, t: Tensor, caller: FrameType) -> None:
    if self._by_snippet(caller):
        self.grad_reset(t, "assigned")


def grads_zeroed(self: Tracer, params: list[Tensor], caller: FrameType) -> None:
    """zero_grad reset the `.grad` of `params` (each had one)."""
    if self._by_snippet(caller):
        for p in params:
            self.grad_reset(p, "set_to_none" if p._grad is None else "zeroed")


def cut(self: Tracer, kind: CutKind, t: Tensor, out: Tensor | None) -> None:
    """The snippet called detach()/.data/detach_() on `t`."""
    line, frame = self._site()
    self.unbuilt.add(id(t._ver))
    self._add(cap.CutMade(_ns(), line, frame, kind, t, out))


def requires_grad_set(self: Tracer, t: Tensor, value: bool) -> None:
    line, frame = self._site()
    self._add(cap.RequiresGradSet(_ns(), line, frame, t, value))


def retain_grad(self: Tracer, t: Tensor) -> None:
    line, frame = self._site()
    self._add(cap.GradRetained(_ns(), line, frame, t))


def grad_reset(self: Tracer, t: Tensor, how: GradChangedHow, hook: int | None = None) -> None:
    """`t.grad` changed outside backward (zero_grad, an assignment, a hook)."""
    g = t._grad
    data = g._d.copy() if g is not None else None
    line, frame = self._site() if hook is None else (None, None)
    self._add(cap.GradReset(_ns(), line, frame, t, how, data, hook))


def grad_accumulated(self: Tracer, var: Tensor, grad: Tensor) -> None:
    """Called by the engine right after it adds `grad` into `var.grad`: in a backward's
    AccumulateGrad node, or after the walk for `backward(inputs=...)`."""
    total = var._grad
    add = self.unbuilt.add
    add(id(grad._ver))
    if total is not None:
        add(id(total._ver))
    if total is not None and id(total._ver) not in self.grads:
        grads, key = self.grads, id(total._ver)
        grads[key] = (weakref.ref(total, lambda _: grads.pop(key, None)), var)
    node = self.backward.current
    if type(node) is not AccumulateGrad:
        node = var._acc
    self._add(cap.Accumulated(_ns(), None, None, self.backward.bid, node, var, grad, total))
