"""How ops give their outputs tangents inside a dual level (see forward_ad.py).

`record` hands an op to `record_dual` while a level is active. The output's tangent is left
pending (a `_Pending` in `_fw_grad`) and computed before anything else reads or writes a
tensor: some ops annotate their node after `record` returns (`self_dtype`, stashed plans),
and the derivative needs those. An op with no input requiring grad gets a private node on
`_fn` for that moment (so the annotations land), removed when the tangent is computed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype
from engine._tensor import write
from engine._upper import UPPER
from engine.autograd.forward_ad import FW, set_tangent
from engine.autograd.forward_eval import jvp_of
from engine.autograd.node import Node, _next_seq
from engine.autograd.saved_tensor import SavedTensor

if TYPE_CHECKING:
    from engine._tensor import Tensor

_new = object.__new__


class _Wanted(Node):
    """The edge target that makes `node.needs(i)` true for an input with a tangent."""

    __slots__ = ()
    _name = "ForwardADInput"


_WANTED = _Wanted()


class _Pending:
    """An output whose tangent is not computed yet."""

    __slots__ = ("inputs", "node", "outs", "private", "tangents")

    def __init__(
        self,
        node: Node,
        inputs: tuple[Tensor | None, ...],
        outs: list[Tensor],
        tangents: list[Any],
        private: bool,
    ) -> None:
        self.node = node
        self.inputs = inputs
        self.outs = outs
        self.tangents = tangents
        self.private = private


_PENDING: list[_Pending] = []


def flush() -> None:
    """Compute every pending tangent (before a read, a new op or an in-place write)."""
    while _PENDING:
        _materialize(_PENDING.pop())


def drop_pending() -> None:
    """Forget pending tangents (their level is exiting): private nodes leave `_fn`."""
    for p in _PENDING:
        if p.private:
            for o in p.outs:
                if o._fn is p.node:
                    o._fn = None
    _PENDING.clear()


def tangent_of(t: Tensor) -> Tensor | None:
    """`t`'s tangent at the current level, computing pending ones first."""
    if _PENDING:
        flush()
    g = t._fw_grad
    return g if g is None or not isinstance(g, _Pending) else None


def inplace_tangent(t: Tensor, new: Tensor | None) -> None:
    """After an in-place op: PyTorch writes the new tangent into `t`'s existing one, and a
    view's into its base's (tangents of views are views of the base's tangent)."""
    base, vf = t._base, t._view_fn
    old = tangent_of(t)
    if new is not None and base is not None and vf is not None and FW.on:
        bt = tangent_of(base)
        # a base without a tangent gets one, unless `t` was dual on its own (make_dual's result
        # is a view of its primal, which has no tangent)
        if bt is None and old is None:
            from engine._tensor import make

            bt = make(np.zeros(base._d.shape, base._d.dtype), False, None, 0)
            set_tangent(base, bt)
        if bt is not None:
            write(bt, lambda d: np.copyto(vf(d), new._d, casting="unsafe"))
    if new is None or old is None or new._rg or old._d.shape != new._d.shape:
        set_tangent(t, new)
        return
    write(old, new._d)


def touches(*tensors: Any) -> bool:
    """True inside a dual level when a tensor among `tensors` has a tangent."""
    if not FW.on:
        return False
    from engine._tensor import Tensor

    return any(isinstance(t, Tensor) and t._fw_grad is not None for t in tensors)


def _tangents(inputs: tuple[Tensor | None, ...]) -> list[Any] | None:
    """Each input's tangent (None when it has none); None when no input has one."""
    if _PENDING:
        flush()
    found = False
    tangents: list[Any] = []
    for t in inputs:
        g = None if t is None else t._fw_grad
        tangents.append(g)
        found = found or g is not None
    return tangents if found else None


def record_dual(
    cls: type[Node],
    data: np.ndarray[Any, Any],
    inputs: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None,
    out_saved: str | None,
    shapes: tuple[tuple[int, ...], ...] | None,
) -> Tensor:
    """`record` inside a dual level: the op's output, with its tangent pending."""
    from engine.ops._core import record

    tangents = _tangents(inputs)
    FW.on = False
    try:
        out = record(cls, data, inputs, saved, out_saved, shapes)
    finally:
        FW.on = True
    if tangents is None or _dtype.kind(data.dtype) not in "fc":
        return out
    node = out._fn
    private = node is None
    if node is None:
        node = _private_node(cls, inputs, tangents, saved, shapes)
        if out_saved is not None:
            if node._saved is None:
                node._saved = {}
            node._saved[out_saved] = SavedTensor(out, False)
        out._fn = node
    elif out_saved is not None and node._saved is not None:
        # the saved result must carry its tangent when backward runs inside the level
        node._saved[out_saved] = SavedTensor(out, False)
    _wait(_Pending(node, inputs, [out], tangents, private), [out])
    return out


