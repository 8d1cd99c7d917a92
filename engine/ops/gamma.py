"""ATen's gamma sampler and its gradient: `torch._standard_gamma` (Gamma(alpha, 1) draws from
the engine's copy of PyTorch's stream in the same order: one element after another, double
uniforms and cached Box-Muller normals; Gamma's and Dirichlet's draws) and
`torch._standard_gamma_grad`, the implicit reparameterisation gradient StandardGammaBackward0
multiplies by: ATen's steps (ATen/native/Distributions.h) taken again in Python, so draws and
gradients match PyTorch's bit for bit. Concentrations <= 0 or NaN draw the smallest normal.

>>> torch.manual_seed(0); torch._standard_gamma(torch.tensor([2.0]))
tensor([4.5526])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype, _generator
from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, broadcast_error, record
from engine.ops.table import Op

Array = np.ndarray[Any, Any]
Round = Callable[[float], float]  # one arithmetic step in the kernel's own float type
_F32 = np.float32
_THIRD_F = float(_F32(1.0) / _F32(3.0))  # ATen's `1.0f / 3.0f`
_C0331_F = float(_F32(0.0331))


def _f(x: float) -> float:
    """A C++ float literal as the double it promotes to."""
    return float(_F32(x))


def float_only(t: Tensor, kernel: str) -> None:
    """ATen's NotImplementedError for a kernel dispatched on float and double only."""
    if t._d.dtype not in (np.float32, np.float64):
        name = _dtype.SCALAR_NAMES[t.dtype.name]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def same_dtype(t: Tensor, want: Tensor) -> None:
    """TensorIterator's check that every operand has the first one's dtype."""
    if t.dtype != want.dtype:
        got, exp = _dtype.SCALAR_NAMES[t.dtype.name], _dtype.SCALAR_NAMES[want.dtype.name]
        raise RuntimeError(f"Found dtype {got} but expected {exp}")


def broadcast(*ts: Tensor) -> list[Array]:
    """The operands' arrays broadcast together (PyTorch's message when they do not)."""
    try:
        return list(np.broadcast_arrays(*(t._d for t in ts)))
    except ValueError as e:
        a, b = ts[0]._d, ts[1]._d
        if len(ts) > 2:
            try:
                a = np.broadcast_arrays(a, b)[0]
                b = ts[2]._d
            except ValueError:
                pass
        raise broadcast_error(a, b, e) from None


# -- gamma -----------------------------------------------------------------------------------
def _gamma_one(g: _generator.Generator, alpha: float, single: bool) -> float:
    """ATen's `sample_gamma` (Marsaglia-Tsang, boosted below 1), `single` when scalar_t is
    float: alpha's own arithmetic then runs in float, everything else in double."""

    def fl(x: float) -> float:
        return float(_F32(x)) if single else x

    def uniform() -> float:
        return float(g._unit(1, np.float64)[0])

    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= math.pow(1 - uniform(), fl(1.0 / alpha))
        alpha = fl(alpha + 1.0)
    d = fl(alpha - _THIRD_F)
    # C's 1 / sqrt(9 d): inf at 0, NaN below (concentration <= 0 or NaN: the loop then ends
    # with a NaN draw, after the uniforms and normals ATen takes for it)
    c = math.inf if d == 0 else 1.0 / math.sqrt(9.0 * d) if d > 0 else math.nan
    while True:
        while True:
            x = g._normal_double()
            y = 1.0 + c * x
            if not y <= 0:  # `while (y <= 0)`: a NaN ends it
                break
        v = y * y * y
        u = 1 - uniform()
        xx = x * x
        if u < 1.0 - _C0331_F * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _gamma_draws(alpha: Array, generator: Any, single: bool) -> Array:
    g = _generator.pick(generator)
    flat = alpha.reshape(-1).astype(np.float64).tolist()
    return np.array([_gamma_one(g, a, single) for a in flat], np.float64).reshape(alpha.shape)


