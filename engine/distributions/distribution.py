"""The `Distribution` base: shapes, argument validation, `repr` (PyTorch's texts)."""

from __future__ import annotations

import warnings
from typing import Any, TypeVar

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


_D = TypeVar("_D", bound="Distribution")


class Distribution:
    """Batch/event shapes and validation of the constructor's arguments."""

    _validate_args = True
    _lazy_params: tuple[str, ...] = ()  # derived on first use, so not validated

    def __init__(
        self, batch_shape: Any = (), event_shape: Any = (), validate_args: Any = None
    ) -> None:
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if not self._validate_args:
            return
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(
                f"{self.__class__} does not define `arg_constraints`. "
                "Please set `arg_constraints = {}` or initialize the distribution "
                "with `validate_args=False` to turn off validation.",
                stacklevel=2,
            )
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            lazy = param in self._lazy_params or not isinstance(
                getattr(type(self), param, None), property
            )
            if param not in self.__dict__ and lazy:
                continue  # a lazily derived parameter (probs from logits, ...): not checked
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {param} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                    f"{constraint!r}, but found invalid values:\n{value}"
                )

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turn argument validation on or off for every distribution made afterwards."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    @property
    def has_rsample(self) -> bool:
        """A property so wrappers (Independent, TransformedDistribution) can ask their base;
        a subclass sets `has_rsample = True` as a class attribute."""
        return False

    @property
    def has_enumerate_support(self) -> bool:
        return False

    @property
    def arg_constraints(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        raise NotImplementedError

    @property
    def support(self) -> Any:
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value: Tensor) -> None:
        """PyTorch's checks of a `log_prob`/`cdf` argument: a tensor, event shape, broadcastable
        to the batch, inside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError(
                "The right-most size of value must match event_shape: "
                f"{value.size()} vs {self._event_shape}."
            )
        actual, expected = value.size(), Size(self._batch_shape + self._event_shape)
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    "Value is not broadcastable with batch_shape+event_shape: "
                    f"{actual} vs {expected}."
                )
        support = self.support
        if not bool(support.check(value).all()):
            raise ValueError(
                "Expected value argument "
                f"({type(value).__name__} of shape {tuple(value.shape)}) "
                f"to be within the support ({support!r}) "
                f"of the distribution {self!r}, "
                f"but found invalid values:\n{value}"
            )

    def _get_checked_instance(self, cls: type[_D], _instance: Any = None) -> _D:
        init = "__init__"  # looked up on the classes (as PyTorch compares them)
        if _instance is None and getattr(type(self), init) != getattr(cls, init):
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method."
            )
        new = self.__new__(type(self)) if _instance is None else _instance
        assert isinstance(new, cls)
        return new

    def _expand_params(self, cls: type[_D], batch_shape: Any, _instance: Any, *names: str) -> _D:
        """The body every `expand` shares: a new (or the given) instance whose named parameters
        are expanded to `batch_shape`. A tensor keeps its trailing non-batch dims (a Dirichlet's
        concentration, a Categorical's probs); an inner distribution is expanded itself; a name
        not set on `self` (a probs/logits derived lazily) stays unset."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = Size(batch_shape)
        nbatch = len(self._batch_shape)
        for name in names:
            if name not in self.__dict__:
                continue
            value = self.__dict__[name]
            if isinstance(value, Distribution):
                new.__dict__[name] = value.expand(batch_shape)
            else:
                new.__dict__[name] = value.expand(batch_shape + value.shape[nbatch:])
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

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
