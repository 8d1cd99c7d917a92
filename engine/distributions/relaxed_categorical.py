"""`RelaxedOneHotCategorical(temperature, probs | logits)`: the Gumbel-softmax relaxation of
OneHotCategorical on the simplex, the exp of an `ExpRelaxedCategorical` (log-space draws).

>>> torch.manual_seed(0); RelaxedOneHotCategorical(torch.tensor(0.5), torch.ones(2)).sample()
tensor([0.1241, 0.8759])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution, broadcast_all
from engine.distributions.kinds import Categorical
from engine.distributions.transformed_distribution import TransformedDistribution
from engine.distributions.transforms import ExpTransform
from engine.distributions.utils import clamp_probs

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class ExpRelaxedCategorical(Distribution):
    """log of a RelaxedOneHotCategorical sample: (logits + Gumbel noise) / temperature,
    normalised in log space."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector  # (the true support is a submanifold of it)
    has_rsample = True

    def __init__(
        self, temperature: Tensor, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ExpRelaxedCategorical:
        new = self._expand_params(ExpRelaxedCategorical, batch_shape, _instance, "_categorical")
        new.temperature = self.temperature
        return new

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(torch.rand(shape, dtype=self.logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Tensor) -> Tensor:
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = torch.full_like(
            self.temperature, float(k)
        ).lgamma() - self.temperature.log().mul(-(k - 1))
        score = logits - value.mul(self.temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """exp(ExpRelaxedCategorical(temperature, probs | logits)), on the simplex."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True
    base_dist: ExpRelaxedCategorical

    def __init__(
        self, temperature: Tensor, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> RelaxedOneHotCategorical:
        checked = self._get_checked_instance(RelaxedOneHotCategorical, _instance)
        new = super().expand(batch_shape, _instance=checked)
        assert isinstance(new, RelaxedOneHotCategorical)
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
