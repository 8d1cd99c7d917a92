"""ATen's CPU samplers behind Gamma, Dirichlet/Beta and Binomial (`torch._standard_gamma`,
`torch._sample_dirichlet`, `torch.binomial`), drawing from the engine's copy of PyTorch's stream
in the same order (one element after another, double uniforms and cached Box-Muller normals),
and the implicit reparameterisation gradients ATen uses for them (`_standard_gamma_grad`,
`_dirichlet_grad`): ATen's steps (ATen/native/Distributions.h) taken again in Python, so
draws and gradients match PyTorch's bit for bit.

>>> torch.manual_seed(0); standard_gamma(torch.tensor([2.0]))
tensor([4.5526])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _generator
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record

Array = np.ndarray[Any, Any]
Round = Callable[[float], float]  # one arithmetic step in the kernel's own float type
_F32 = np.float32
_THIRD_F = float(_F32(1.0) / _F32(3.0))  # ATen's `1.0f / 3.0f`
_C0331_F = float(_F32(0.0331))


def _f(x: float) -> float:
    """A C++ float literal as the double it promotes to."""
    return float(_F32(x))


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
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = g._normal_double()
            y = 1.0 + c * x
            if y > 0:
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


def standard_gamma(concentration: Tensor, generator: Any = None) -> Tensor:
    """`torch._standard_gamma`: Gamma(concentration, 1) draws, StandardGammaBackward0."""
    a = concentration._d
    drawn = _gamma_draws(a, generator, a.dtype != np.float64).astype(a.dtype)
    drawn = np.maximum(drawn, np.finfo(a.dtype).tiny)
    return record(
        StandardGammaBackward0, drawn, (concentration,), {"self": concentration}, "result"
    )


class StandardGammaBackward0(OpNode):
    __slots__ = ()
    _name = "StandardGammaBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [g * standard_gamma_grad(self.saved("self"), self.saved("result"))]


def sample_dirichlet(concentration: Tensor, generator: Any = None) -> Tensor:
    """`torch._sample_dirichlet`: gammas in double, normalised along the last dim, clamped
    into (tiny, 1) in the tensor's dtype."""
    a = concentration._d
    gam = np.maximum(_gamma_draws(a, generator, False), np.finfo(np.float64).tiny)
    ratio = (gam / gam.sum(-1, keepdims=True)).astype(a.dtype)
    top = np.nextafter(a.dtype.type(1), a.dtype.type(0))
    return make(np.minimum(top, np.maximum(np.finfo(a.dtype).tiny, ratio)), False, None, 0)


# -- binomial --------------------------------------------------------------------------------
def _stirling_tail(k: float) -> float:
    tail = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
            0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
            0.00925546218271273, 0.00833056343336287)  # fmt: skip
    if k < len(tail):
        return tail[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _binomial_inversion(count: float, prob: float, uniform: Any) -> float:
    geom_sum, num_geom = 0.0, 0.0
    logprob = math.log1p(-prob)
    while True:
        geom = math.ceil(math.log(uniform()) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom += 1


def _btrs(count: float, prob: float, uniform: Any) -> float:
    """Hoermann's transformed rejection with squeeze (BTRS), as ATen writes it."""
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = float(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = (
            (m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * math.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(count - k)
        )
        if v <= upper:
            return k


def _binomial_one(count: float, prob: float, uniform: Any) -> float:
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if count * prob >= 10.0:
            return _btrs(count, prob, uniform)
        return _binomial_inversion(count, prob, uniform)
    if prob > 0.5:
        q = 1.0 - prob
        if count * q >= 10.0:
            return count - _btrs(count, q, uniform)
        return count - _binomial_inversion(count, q, uniform)
    return math.nan


def binomial(count: Tensor, prob: Tensor, generator: Any = None) -> Tensor:
    """`torch.binomial`: one count per element (inversion for small means, else BTRS)."""
    g = _generator.pick(generator)

    def uniform() -> float:
        return float(g._unit(1, np.float64)[0])

    n, p = np.broadcast_arrays(count._d, prob._d)
    out = [_binomial_one(a, b, uniform) for a, b in zip(n.ravel().tolist(), p.ravel().tolist())]
    return make(np.array(out, np.float64).reshape(n.shape).astype(count._d.dtype), False, None, 0)


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


def standard_gamma_grad(alpha: Tensor, x: Tensor) -> Tensor:
    """`torch._standard_gamma_grad` (not differentiable, as in PyTorch)."""
    a, s = np.broadcast_arrays(alpha._d, x._d)
    out = [_gamma_grad_one(p, q) for p, q in zip(a.ravel().tolist(), s.ravel().tolist())]
    return make(np.array(out, np.float64).reshape(a.shape).astype(alpha._d.dtype), False, None, 0)
