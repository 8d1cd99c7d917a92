"""ATen's Dirichlet sampler and its gradient: `torch._sample_dirichlet` (standard gammas drawn
in double, normalised along the last dim, clamped into (tiny, 1)) and `torch._dirichlet_grad`,
the reparameterised Beta gradient `Dirichlet.rsample` carries back (ATen/native/Distributions.h's
steps taken again in Python). Neither has a derivative of its own (PyTorch's NotImplemented node).

>>> torch.manual_seed(0); torch._sample_dirichlet(torch.tensor([1.0, 2.0]))
tensor([0.6866, 0.3134])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.ops.gamma import (
    Round,
    _digamma_one,
    _gamma_draws,
    _same,
    _to_f32,
    broadcast,
    float_only,
    same_dtype,
)
from engine.ops.remainder import not_implemented_node
from engine.ops.table import Op


def _sample_dirichlet(input: Tensor, generator: Any = None) -> Tensor:
    """`torch._sample_dirichlet`: one point on the simplex per row of `input`."""
    float_only(input, "dirichlet")
    a = input._d
    gam = np.fmax(_gamma_draws(a, generator, False), np.finfo(np.float64).tiny)
    ratio = (gam / gam.sum(-1, keepdims=True) if a.ndim else gam / gam).astype(a.dtype)
    top = np.nextafter(a.dtype.type(1), a.dtype.type(0))
    out = np.minimum(top, np.fmax(np.finfo(a.dtype).tiny, ratio))
    return not_implemented_node(out, (input,), "_sample_dirichlet")


def _pow(fl: Round, base: float, exp: float) -> float:
    try:
        return fl(math.pow(base, exp))
    except (OverflowError, ValueError):
        return math.inf if base == 0 else math.nan


def _grad_alpha_small(x: float, alpha: float, beta: float, fl: Round) -> float:
    """x near 0: a Taylor series (in the tensor's own precision, as ATen)."""
    factor = fl(fl(_digamma_one(alpha, fl) - _digamma_one(fl(alpha + beta), fl)) - fl(math.log(x)))
    numer = 1.0
    series = fl(fl(numer / alpha) * fl(factor + fl(1 / alpha)))
    for i in range(1, 11):
        numer = fl(numer * fl(fl(fl(i - beta) * x) / i))
        denom = fl(alpha + i)
        series = fl(series + fl(fl(numer / denom) * fl(factor + fl(1 / denom))))
    res = fl(fl(x * _pow(fl, fl(1 - x), -beta)) * series)
    return 0.0 if math.isnan(res) else res


def _grad_beta_small(x: float, alpha: float, beta: float, fl: Round) -> float:
    """The same for x near 1 (called with 1 - x and the concentrations swapped)."""
    factor = fl(_digamma_one(fl(alpha + beta), fl) - _digamma_one(beta, fl))
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, fl(factor / alpha)
    for i in range(1, 9):
        numer = fl(numer * fl(-x / i))
        dbetas = fl(fl(dbetas * fl(beta - i)) + betas)
        betas = fl(betas * fl(beta - i))
        series = fl(series + fl(fl(numer / fl(alpha + i)) * fl(dbetas + fl(factor * betas))))
    res = fl(-_pow(fl, fl(1 - x), fl(1 - beta)) * series)
    return 0.0 if math.isnan(res) else res


def _grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    bb = beta * beta
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * bb * bb + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * bb * beta
            + alpha
            * (
                3 * (59 + 180 * beta - 90 * x) * bb
                + alpha
                * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta
                    + alpha * (8 * (1 - x) * (135 * beta - 11))
                )
            )
        )
        num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return num / (1 - x) * poly / den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * bb))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * bb
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * math.pow(total, 1.5) * axbx * axbx)
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    base = beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))
    term4 = math.pow(base, -1.5) if base > 0 else math.nan
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]],
]).tolist()  # fmt: skip


def _dirichlet_grad_one(x: float, alpha: float, total: float, fl: Round = _same) -> float:
    """-(d/dalpha cdf(x; alpha, total - alpha)) / pdf / (1 - x), ATen's `dirichlet_grad_one`
    (`fl` rounds the steps ATen takes in the tensor's own float type)."""
    beta = fl(total - alpha)
    boundary = fl(fl(total * x) * fl(1 - x))
    if x <= 0.5 and boundary < 2.5:
        return _grad_alpha_small(x, alpha, beta, fl)
    if x >= 0.5 and boundary < 0.75:
        return -_grad_beta_small(fl(1 - x), beta, alpha, fl)
    if alpha > 6 and beta > 6:
        return _grad_alpha_mid(x, alpha, total - alpha)
    u = math.log(x)
    a = math.log(alpha) - u
    b = math.log(total) - a
    pow_u, pow_a = (1.0, u, u * u), (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _C[0][i][j], _C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * fl(_digamma_one(total, fl) - _digamma_one(alpha, fl)) / (total - alpha)
    return p / q * approx


def _dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """`torch._dirichlet_grad(x, alpha, total)`: d x / d alpha, x ~ Beta(alpha, total - alpha)."""
    float_only(x, "_dirichlet_grad_cpu")
    same_dtype(alpha, x)
    same_dtype(total, x)
    xs, al, to = broadcast(x, alpha, total)
    fl = _to_f32 if x._d.dtype == np.float32 else _same
    out = [
        _dirichlet_grad_one(*v, fl)
        for v in zip(xs.ravel().tolist(), al.ravel().tolist(), to.ravel().tolist())
    ]
    data = np.array(out, np.float64).reshape(xs.shape).astype(x._d.dtype)
    edges = tuple(t for t in (x, alpha, total) if t.requires_grad)  # as PyTorch's node has them
    return not_implemented_node(data, edges, "_dirichlet_grad")


OPS = [
    Op("_sample_dirichlet", _sample_dirichlet, method=False),
    Op("_dirichlet_grad", _dirichlet_grad, method=False),
]
