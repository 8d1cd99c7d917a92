"""`Geometric(probs | logits)`: failures before the first success, on {0, 1, ...} (one less
than `Tensor.geometric_`, which counts the trials).

>>> torch.manual_seed(0); Geometric(torch.tensor(0.3)).sample((3,))
tensor([1., 0., 6.])
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import broadcast_all
from engine.distributions.kinds import _ProbsOrLogits

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class Geometric(_ProbsOrLogits):
    """P(X = k) = (1 - p)^k p for k = 0, 1, ...; p in (0, 1]."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer
    _binary = True

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        self._init_param(probs, logits)
        given = probs if probs is not None else logits
        name = "probs" if probs is not None else "logits"
        (self.__dict__[name],) = broadcast_all(given)
        shape = Size() if isinstance(given, Number) else self.__dict__[name].size()
        super().__init__(shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs  # unit_interval allows 0; a geometric needs p > 0
            valid = value > 0
            if not bool(valid.all()):
                raise ValueError(
                    "Expected parameter probs "
                    f"({type(value).__name__} of shape {tuple(value.shape)}) "
                    f"of distribution {self!r} "
                    f"to be positive but found invalid values:\n{value.data[~valid]}"
                )

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return torch.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = torch.empty(shape, dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        bce = torch.nn.functional.binary_cross_entropy_with_logits
        return bce(self.logits, self.probs, reduction="none") / self.probs