def _standard_gamma(input: Tensor, generator: Any = None) -> Tensor:
    """`torch._standard_gamma`: Gamma(input, 1) draws, StandardGammaBackward0."""
    float_only(input, "gamma_cpu")
    a = input._d
    drawn = _gamma_draws(a, generator, a.dtype != np.float64).astype(a.dtype)
    drawn = np.fmax(drawn, np.finfo(a.dtype).tiny)  # std::max(tiny, NaN) is tiny
    return record(StandardGammaBackward0, drawn, (input,), {"self": input}, "result")


class StandardGammaBackward0(OpNode):
    __slots__ = ()
    _name = "StandardGammaBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [g * _standard_gamma_grad(self.saved("self"), self.saved("result"))]


# -- reparameterisation gradients -------------------------------------------------------------
def _same(v: float) -> float:
    return v


def _to_f32(v: float) -> float:
    """One float (single precision) operation's result: the double result rounded."""
    return float(_F32(v))


def _digamma_one(x: float, fl: Round = _same) -> float:
    """ATen's `digamma_one`; `fl=_to_f32` when its scalar_t is float (x and the steps on it
    are floats, the running sum a double)."""
    psi_10 = 2.25175258906672110764
    x = fl(x)
    if x == 0:
        return math.inf
    extra = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        extra = -math.pi / math.tan(math.pi * x)
        x = fl(1 - x)
    result = 0.0
    while x < 10:
        result -= fl(1 / x)
        x = fl(x + 1)
    if x == 10:
        return fl(result + psi_10 + extra)
    coef = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
            -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
            8.33333333333333333333e-2)  # fmt: skip
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / fl(x * x)
        poly = 0.0
        for cf in coef:
            poly = poly * z + cf
        y = z * poly
    return fl(result + fl(math.log(x)) - fl(0.5 / x) - y + extra)


_GAMMA_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089,
     0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113,
     -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
     0.00085092367, -1.5247877e-07),
)  # fmt: skip


def _gamma_grad_one(alpha: float, x: float) -> float:
    """-(d/dalpha cdf(x; alpha)) / pdf(x; alpha) for x ~ Gamma(alpha, 1)."""
    if x < _f(0.8):  # Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = math.pow(x, alpha)
        pdf = math.pow(x, alpha - 1) * math.exp(-x)
        cdf = pow_x_alpha * series1
        cdf_alpha = (math.log(x) - _digamma_one(alpha)) * cdf - pow_x_alpha * series2
        res = -cdf_alpha / pdf
        return 0.0 if math.isnan(res) else res
    if alpha > 8.0:  # Rice saddle point expansion for large alpha
        if _f(0.9) * alpha <= x <= _f(1.1) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (
                1440 * (alpha * alpha)
                + 6 * x * (53 - 120 * x)
                - 65 * x * x / alpha
                + alpha * (107 + 3600 * x)
            )
            return numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = math.pow(x - alpha - alpha * math.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / (
            (alpha - x) * (alpha - x)
        )
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * x * term1 / denom
    u, v = math.log(x / alpha), math.log(alpha)
    cv = [_GAMMA_UV[0][i] + u * (_GAMMA_UV[1][i] + u * _GAMMA_UV[2][i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    return math.exp(p / q)


def _standard_gamma_grad(input: Tensor, output: Tensor) -> Tensor:
    """`torch._standard_gamma_grad(alpha, x)`: d x / d alpha with the draw's CDF held fixed
    (its own derivative is not implemented: StandardGammaGradBackward0)."""
    float_only(input, "_standard_gamma_grad_cpu")
    same_dtype(output, input)
    a, s = broadcast(input, output)
    out = [_gamma_grad_one(p, q) for p, q in zip(a.ravel().tolist(), s.ravel().tolist())]
    data = np.array(out, np.float64).reshape(a.shape).astype(input._d.dtype)
    return record(StandardGammaGradBackward0, data, (input,))


class StandardGammaGradBackward0(OpNode):
    __slots__ = ()
    _name = "StandardGammaGradBackward0"

    def apply(self, grads: Grads) -> Grads:
        raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


OPS = [
    Op("_standard_gamma", _standard_gamma, method=False),
    Op("_standard_gamma_grad", _standard_gamma_grad, method=False),
]
