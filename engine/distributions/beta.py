"""`Beta(concentration1, concentration0)`, a two-category Dirichlet (as PyTorch builds it:
`rsample` selects the first coordinate of a Dirichlet draw).

>>> torch.manual_seed(0); Beta(2.0, 3.0).sample()
tensor(0.6726)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.dirichlet import Dirichlet
from engine.distributions.distribution import broadcast_all
from engine.distributions.exp_family import ExponentialFamily

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class Beta(ExponentialFamily):
    """Beta on [0, 1]; `concentration1` is alpha, `concentration0` is beta."""

    arg_constraints = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: Any = None):
        if isinstance(concentration1, Number) and isinstance(concentration0, Number):
            both = torch.tensor([float(concentration1), float(concentration0)])  # type: ignore[arg-type]
        else:
            c1, c0 = broadcast_all(concentration1, concentration0)
            both = torch.stack([c1, c0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Beta:
        return self._expand_params(Beta, batch_shape, _instance, "_dirichlet")

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = torch.stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (self.concentration1, self.concentration0)

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        x, y = natural_params
        return torch.lgamma(x) + torch.lgamma(y) - torch.lgamma(x + y)
