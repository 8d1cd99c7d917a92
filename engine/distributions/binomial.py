"""`Binomial(total_count, probs | logits)`; draws come from ATen's binomial sampler
(engine/ops/binomial.py).

>>> torch.manual_seed(0); Binomial(10, torch.tensor([0.5])).sample()
tensor([7.])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.kinds import _TrialCounts

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _clamp_by_zero(x: Tensor) -> Tensor:
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(_TrialCounts):
    """Successes in `total_count` independent trials of probability `probs`."""

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(
        self,
        total_count: Any = 1,
        probs: Any = None,
        logits: Any = None,
        validate_args: Any = None,
    ) -> None:
        self._init_counts(total_count, probs, logits, validate_args)

    @property
    def support(self) -> Any:
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        n = self.total_count
        return ((n + 1) * self.probs).floor().clamp(max=n)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        log_factorial_n = torch.lgamma(n + 1)
        log_factorial_k = torch.lgamma(value + 1)
        log_factorial_nmk = torch.lgamma(n - value + 1)
        normalize_term = (
            n * _clamp_by_zero(logits)
            + n * torch.log1p(torch.exp(-torch.abs(logits)))
            - log_factorial_n
        )
        return value * logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self) -> Tensor:
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(
                "Inhomogeneous total count not supported by `enumerate_support`."
            )
        values = torch.arange(1 + total_count, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1, *self._batch_shape))
        return values
