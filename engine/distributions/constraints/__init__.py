"""`torch.distributions.constraints`: the sets a parameter or a sample must lie in, with
PyTorch's reprs (they appear in validation errors).

>>> constraints.positive.check(torch.tensor([1.0, -1.0]))
tensor([ True, False])
"""

from __future__ import annotations

from engine.distributions.constraints.base import (
    Constraint,
    MixtureSameFamilyConstraint,
    _Cat,
    _Dependent,
    _DependentProperty,
    _IndependentConstraint,
    _Stack,
    is_dependent,
)
from engine.distributions.constraints.matrix import (
    _CorrCholesky,
    _LowerCholesky,
    _LowerTriangular,
    _PositiveDefinite,
    _PositiveSemidefinite,
    _Square,
    _Symmetric,
)
from engine.distributions.constraints.sets import (
    _Boolean,
    _GreaterThan,
    _GreaterThanEq,
    _HalfOpenInterval,
    _IntegerGreaterThan,
    _IntegerInterval,
    _Interval,
    _LessThan,
    _Multinomial,
    _OneHot,
    _Real,
    _Simplex,
)

__all__ = [
    "Constraint", "MixtureSameFamilyConstraint", "boolean", "cat", "corr_cholesky", "dependent",
    "dependent_property", "greater_than", "greater_than_eq", "half_open_interval", "independent",
    "integer_interval", "interval", "is_dependent", "less_than", "lower_cholesky",
    "lower_triangular", "multinomial", "nonnegative", "nonnegative_integer", "one_hot",
    "positive", "positive_definite", "positive_integer", "positive_semidefinite", "real",
    "real_vector", "simplex", "square", "stack", "symmetric", "unit_interval",
]  # fmt: skip

# the instances annotated: mypy cannot infer them across the import cycle with `engine`
dependent: _Dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean: _Boolean = _Boolean()
one_hot: _OneHot = _OneHot()
nonnegative_integer: _IntegerGreaterThan = _IntegerGreaterThan(0)
positive_integer: _IntegerGreaterThan = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real: _Real = _Real()
real_vector: _IndependentConstraint = independent(real, 1)
positive: _GreaterThan = _GreaterThan(0.0)
nonnegative: _GreaterThanEq = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval: _Interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex: _Simplex = _Simplex()
multinomial = _Multinomial
lower_triangular: _LowerTriangular = _LowerTriangular()
lower_cholesky: _LowerCholesky = _LowerCholesky()
corr_cholesky: _CorrCholesky = _CorrCholesky()
square: _Square = _Square()
symmetric: _Symmetric = _Symmetric()
positive_semidefinite: _PositiveSemidefinite = _PositiveSemidefinite()
positive_definite: _PositiveDefinite = _PositiveDefinite()
cat = _Cat
stack = _Stack
