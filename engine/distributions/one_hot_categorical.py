"""`OneHotCategorical(probs | logits)`: a Categorical whose samples are one-hot vectors.

>>> torch.manual_seed(0); OneHotCategorical(torch.tensor([0.2, 0.8])).sample()
tensor([0., 1.])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution
from engine.distributions.kinds import Categorical

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class OneHotCategorical(Distribution):
    """K categories, events of shape (K,)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        self._categorical = Categorical(probs, logits)
        param = self._categorical.probs if probs is not None else self._categorical.logits
        super().__init__(self._categorical.batch_shape, param.shape[-1:], validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> OneHotCategorical:
        return self._expand_params(OneHotCategorical, batch_shape, _instance, "_categorical")

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> Tensor:
        return self._categorical.probs

    @property
    def mode(self) -> Tensor:
        probs = self._categorical.probs
        one_hot = torch.nn.functional.one_hot(probs.argmax(dim=-1), num_classes=probs.shape[-1])
        return one_hot.to(probs)

    @property
    def variance(self) -> Tensor:
        p = self._categorical.probs
        return p * (1 - p)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        probs = self._categorical.probs
        indices = self._categorical.sample(Size(sample_shape))
        one_hot = torch.nn.functional.one_hot(indices, self._categorical._num_events)
        return one_hot.to(probs)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        n = self.event_shape[0]
        values = torch.eye(n, dtype=self._categorical.probs.dtype)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = values.expand((n, *self.batch_shape, n))
        return values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical with the straight-through estimator's `rsample`: the one-hot sample,
    with the probabilities' gradient passed through it."""

    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
