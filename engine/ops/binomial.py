"""`torch.binomial(count, prob)`: ATen's CPU binomial sampler (inversion when the mean is below
10, else Hoermann's BTRS) drawing double uniforms from the engine's copy of PyTorch's stream, one
element after another; no derivative (PyTorch's NotImplemented node). Counts <= 0 draw 0,
probabilities >= 1 the count, NaN probabilities NaN.

>>> torch.manual_seed(0); torch.binomial(torch.tensor([10.0]), torch.tensor([0.5]))
tensor([7.])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import _dtype, _generator
from engine._tensor import Tensor
from engine.ops.gamma import broadcast, float_only, same_dtype
from engine.ops.remainder import not_implemented_node
from engine.ops.table import Op


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
    for t, what in ((count, "count"), (prob, "prob")):
        if not t.dtype.is_floating_point:
            name = _dtype.SCALAR_NAMES[t.dtype.name]
            msg = f"binomial only supports floating-point dtypes for {what}, got: {name}"
            raise ValueError(msg)
    same_dtype(prob, count)
    float_only(count, "binomial_cpu")
    n, p = broadcast(count, prob)
    g = _generator.pick(generator)

    def uniform() -> float:
        return float(g._unit(1, np.float64)[0])

    out = [_binomial_one(a, b, uniform) for a, b in zip(n.ravel().tolist(), p.ravel().tolist())]
    data = np.array(out, np.float64).reshape(n.shape).astype(count._d.dtype)
    return not_implemented_node(data, (count, prob), "binomial")


OPS = [
    Op("binomial", binomial, method=False),
]
