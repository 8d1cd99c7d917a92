"""`NegativeBinomial(total_count, probs | logits)`: successes before `total_count` failures,
drawn as PyTorch draws it, a Poisson of a Gamma (same stream).

>>> torch.manual_seed(0); NegativeBinomial(3.0, torch.tensor([0.5])).sample((2,))
tensor([[7.],
        [2.]])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.gamma import Gamma
from engine.distributions.kinds import _TrialCounts
from engine.nn import functional as F

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class NegativeBinomial(_TrialCounts):
    """Successes in Bernoulli(probs) trials before `total_count` failures."""

    arg_constraints = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(
        self, total_count: Any, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        self._init_counts(total_count, probs, logits, validate_args)

    @property
    def mean(self) -> Tensor:
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self) -> Tensor:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / torch.sigmoid(-self.logits)

    @property
    def _gamma(self) -> Gamma:
        if "_gamma" not in self.__dict__:
            rate = torch.exp(-self.logits)
            self.__dict__["_gamma"] = Gamma(self.total_count, rate, validate_args=False)
        out: Gamma = self.__dict__["_gamma"]
        return out

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with torch.no_grad():
            return torch.poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        log_unnormalized = n * F.logsigmoid(-self.logits) + value * F.logsigmoid(self.logits)
        log_normalization = -torch.lgamma(n + value) + torch.lgamma(1.0 + value) + torch.lgamma(n)
        log_normalization = log_normalization.masked_fill(n + value == 0.0, 0.0)
        return log_unnormalized - log_normalization
