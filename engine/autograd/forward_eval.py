"""J v for one recorded op: the double-vjp trick on its backward, with a first-order fallback.

`node.apply(u)` is the op's vjp, linear in the cotangent `u`; differentiating it in `u` along
the input tangents `v` gives `J v` (`d/du <vjp(u), v>`), with a graph when the primals or
tangents require grad (reverse-over-forward). Backwards that are not themselves
differentiable (PyTorch has no double backward for them either, but has forward formulas) get
`J v` one output element at a time from first-order vjps instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype
from engine.autograd import observer
from engine.autograd.forward_ad import FW
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Node

if TYPE_CHECKING:
    from engine._tensor import Tensor


class _FirstOrder(Exception):
    """The op's backward is not differentiable in its cotangent."""


def jvp_of(node: Node, outs: list[Tensor], tangents: list[Any]) -> list[Tensor]:
    """The tangent of each output of `node`, given its inputs' tangents (None: none)."""
    from engine._tensor import make

    create = STATE.enabled and any(t is not None and t._rg for t in (*tangents, *outs))
    prev_enabled = STATE.enabled
    FW.on, STATE.enabled = False, True
    try:
        with observer.untraced():
            try:
                res = _double_vjp(node, outs, tangents, create)
            except (_FirstOrder, NotImplementedError, RuntimeError) as e:
                if not isinstance(e, _FirstOrder) and not _first_order_only(str(e)):
                    raise
                try:
                    res = _rows(node, outs, tangents, create)
                except (NotImplementedError, RuntimeError) as e2:
                    if not create or "not implemented" not in str(e2):
                        raise
                    res = _rows(node, outs, tangents, False)  # values only: no graph to keep
    finally:
        FW.on, STATE.enabled = True, prev_enabled
    out = []
    for r, o in zip(res, outs):
        if r is None:
            r = make(np.zeros(o._d.shape, o._d.dtype), False, None, 0)
        elif any(v is not None and np.may_share_memory(r._d, v._d) for v in tangents):
            r = _fresh(r)  # an identity-like backward passed an input's tangent through
        out.append(r)
    return out


def _first_order_only(message: str) -> bool:
    """A backward PyTorch does not differentiate: not implemented, or a DelayedError's refusal
    (scatter_reduce's product over several zeros), where PyTorch has a forward formula."""
    return "not implemented" in message or "Double backward is unsupported" in message


def _double_vjp(node: Node, outs: list[Tensor], tangents: list[Any], create: bool) -> list[Any]:
    from engine._tensor import make
    from engine.autograd.run_backward import grad

    # any cotangent works (the vjp is linear in it): ones keep formulas away from 0/0 and log 0
    # tangents keep their own dtype through ops, as in PyTorch (a float64 tangent of a float32
    # primal stays float64): the cotangent takes the widest real floating dtype involved
    wide = [v._d.dtype for v in tangents if v is not None and _dtype.kind(v._d.dtype) == "f"]
    us: list[Any] = []
    for o in outs:
        dt = np.result_type(o._d.dtype, *wide) if _dtype.kind(o._d.dtype) == "f" else o._d.dtype
        us.append(make(np.ones(o._d.shape, dt), _diff(o), None, 0))
    gin = node.apply(us)
    pairs = []
    for g, v in zip(gin, tangents):
        if g is None or v is None:
            continue
        if not g._rg:
            raise _FirstOrder
        pairs.append((g, v if v._d.dtype == g._d.dtype else v.to(g.dtype)))
    if not pairs:
        return [None] * len(us)
    wrt = [u for u in us if u._rg]
    got = iter(
        grad(
            [g for g, _ in pairs],
            wrt,
            [v for _, v in pairs],
            allow_unused=True,
            create_graph=create,
        )
    )
    return [next(got) if u._rg else None for u in us]


def _rows(node: Node, outs: list[Tensor], tangents: list[Any], create: bool) -> list[Any]:
    """J v one output element at a time, from first-order vjps of basis cotangents (engine
    ops when the tangent must keep a graph to the primals or tangents)."""
    from engine._tensor import make

    STATE.enabled = create
    res: list[Any] = []
    zeros = [np.zeros(o._d.shape, o._d.dtype) for o in outs]
    for k, o in enumerate(outs):
        if not _diff(o):
            res.append(None)
            continue
        col: list[Any] = []
        for j in range(o._d.size):
            basis = [z.copy() for z in zeros]
            basis[k].reshape(-1)[j] = 1
            cot: list[Any] = [make(b, False, None, 0) for b in basis]
            gin = node.apply(cot)
            terms = [
                (g * v).sum() for g, v in zip(gin, tangents) if g is not None and v is not None
            ]
            col.append(
                sum(terms[1:], terms[0])
                if terms
                else make(np.zeros((), o._d.dtype), False, None, 0)
            )
        if create:
            from engine.ops.tensor_shape import stack

            res.append(stack(col).reshape(o._d.shape) if col else None)
        else:
            data = np.array([c._d for c in col], dtype=o._d.dtype).reshape(o._d.shape)
            res.append(make(data, False, None, 0))
    return res


def _diff(o: Tensor) -> bool:
    return bool(_dtype.kind(o._d.dtype) in "fc")


def _fresh(r: Tensor) -> Tensor:
    """A copy of a tangent (its own memory: in-place ops later write into tangents)."""
    from engine._tensor import make

    if not r._rg:
        return make(r._d.copy(), False, None, 0)
    FW.on = False
    try:
        return r.clone()
    finally:
        FW.on = True
