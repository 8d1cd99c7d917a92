"""Calls the tracer reports by wrapping engine methods for the duration of a run: cut points
the snippet makes (`detach`, `.data`, `detach_`, `requires_grad`), `retain_grad`, changes to
`.grad` outside backward (`zero_grad`, assignment), and writes the version counter does not
count (`apply_`). The engine pays nothing for these when no run is traced. (Module scopes are
told by `Module.__call__` through the observer slot, engine/autograd/observer.py.)

Only the snippet's own calls are reported (the caller's frame is in the snippet's file): the
engine detaches and assigns internally all the time, and those are not the user's cut points.
`requires_grad` also counts when set through `requires_grad_` (a tensor's or a module's).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

from engine._tensor import Tensor
from engine.tracing.tracer import Tracer

_getframe = sys._getframe


def _from_snippet(tr: Tracer, depth: int = 2, through: str | None = None) -> bool:
    """Whether the call `depth` frames up came from the snippet (skipping frames of functions
    named `through`, e.g. requires_grad_)."""
    f: FrameType | None = _getframe(depth)
    if through is not None:
        while f is not None and f.f_code.co_name == through:
            f = f.f_back
    return f is not None and f.f_code.co_filename == tr.filename


def wrap(tr: Tracer) -> Callable[[], None]:
    """Install every wrapper for tracer `tr`; returns the undo."""
    undos = [_cuts(tr), _grads(tr), _uncounted_writes(tr)]

    def undo() -> None:
        for u in reversed(undos):
            u()

    return undo


def _cuts(tr: Tracer) -> Callable[[], None]:
    detach, detach_, retain_grad = Tensor.detach, Tensor.detach_, Tensor.retain_grad
    data: property = Tensor.__dict__["data"]
    rg: property = Tensor.__dict__["requires_grad"]
    assert data.fget is not None and rg.fget is not None and rg.fset is not None
    get_data, get_rg, set_rg = data.fget, rg.fget, rg.fset

    def traced_detach(self: Tensor) -> Tensor:
        out = detach(self)
        if self._rg and _from_snippet(tr):
            tr.cut("detach", self, out)
        return out

    def traced_detach_(self: Tensor) -> Tensor:
        was = self._rg
        out = detach_(self)
        if was and _from_snippet(tr):
            tr.cut("detach_", self, None)
        return out

    def traced_data(self: Tensor) -> Tensor:
        out: Tensor = get_data(self)
        if _from_snippet(tr):
            tr.alias(out, self)
            if self._rg:
                tr.cut("data", self, out)
        return out

    def traced_set_rg(self: Tensor, value: bool) -> None:
        was = self._rg
        set_rg(self, value)
        if self._rg != was and _from_snippet(tr, 2, "requires_grad_"):
            tr.requires_grad_set(self, self._rg)

    def traced_retain_grad(self: Tensor) -> None:
        had = self._retains
        retain_grad(self)
        if self._retains and not had and _from_snippet(tr):
            tr.retain_grad(self)

    Tensor.detach = traced_detach  # type: ignore[method-assign]
    Tensor.detach_ = traced_detach_  # type: ignore[method-assign]
    Tensor.retain_grad = traced_retain_grad  # type: ignore[method-assign]
    Tensor.data = property(traced_data, data.fset)  # type: ignore[assignment]
    Tensor.requires_grad = property(get_rg, traced_set_rg)  # type: ignore[assignment]

    def undo() -> None:
        Tensor.detach = detach  # type: ignore[method-assign]
        Tensor.detach_ = detach_  # type: ignore[method-assign]
        Tensor.retain_grad = retain_grad  # type: ignore[method-assign]
        Tensor.data = data  # type: ignore[assignment]
        Tensor.requires_grad = rg  # type: ignore[assignment]

    return undo


def _grads(tr: Tracer) -> Callable[[], None]:
    """`.grad` reset by zero_grad (an optimizer's or a module's) or assigned by the snippet."""
    from engine.nn.modules.module import Module
    from engine.optim.optimizer import Optimizer

    grad: property = Tensor.__dict__["grad"]
    assert grad.fget is not None and grad.fset is not None
    get_grad, set_grad = grad.fget, grad.fset
    opt_zero, mod_zero = Optimizer.zero_grad, Module.zero_grad

    def traced_set_grad(self: Tensor, value: Tensor | None) -> None:
        set_grad(self, value)
        if _from_snippet(tr):
            tr.grad_reset(self, "assigned")

    def zeroing(zero: Callable[..., None], params: Callable[[Any], list[Tensor]]) -> Any:
        def traced_zero(self: Any, set_to_none: bool = True) -> None:
            if not _from_snippet(tr):
                zero(self, set_to_none)
                return
            had = [p for p in params(self) if p._grad is not None]
            for p in had:  # (zeroing in place: pending events must show the values before)
                tr.before_write(p._grad)  # type: ignore[arg-type]
            zero(self, set_to_none)
            for p in had:
                tr.grad_reset(p, "set_to_none" if p._grad is None else "zeroed")

        return traced_zero

    def opt_params(opt: Any) -> list[Tensor]:
        return [p for group in opt.param_groups for p in group["params"]]

    def mod_params(mod: Any) -> list[Tensor]:
        return list(mod.parameters())

    Tensor.grad = property(get_grad, traced_set_grad)  # type: ignore[assignment]
    Optimizer.zero_grad = zeroing(opt_zero, opt_params)  # type: ignore[method-assign]
    Module.zero_grad = zeroing(mod_zero, mod_params)  # type: ignore[method-assign]

    def undo() -> None:
        Tensor.grad = grad  # type: ignore[assignment]
        Optimizer.zero_grad = opt_zero  # type: ignore[method-assign]
        Module.zero_grad = mod_zero  # type: ignore[method-assign]

    return undo


def _uncounted_writes(tr: Tracer) -> Callable[[], None]:
    """`apply_` writes new values without moving the version counter (PyTorch writes through
    the raw pointer): reported as a version_bump at the unchanged version, as a write through
    `.data` is, so the values shown are the ones written."""
    from engine.ops import tensor_protocol

    apply_ = tensor_protocol.apply_
    was = Tensor.__dict__["apply_"]  # (a method the op modules attach to Tensor)

    def traced_apply_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        out = apply_(self, *args, **kwargs)
        tr.version_bump(self)
        return out

    Tensor.apply_ = traced_apply_  # type: ignore[method-assign, assignment]

    def undo() -> None:
        Tensor.apply_ = was  # type: ignore[method-assign]

    return undo
