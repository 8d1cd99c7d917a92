"""Transforms of event dims: IndependentTransform (a base transform's batch dims read as event
dims, its log|det J| summed over them) and ReshapeTransform (a reshape of the event, log|det J|
zero).

>>> ReshapeTransform((2, 2), (4,))(torch.zeros(3, 2, 2)).shape
torch.Size([3, 4])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._size import Size
from engine.distributions import constraints
from engine.distributions.independent import _sum_rightmost
from engine.distributions.transforms.base import Transform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class IndependentTransform(Transform):
    """`base_transform` over `reinterpreted_batch_ndims` more event dims."""

    def __init__(
        self, base_transform: Transform, reinterpreted_batch_ndims: int, cache_size: int = 0
    ) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    @property
    def domain(self) -> Any:
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @property
    def codomain(self) -> Any:
        base = self.base_transform.codomain
        return constraints.independent(base, self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:
        return self.base_transform.bijective

    @property
    def sign(self) -> Any:
        return self.base_transform.sign

    def _call(self, x: Any) -> Any:
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y: Any) -> Any:
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        result = self.base_transform.log_abs_det_jacobian(x, y)
        return _sum_rightmost(result, self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape: Any) -> Any:
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape: Any) -> Any:
        return self.base_transform.inverse_shape(shape)


def _cut(shape: Any, event: Size) -> int:
    """Where `event` starts at the right of `shape` (PyTorch's checks and messages)."""
    if len(shape) < len(event):
        raise ValueError("Too few dimensions on input")
    cut = len(shape) - len(event)
    if shape[cut:] != event:
        raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {event}")
    return cut


class ReshapeTransform(Transform):
    """The rightmost `in_shape` dims reshaped to `out_shape` (same number of elements)."""

    bijective = True

    def __init__(self, in_shape: Any, out_shape: Any, cache_size: int = 0) -> None:
        self.in_shape = Size(in_shape)
        self.out_shape = Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    @property
    def domain(self) -> Any:
        return constraints.independent(constraints.real, len(self.in_shape))

    @property
    def codomain(self) -> Any:
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x: Any) -> Any:
        batch_shape = x.shape[: x.dim() - len(self.in_shape)]
        return x.reshape(batch_shape + self.out_shape)

    def _inverse(self, y: Any) -> Any:
        batch_shape = y.shape[: y.dim() - len(self.out_shape)]
        return y.reshape(batch_shape + self.in_shape)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        batch_shape = x.shape[: x.dim() - len(self.in_shape)]
        return x.new_zeros(batch_shape)

    def forward_shape(self, shape: Any) -> Any:
        return shape[: _cut(shape, self.in_shape)] + self.out_shape

    def inverse_shape(self, shape: Any) -> Any:
        return shape[: _cut(shape, self.out_shape)] + self.in_shape
