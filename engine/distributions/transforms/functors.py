"""Transforms made of others, one per block of a tensor: CatTransform (blocks of given lengths
along a dim, as `torch.cat` joins them) and StackTransform (the slices along a dim, as
`torch.stack` joins them). Their domains and codomains are `constraints.cat` and
`constraints.stack` of their parts'.

>>> CatTransform([ExpTransform(), identity_transform], lengths=[1, 2])(torch.zeros(3))
tensor([1., 0., 0.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.independent import _sum_rightmost
from engine.distributions.transforms.base import Transform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _parts(tseq: Sequence[Transform], cache_size: int) -> list[Transform]:
    if not all(isinstance(t, Transform) for t in tseq):
        raise AssertionError("All elements of tseq must be Transform instances")
    return [t.with_cache(cache_size) for t in tseq] if cache_size else list(tseq)


def _check(value: Tensor, dim: int, what: str, name: str, size: int, expected: str) -> None:
    """PyTorch's checks of an argument: `dim` is one of its dims, of the expected size."""
    if not (-value.dim() <= dim < value.dim()):
        raise AssertionError(f"dim {dim} out of range for {what} with {value.dim()} dimensions")
    if value.size(dim) != size:
        raise AssertionError(f"{name}.size({dim}) = {value.size(dim)} must equal {expected}")


class CatTransform(Transform):
    """`tseq[i]` applied to the i-th block of `lengths[i]` entries along `dim`."""

    def __init__(
        self,
        tseq: Sequence[Transform],
        dim: int = 0,
        lengths: Sequence[int] | None = None,
        cache_size: int = 0,
    ) -> None:
        tseq = _parts(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms = tseq
        if lengths is None:
            lengths = [1] * len(self.transforms)
        self.lengths = list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(
                f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})"
            )
        self.dim = dim

    @property
    def event_dim(self) -> int:
        return max(t.event_dim for t in self.transforms)

    @property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _check(self, value: Tensor, what: str, name: str) -> None:
        _check(value, self.dim, what, name, self.length, f"length {self.length}")

    def _blocks(self, value: Tensor) -> list[Tensor]:
        blocks = []
        start = 0
        for length in self.lengths:
            blocks.append(value.narrow(self.dim, start, length))
            start = start + length
        return blocks

    def _call(self, x: Any) -> Any:
        self._check(x, "tensor", "x")
        ys = [t(xb) for t, xb in zip(self.transforms, self._blocks(x))]
        return torch.cat(ys, dim=self.dim)

    def _inverse(self, y: Any) -> Any:
        self._check(y, "tensor", "y")
        xs = [t.inv(yb) for t, yb in zip(self.transforms, self._blocks(y))]
        return torch.cat(xs, dim=self.dim)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        self._check(x, "x", "x")
        self._check(y, "y", "y")
        logdetjacs = []
        for t, xb, yb in zip(self.transforms, self._blocks(x), self._blocks(y)):
            logdetjac = t.log_abs_det_jacobian(xb, yb)
            if t.event_dim < self.event_dim:
                logdetjac = _sum_rightmost(logdetjac, self.event_dim - t.event_dim)
            logdetjacs.append(logdetjac)
        # `dim` counted from the right, then past the event dims: still a batch dim (the
        # log-dets join along it) or inside the event (they add up)
        dim = self.dim
        if dim >= 0:
            dim = dim - x.dim()
        dim = dim + self.event_dim
        if dim < 0:
            return torch.cat(logdetjacs, dim=dim)
        return sum(logdetjacs)

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> Any:
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self) -> Any:
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """`tseq[i]` applied to the i-th slice along `dim`."""

    def __init__(self, tseq: Sequence[Transform], dim: int = 0, cache_size: int = 0) -> None:
        tseq = _parts(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms = tseq
        self.dim = dim

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z: Tensor) -> list[Tensor]:
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _check(self, value: Tensor, what: str, name: str) -> None:
        n = len(self.transforms)
        _check(value, self.dim, what, name, n, f"len(transforms) {n}")

    def _call(self, x: Any) -> Any:
        self._check(x, "tensor", "x")
        ys = [t(xs) for xs, t in zip(self._slice(x), self.transforms)]
        return torch.stack(ys, dim=self.dim)

    def _inverse(self, y: Any) -> Any:
        self._check(y, "tensor", "y")
        xs = [t.inv(ys) for ys, t in zip(self._slice(y), self.transforms)]
        return torch.stack(xs, dim=self.dim)

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        self._check(x, "x", "x")
        self._check(y, "y", "y")
        parts = zip(self._slice(x), self._slice(y), self.transforms)
        logdetjacs = [t.log_abs_det_jacobian(xs, ys) for xs, ys, t in parts]
        return torch.stack(logdetjacs, dim=self.dim)

    @property
    def bijective(self) -> bool:
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> Any:
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self) -> Any:
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
