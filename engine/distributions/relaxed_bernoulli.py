"""`RelaxedBernoulli(temperature, probs | logits)`: a reparameterisable relaxation of Bernoulli
on (0, 1), the sigmoid of a `LogitRelaxedBernoulli` (logistic noise over the temperature).

>>> torch.manual_seed(0); RelaxedBernoulli(torch.tensor(0.5), torch.tensor(0.3)).sample()
tensor(0.1513)
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
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import SigmoidTransform
from engine.distributions.utils import clamp_probs

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class LogitRelaxedBernoulli(_ProbsOrLogits):
    """The logit of a RelaxedBernoulli sample (PyTorch leaves has_rsample False here)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real
    _binary = True

    def __init__(
        self, temperature: Tensor, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        self.temperature = temperature
        self._init_param(probs, logits)
        given = probs if probs is not None else logits
        name = "probs" if probs is not None else "logits"
        (self.__dict__[name],) = broadcast_all(given)
        shape = Size() if isinstance(given, Number) else self.__dict__[name].size()
        super().__init__(shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogitRelaxedBernoulli:
        new = self._expand_params(LogitRelaxedBernoulli, batch_shape, _instance, "probs", "logits")
        new.temperature = self.temperature
        return new

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(torch.rand(shape, dtype=probs.dtype))
        logistic = uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()
        return logistic / self.temperature

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """sigmoid(LogitRelaxedBernoulli(temperature, probs | logits)), on (0, 1)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True
    base_dist: LogitRelaxedBernoulli

    def __init__(
        self, temperature: Tensor, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> RelaxedBernoulli:
        checked = self._get_checked_instance(RelaxedBernoulli, _instance)
        new = super().expand(batch_shape, _instance=checked)
        assert isinstance(new, RelaxedBernoulli)
        return new

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs
