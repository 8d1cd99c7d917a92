"""Complex autograd for every op, from its real derivative formula.

PyTorch's gradient of a complex tensor is the conjugate Wirtinger derivative (times 2), so a
holomorphic op's input gradient is `g * conj(f'(z))` where the real formula computes
`g * f'(z)`. The real formulas here are written with ops that extend analytically (mul, div,
exp, matmul, ...), hence: complex gradient = conj(real_formula(conj(g))). For real-linear ops
(sum, views, indexing) both conjugations cancel. `record` gives a node this treatment when its
output is complex; ops that are not holomorphic (conj, abs, angle, sgn, complex, polar, the
real/complex views) set `_complex_aware` and write their own formula (engine/ops/complex.py).

A real input of an op with a complex output receives the real part of its gradient
(PyTorch's `handle_r_to_c`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads, Node
from engine.ops._core import variant

_TWINS: dict[type[Node], type[Node]] = {}
# ops whose real formula has no complex meaning: PyTorch refuses them before running
_REFUSED: dict[str, tuple[type[Exception], str]] = {
    "ReluBackward0": (NotImplementedError, "clamp is not supported for complex types"),
}


def conj_grad(g: Tensor, zero_sign: bool = False) -> Tensor:
    """conj(g) inside a backward formula (recorded only under create_graph).

    `zero_sign`: make a zero imaginary part +0. PyTorch's `g * conj(f')` gives +0 where the
    conjugate of this engine's `conj(conj(g) * f')` would give -0, and printing shows the sign.
    """
    if _dtype.kind(g._d.dtype) != "c":
        return g
    if STATE.enabled:
        from engine.ops.complex import conj_physical

        return conj_physical(g)
    out = np.conjugate(g._d, out=np.empty(g._d.shape, g._d.dtype))  # an array, also for 0-d
    if zero_sign:
        out.imag += 0.0  # -0 + 0 is +0; every other value is unchanged
    return make(out, False, None, 0)


def real_grad(g: Tensor) -> Tensor:
    """The real part of a gradient bound for a real input."""
    if _dtype.kind(g._d.dtype) != "c":
        return g
    if STATE.enabled:
        from engine.ops.complex import real

        return real(g)
    return make(np.ascontiguousarray(g._d.real), False, None, 0)


def complex_twin(
    cls: type[Node], inputs: tuple[Tensor | None, ...], keep: dict[str, Any] | None
) -> tuple[type[Node], dict[str, Any] | None]:
    """The node class (and `keep` values) `record` uses for an op with a complex output: the
    op's complex-aware twin, unless the op's own formula is complex-aware."""
    if getattr(cls, "_complex_aware", False):
        return cls, keep
    refusal = _REFUSED.get(cls._name)
    if refusal is not None:  # only checked here, off the real hot path (so only with grad)
        raise refusal[0](refusal[1])
    twin = _TWINS.get(cls)
    if twin is None:  # same name (so not listed by op_nodes), the conjugating `apply`
        twin = _TWINS[cls] = variant(cls, cls._name, apply=_apply_conj, _listed=False)
    real_in = tuple(t is not None and _dtype.kind(t._d.dtype) != "c" for t in inputs)
    return twin, {**(keep or {}), "_real_in": real_in}


def _apply_conj(self: Any, grads: Grads) -> Grads:
    base: Any = type(self).__mro__[1]
    conj_in = [None if g is None else conj_grad(g) for g in grads]
    outs = base.apply(self, conj_in)
    real_in = self.__dict__.get("_real_in", ())
    result: Grads = []
    for i, o in enumerate(outs):
        if o is None:
            result.append(None)
        elif i < len(real_in) and real_in[i]:
            result.append(real_grad(o))
        else:
            result.append(conj_grad(o, zero_sign=True))
    return result
