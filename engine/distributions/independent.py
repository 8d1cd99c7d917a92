"""`Independent`: reinterpret a distribution's rightmost batch dims as event dims (log_prob
and entropy sum over them), e.g. a diagonal Normal as one multivariate event."""

from __future__ import annotations

from typing import Any

from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    if dim == 0:
        return value
    out: Tensor = value.reshape(*value.shape[:-dim], -1).sum(-1)
    return out


class Independent(Distribution):
    """`base_distribution` with `reinterpreted_batch_ndims` batch dims moved to the event."""

    arg_constraints: dict[str, Any] = {}

    def __init__(
        self,
        base_distribution: Any,
        reinterpreted_batch_ndims: int,
        validate_args: Any = None,
    ) -> None:
        nbatch = len(base_distribution.batch_shape)
        if reinterpreted_batch_ndims > nbatch:
            raise ValueError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {reinterpreted_batch_ndims} vs {nbatch}"
            )
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist: Distribution = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(
            Size(shape[: len(shape) - event_dim]),
            Size(shape[len(shape) - event_dim :]),
            validate_args=validate_args,
        )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Independent:
        new = self._get_checked_instance(Independent, _instance)
        batch_shape = Size(batch_shape)
        base_batch = batch_shape + self.event_shape[: self.reinterpreted_batch_ndims]
        new.base_dist = self.base_dist.expand(base_batch)
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def has_rsample(self) -> bool:
        return bool(self.base_dist.has_rsample)

    @property
    def has_enumerate_support(self) -> bool:
        if self.reinterpreted_batch_ndims > 0:
            return False
        return bool(self.base_dist.has_enumerate_support)

    @property
    def support(self) -> Any:
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def sample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Tensor) -> Tensor:
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> Tensor:
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"
