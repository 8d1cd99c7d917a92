"""Elementwise and vector constraints: booleans, one-hot vectors, integer ranges, intervals and
bounds, the simplex and multinomial counts."""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.constraints.base import Constraint

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value: Tensor) -> Tensor:
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        is_boolean = (value == 0) | (value == 1)
        return is_boolean.all(-1) & value.sum(-1).eq(1)


class _Bounded(Constraint):
    """A constraint with bounds, printed as `Name(lower_bound=..., upper_bound=...)`."""

    _fields: tuple[str, ...] = ()

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={getattr(self, f)}" for f in self._fields)
        return f"{type(self).__name__[1:]}({args})"


class _IntegerInterval(_Bounded):
    is_discrete = True
    _fields = ("lower_bound", "upper_bound")

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound: float | Tensor = lower_bound
        self.upper_bound: float | Tensor = upper_bound

    def check(self, value: Tensor) -> Tensor:
        ok = (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)
        return ok


class _IntegerGreaterThan(_Bounded):
    is_discrete = True
    _fields = ("lower_bound",)

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound: float | Tensor = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Real(Constraint):
    def check(self, value: Tensor) -> Tensor:
        return value == value  # False for NaN


class _GreaterThan(_Bounded):
    _fields = ("lower_bound",)

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound: float | Tensor = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    _fields = ("lower_bound",)

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound: float | Tensor = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound <= value


class _LessThan(_Bounded):
    _fields = ("upper_bound",)

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound: float | Tensor = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return value < self.upper_bound


class _Interval(_Bounded):
    _fields = ("lower_bound", "upper_bound")

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound: float | Tensor = lower_bound
        self.upper_bound: float | Tensor = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Interval):
    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        ok = torch.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)
        return ok


class _Multinomial(Constraint):
    """Nonnegative counts along the last dim summing to at most `upper_bound`."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Tensor) -> Tensor:
        out: Tensor = (value >= 0).all(dim=-1) & (value.sum(dim=-1) <= self.upper_bound)
        return out
