"""In-place random sampling (PyTorch's `Tensor.uniform_`, `normal_`, `exponential_`,
`cauchy_`, `geometric_`, `bernoulli_`, `random_`) and `torch.bernoulli`: values drawn by the
engine's generator, bit for bit PyTorch's CPU stream, written in memory order as ATen draws. On
a tensor that requires grad the fill is a node whose gradient is zero (UniformBackward0 and
its siblings); `bernoulli(input, p)` has no derivative.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, _generator
from engine._tensor import Tensor, write
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, check_inplace, rebase, record
from engine.ops.remainder import not_implemented_node
from engine.ops.table import Op


class UniformBackward0(OpNode):
    __slots__ = ()
    _name = "UniformBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [g * 0]


class NormalBackward0(UniformBackward0):
    __slots__ = ()
    _name = "NormalBackward0"


def _fill(self: Tensor, node: type[OpNode], data: np.ndarray[Any, Any]) -> Tensor:
    """Write freshly drawn values into `self` in place (in memory order, as ATen draws)."""
    check_inplace(self)
    data = _generator.in_memory_order(self._d, data.astype(self._d.dtype))
    if STATE.enabled and self._rg:
        return rebase(self, record(node, data, (self,)))
    write(self, data, told=True)  # (check_inplace told the observer)
    return self


def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Any = None) -> Tensor:
    g = _generator.pick(generator)
    d = self._d
    if _dtype.kind(d.dtype) == "c":  # ATen fills view_as_real(self)
        pairs = g.uniform(2 * d.size, d.real.dtype, a, b)
        return _fill(self, UniformBackward0, pairs.view(d.dtype).reshape(d.shape))
    return _fill(self, UniformBackward0, g.uniform(d.size, d.dtype, a, b))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Tensor:
    g = _generator.pick(generator)
    d = self._d  # ATen's 16-wide Box-Muller runs on contiguous tensors only
    if _dtype.kind(d.dtype) == "c":  # ATen: normal_(view_as_real(self), mean, std / sqrt(2))
        pairs = g.normal(2 * d.size, d.real.dtype, mean, std / 2**0.5, d.flags.c_contiguous)
        return _fill(self, NormalBackward0, pairs.view(d.dtype).reshape(d.shape))
    return _fill(self, NormalBackward0, g.normal(d.size, d.dtype, mean, std, d.flags.c_contiguous))


def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    g = _generator.pick(generator)
    return _fill(self, UniformBackward0, g.exponential(self._d.size, lambd))


class CauchyBackward0(UniformBackward0):
    __slots__ = ()
    _name = "CauchyBackward0"


def cauchy_(
    self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Cauchy(median, sigma) draws, one double uniform each."""
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    g = _generator.pick(generator)
    return _fill(self, CauchyBackward0, g.cauchy(self._d.size, median, sigma))


class GeometricBackward0(UniformBackward0):
    __slots__ = ()
    _name = "GeometricBackward0"


def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    """Trials until the first success, each succeeding with probability `p`."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    g = _generator.pick(generator)
    return _fill(self, GeometricBackward0, g.geometric(self._d.size, p))


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    g = _generator.pick(generator)
    if isinstance(p, Tensor):
        return _fill(self, UniformBackward0, g.bernoulli_tensor(np.broadcast_to(p._d, self.shape)))
    return _fill(self, UniformBackward0, g.bernoulli_scalar(self._d.size, p))


class BernoulliBackward0(UniformBackward0):
    __slots__ = ()
    _name = "BernoulliBackward0"


def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:
    """0/1 draws with the probabilities in `input` (a zero gradient flows back to them), or
    each with probability `p` (ATen: `empty_like(input).bernoulli_(p)`, no derivative)."""
    g = _generator.pick(generator)
    d = input._d
    if p is None:
        return record(BernoulliBackward0, g.bernoulli_tensor(d).astype(d.dtype), (input,))
    drawn = g.bernoulli_scalar(d.size, p).astype(d.dtype).reshape(d.shape)
    return not_implemented_node(drawn, (input,), "bernoulli")


def random_(
    self: Tensor, start: int = 0, to: int | None = None, *, generator: Any = None
) -> Tensor:
    """Integers in [start, to), or [0, start) when only one bound is given."""
    g = _generator.pick(generator)
    if to is None and start == 0:
        return _fill(self, UniformBackward0, g.random_full(self._d.size, self._d.dtype))
    lo, hi = (0, start) if to is None else (start, to)
    return _fill(self, UniformBackward0, g.randint(self._d.size, lo, hi))


OPS = [
    Op("uniform_", uniform_, function=False),
    Op("normal_", normal_, function=False),
    Op("exponential_", exponential_, function=False),
    Op("cauchy_", cauchy_, function=False),
    Op("geometric_", geometric_, function=False),
    Op("bernoulli", bernoulli),
    Op("bernoulli_", bernoulli_, function=False),
    Op("random_", random_, function=False),
]