def record_multi_dual(
    outs: list[Tensor], cls: type[Node], inputs: tuple[Tensor | None, ...], saved: Any
) -> list[Tensor]:
    """`record_multi` inside a dual level, once its outputs are made."""
    tangents = _tangents(inputs)
    if tangents is None:
        return outs
    diff = [o for o in outs if _dtype.kind(o._d.dtype) in "fc"]
    node = next((o._fn for o in diff if o._fn is not None), None)
    private = node is None
    if node is None:
        node = _private_node(cls, inputs, tangents, saved, None)
        node._input_meta = tuple((o._d.shape, o._d.dtype) for o in outs)
    _wait(_Pending(node, inputs, outs, tangents, private), diff)
    return outs


def _wait(p: _Pending, outs: list[Tensor]) -> None:
    for o in outs:
        set_tangent(o, p)  # type: ignore[arg-type]
    _PENDING.append(p)


def _private_node(
    cls: type[Node],
    inputs: tuple[Tensor | None, ...],
    tangents: list[Any],
    saved: dict[str, Any] | None,
    shapes: tuple[tuple[int, ...], ...] | None,
) -> Node:
    node: Node = _new(cls)
    node.next_functions = ()
    node._seq = _next_seq()
    node._shapes = shapes
    node._saved = None
    if saved is not None:
        from engine._tensor import Tensor

        node._saved = {
            k: SavedTensor(v, False) if isinstance(v, Tensor) else v for k, v in saved.items()
        }
    return node


def _fill_operands(store: dict[str, Any], inputs: tuple[Tensor | None, ...]) -> None:
    # a few ops save an operand only when the *other* one requires grad (mul, mm): with no
    # input requiring grad, the derivative needs them all (PyTorch's names: self, other/mat2)
    for key, i in (("self", 0), ("other", 1), ("mat2", 1)):
        if key in store and store[key] is None and i < len(inputs):
            t = inputs[i]
            if t is not None:
                store[key] = SavedTensor(t, False)


def _tracked_saved(node: Node) -> None:
    """Saved floats that do not require grad become aliases that do: backward formulas take
    their differentiable path (some shortcut to ndarrays when nothing requires grad), which
    the vjp must take to be differentiable in its cotangent."""
    from engine._tensor import make

    saved = node._saved
    assert saved is not None
    for k, v in saved.items():
        if isinstance(v, SavedTensor) and v._hooks_packed is None:
            t = v.unpack(node)
            if not t._rg and _dtype.kind(t._d.dtype) in "fc":
                saved[k] = SavedTensor(make(t._d, True, None, 0), False)


def _wanted_copy(node: Node, p: _Pending) -> Node:
    """`node` with every input that has a tangent marked as needing a gradient."""
    tmp: Node = _new(type(node))
    for c in type(node).__mro__:
        for s in c.__dict__.get("__slots__", ()):
            if s not in ("__dict__", "__weakref__") and hasattr(node, s):
                object.__setattr__(tmp, s, getattr(node, s))
    tmp.__dict__.update(node.__dict__)
    tangents = p.tangents
    if tmp._saved is not None:
        tmp._saved = dict(tmp._saved)
        _fill_operands(tmp._saved, p.inputs)
        _tracked_saved(tmp)
    edges = list(node.next_functions) + [(None, 0)] * (len(tangents) - len(node.next_functions))
    tmp.next_functions = tuple(
        (_WANTED, 0) if v is not None and e[0] is None else e for e, v in zip(edges, tangents)
    )
    return tmp


def _materialize(p: _Pending) -> None:
    node = _wanted_copy(p.node, p)
    if p.private:
        for o in p.outs:
            if o._fn is p.node:
                o._fn = None
    results = jvp_of(node, p.outs, p.tangents)
    for o, r in zip(p.outs, results):
        if isinstance(o._fw_grad, _Pending):
            set_tangent(o, r if _dtype.kind(o._d.dtype) in "fc" else None)


# -- custom autograd.Function ------------------------------------------------------------
def input_tangents(args: tuple[Any, ...]) -> list[Any] | None:
    """The tangent of each argument of a custom Function (None when none has one)."""
    from engine._tensor import Tensor

    return _tangents(tuple(a if isinstance(a, Tensor) else None for a in args))


def function_jvp(cls: Any, node: Any, tangents: list[Any], wrapped: Any) -> None:
    """Run a custom Function's `jvp` and give its outputs the tangents it returns."""
    from engine._tensor import Tensor, make
    from engine.autograd.function import Function

    if cls.jvp is Function.jvp:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )
    # a tensor input without a tangent gets zeros (non-tensor arguments: None), as in PyTorch
    args = node.__dict__["_arg_meta"]
    tangents = [
        v if v is not None or m is None else make(np.zeros(*m), False, None, 0)
        for v, m in zip(tangents, args)
    ]
    node.__dict__["_in_jvp"] = True
    FW.on = False
    try:
        result = cls.jvp(node, *tangents)
    finally:
        FW.on = True
        node.__dict__.pop("_in_jvp", None)
    outs = wrapped if isinstance(wrapped, tuple) else (wrapped,)
    res = result if isinstance(result, tuple) else (result,)
    for o, r in zip(outs, res):
        if isinstance(o, Tensor) and isinstance(r, Tensor) and _dtype.kind(o._d.dtype) in "fc":
            set_tangent(o, r)


UPPER.flush_tangents = flush
