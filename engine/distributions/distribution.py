"""The `Distribution` base: shapes, argument validation, `repr` (PyTorch's texts)."""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class Positive:
    """`constraints.positive`."""

    def check(self, v: Tensor) -> Tensor:
        return v > 0

    def __repr__(self) -> str:
        return "GreaterThan(lower_bound=0.0)"


class Real:
    """`constraints.real`: anything but NaN."""

    def check(self, v: Tensor) -> Tensor:
        return torch.eq(v, v)

    def __repr__(self) -> str:
        return "Real()"


class UnitInterval:
    """`constraints.unit_interval`."""

    def check(self, v: Tensor) -> Tensor:
        return (v >= 0) & (v <= 1)

    def __repr__(self) -> str:
        return "Interval(lower_bound=0.0, upper_bound=1.0)"


class Distribution:
    """Batch/event shapes and validation of the constructor's arguments."""

    arg_constraints: dict[str, Any] = {}
    has_rsample = False
    _validate_args = True

    def __init__(
        self, batch_shape: Any = (), event_shape: Any = (), validate_args: Any = None
    ) -> None:
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if not self._validate_args:
            return
        for param, constraint in self.arg_constraints.items():
            if param not in self.__dict__:
                continue
            value = self.__dict__[param]
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {param} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                    f"{constraint!r}, but found invalid values:\n{value}"
                )

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in names
        )
        return f"{type(self).__name__}({args})"


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """Numbers become tensors of the first tensor's dtype (else the default), then broadcast."""
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    ts = [v if isinstance(v, Tensor) else torch.tensor(float(v), dtype=dtype) for v in values]
    return tuple(torch.broadcast_tensors(*ts))
