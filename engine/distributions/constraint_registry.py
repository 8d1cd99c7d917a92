"""`biject_to` and `transform_to`: from a constraint to a transform from the reals onto it
(bijective for `biject_to`; `transform_to` may take a shortcut such as softmax), looked up by
the constraint's class as PyTorch does.

>>> biject_to(constraints.simplex)(torch.zeros(2))
tensor([0.3333, 0.3333, 0.3333])
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Real
from typing import Any, overload

from engine.distributions import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]

Factory = Callable[[Any], transforms.Transform]


class ConstraintRegistry:
    """Constraint classes to the factories that make their transforms."""

    def __init__(self) -> None:
        self._registry: dict[type, Factory] = {}

    @overload
    def register(self, constraint: Any, factory: None = None) -> Callable[[Factory], Factory]: ...

    @overload
    def register(self, constraint: Any, factory: Factory) -> Factory: ...

    def register(self, constraint: Any, factory: Factory | None = None) -> Any:
        """Register `factory` for a Constraint subclass (or a singleton's class); a decorator
        when `factory` is left out."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(
                "Expected constraint to be either a Constraint subclass or instance, "
                f"but got {constraint}"
            )
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint: Any) -> transforms.Transform:
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints"
            ) from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


@biject_to.register(constraints.real)
@transform_to.register(constraints.real)
def _transform_to_real(constraint: Any) -> transforms.Transform:
    return transforms.identity_transform


@biject_to.register(constraints.independent)
def _biject_to_independent(constraint: Any) -> transforms.Transform:
    base_transform = biject_to(constraint.base_constraint)
    return transforms.IndependentTransform(base_transform, constraint.reinterpreted_batch_ndims)


@transform_to.register(constraints.independent)
def _transform_to_independent(constraint: Any) -> transforms.Transform:
    base_transform = transform_to(constraint.base_constraint)
    return transforms.IndependentTransform(base_transform, constraint.reinterpreted_batch_ndims)


# (positive and nonnegative are instances of greater_than and greater_than_eq, whose
# registrations below replace this one, as in PyTorch)
@biject_to.register(constraints.positive)
@biject_to.register(constraints.nonnegative)
@transform_to.register(constraints.positive)
@transform_to.register(constraints.nonnegative)
def _transform_to_positive(constraint: Any) -> transforms.Transform:
    return transforms.ExpTransform()


@biject_to.register(constraints.greater_than)
@biject_to.register(constraints.greater_than_eq)
@transform_to.register(constraints.greater_than)
@transform_to.register(constraints.greater_than_eq)
def _transform_to_greater_than(constraint: Any) -> transforms.Transform:
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.lower_bound, 1)]
    )


@biject_to.register(constraints.less_than)
@transform_to.register(constraints.less_than)
def _transform_to_less_than(constraint: Any) -> transforms.Transform:
    return transforms.ComposeTransform(
        [transforms.ExpTransform(), transforms.AffineTransform(constraint.upper_bound, -1)]
    )


@biject_to.register(constraints.interval)
@biject_to.register(constraints.half_open_interval)
@transform_to.register(constraints.interval)
@transform_to.register(constraints.half_open_interval)
def _transform_to_interval(constraint: Any) -> transforms.Transform:
    lower, upper = constraint.lower_bound, constraint.upper_bound
    if isinstance(lower, Real) and lower == 0 and isinstance(upper, Real) and upper == 1:
        return transforms.SigmoidTransform()
    return transforms.ComposeTransform(
        [transforms.SigmoidTransform(), transforms.AffineTransform(lower, upper - lower)]
    )


@biject_to.register(constraints.simplex)
def _biject_to_simplex(constraint: Any) -> transforms.Transform:
    return transforms.StickBreakingTransform()


@transform_to.register(constraints.simplex)
def _transform_to_simplex(constraint: Any) -> transforms.Transform:
    return transforms.SoftmaxTransform()


# (no bijection onto lower_cholesky yet, in PyTorch either)
@transform_to.register(constraints.lower_cholesky)
def _transform_to_lower_cholesky(constraint: Any) -> transforms.Transform:
    return transforms.LowerCholeskyTransform()


@transform_to.register(constraints.positive_definite)
@transform_to.register(constraints.positive_semidefinite)
def _transform_to_positive_definite(constraint: Any) -> transforms.Transform:
    return transforms.PositiveDefiniteTransform()


@biject_to.register(constraints.corr_cholesky)
@transform_to.register(constraints.corr_cholesky)
def _transform_to_corr_cholesky(constraint: Any) -> transforms.Transform:
    return transforms.CorrCholeskyTransform()


@biject_to.register(constraints.cat)
def _biject_to_cat(constraint: Any) -> transforms.Transform:
    parts = [biject_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@transform_to.register(constraints.cat)
def _transform_to_cat(constraint: Any) -> transforms.Transform:
    parts = [transform_to(c) for c in constraint.cseq]
    return transforms.CatTransform(parts, constraint.dim, constraint.lengths)


@biject_to.register(constraints.stack)
def _biject_to_stack(constraint: Any) -> transforms.Transform:
    return transforms.StackTransform([biject_to(c) for c in constraint.cseq], constraint.dim)


@transform_to.register(constraints.stack)
def _transform_to_stack(constraint: Any) -> transforms.Transform:
    return transforms.StackTransform([transform_to(c) for c in constraint.cseq], constraint.dim)
