"""`torch.autograd.forward_ad`: dual tensors and forward-mode (Jacobian-vector) derivatives.

Tangents live in a tensor's instance dict (`_fw_grad`, read through a `None` class default on
Tensor), so tensors without one pay nothing. Every op is made by `ops/record.record` (or
`record_multi`), which checks one flag, `FW.on` (true only inside a dual level); when an input
has a tangent the output's tangent is computed eagerly by the double-vjp trick on the op's own
backward: with `u` a zero cotangent of the output, `jvp(v) = d/du <vjp(u), v>`, where `vjp(u)`
is the op node's `apply` (written with engine ops, so differentiable in `u`). No per-op forward
formulas: each op's backward is the single source of its derivative.

>>> with dual_level():
...     y = make_dual(torch.tensor([1.0, 2.0]), torch.ones(2)) ** 2
...     unpack_dual(y).tangent
tensor([2., 4.])
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.autograd.graph import Grads, Node

if TYPE_CHECKING:
    from engine._tensor import Tensor

__all__ = [
    "UnpackedDualTensor",
    "dual_level",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
]


class _State:
    """The one forward-AD level PyTorch supports (`level` -1: none); `on` is what ops check."""

    __slots__ = ("duals", "level", "on")

    def __init__(self) -> None:
        self.on = False
        self.level = -1
        self.duals: list[weakref.ref[Tensor]] = []


FW = _State()


def enter_dual_level() -> int:
    """Enter a new forward grad level (only one may exist at a time, as in PyTorch)."""
    if FW.level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    FW.level = 0
    FW.on = True
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Exit the forward grad level, deleting every tangent made at it."""
    if level is None:
        level = FW.level
    if level != FW.level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    from engine.autograd.forward_jvp import drop_pending

    drop_pending()
    for r in FW.duals:
        t = r()
        if t is not None:
            t.__dict__.pop("_fw_grad", None)
    FW.duals = []
    FW.level = -1
    FW.on = False


class dual_level:
    """Context manager (and decorator) in which dual tensors can be made and used."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper


class UnpackedDualTensor(NamedTuple):
    """The `(primal, tangent)` pair returned by `unpack_dual`."""

    primal: Tensor
    tangent: Tensor | None


def _level(level: int | None, what: str) -> int:
    if level is None:
        level = FW.level
    if level < 0:
        return level
    if level != FW.level:
        raise RuntimeError(f"Invalid level given to {what}")
    return level


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A new tensor aliasing `tensor`, carrying `tangent` as its forward gradient."""
    _jit_script_warnings()
    if _level(level, "_make_dual") < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first."
        )
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(
            f"Expected primal to be floating point or complex, but got: {tensor.dtype}"
        )
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(
            f"Expected tangent to be floating point or complex, but got: {tangent.dtype}"
        )
    if tensor._fw_grad is not None:
        raise RuntimeError(
            "Making a dual Tensor based on a Tensor that already has a forward gradient at the "
            "same level 0 is not supported."
        )
    if tangent._d.shape != tensor._d.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(tensor._d.shape)} "
            f"while the given forward gradient is of size {list(tangent._d.shape)}."
        )
    if tangent._d.strides != tensor._d.strides and tangent._d.size > 1:
        tangent = _relayout(tangent, tensor)  # "copied otherwise": PyTorch's doc of make_dual
    out: Tensor = tensor.view_as(tensor)  # PyTorch: an alias, ViewBackward0 when tracked
    set_tangent(out, tangent)
    return out


def _relayout(tangent: Tensor, primal: Tensor) -> Tensor:
    """A copy of `tangent` laid out as `primal` (a tangent keeps its graph: an engine op)."""
    import numpy as np

    from engine._tensor import make

    if tangent._rg:
        out: Tensor = tangent.clone()
        return out
    data = np.empty_like(primal._d, dtype=tangent._d.dtype)
    np.copyto(data, tangent._d)
    return make(data, False, None, 0)


def _jit_script_warnings() -> None:
    # PyTorch's make_dual first imports torch._decomp.decompositions_for_jvp, whose 18
    # `torch.jit.script` calls each warn (once per process): users see the same warnings
    from engine.autograd.engine import WARNED

    if "jvp_decompositions" in WARNED:
        return
    WARNED.add("jvp_decompositions")
    for _ in range(18):
        warnings.warn(
            "`torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.",
            DeprecationWarning,
            stacklevel=1,
        )


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """`(primal, tangent)`: a view of `tensor` without its tangent, and the tangent as is."""
    if _level(level, "_unpack_dual") < 0:
        return UnpackedDualTensor(tensor, None)
    from engine.autograd.forward_jvp import tangent_of

    tangent = tangent_of(tensor)
    if tangent is None and not tensor._rg:
        return UnpackedDualTensor(tensor, None)
    from engine._tensor import make
    from engine.autograd.grad_mode import STATE
    from engine.ops._core import new_node
    from engine.ops.shape import as_view

    tracked = tensor._rg and STATE.enabled
    node = new_node(Identity, (tensor,)) if tracked else None
    primal = as_view(make(tensor._d, tracked, node, 0), tensor, _same)
    return UnpackedDualTensor(primal, tangent)


def _same(a: Any) -> Any:
    return a


def alias(tensor: Tensor) -> Tensor:
    """A differentiable alias of `tensor` without its tangent (torch.func.jvp's primal output)."""
    from engine._tensor import make
    from engine.ops._core import new_node
    from engine.ops.shape import as_view

    node = new_node(AliasBackward0, (tensor,))
    return as_view(make(tensor._d, True, node, 0), tensor, _same)


class AliasBackward0(Node):
    """Gradients pass through unchanged (a plain Node: no op of the table makes it)."""

    __slots__ = ()
    _name = "AliasBackward0"

    def apply(self, grads: Grads) -> Grads:
        return list(grads)


class Identity(Node):
    """The node of `unpack_dual(x).primal`: gradients pass through unchanged."""

    __slots__ = ()
    _name = "torch::autograd::Identity"

    def apply(self, grads: Grads) -> Grads:
        return list(grads)


# -- tangents ----------------------------------------------------------------------------
def set_tangent(t: Tensor, tangent: Tensor | None) -> None:
    """Attach `tangent` to `t` at the current level (deleted when the level exits)."""
    if tangent is None:
        t.__dict__.pop("_fw_grad", None)
        return
    if "_fw_grad" not in t.__dict__:
        FW.duals.append(weakref.ref(t))
    t.__dict__["_fw_grad"] = tangent


def has_tangent(inputs: tuple[Tensor | None, ...]) -> bool:
    """True when an op input carries a tangent (only asked while a level is active)."""
    for t in inputs:  # noqa: SIM110 - plain loop, called for every op inside a dual level
        if t is not None and t._fw_grad is not None:
            return True
    return False
