"""`nn.Parameter`: a leaf tensor that requires grad and that modules register on assignment."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, init


class Parameter(Tensor):
    """A Tensor a Module treats as one of its parameters.

    >>> p = torch.nn.Parameter(torch.zeros(2)); p.requires_grad, p.is_leaf
    (True, True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            arr = np.empty((0,), _dtype.get_default_dtype().np)
        elif isinstance(data, Tensor):
            arr = data._d
        else:
            raise TypeError(
                f"Parameter.__new__() argument 'data' must be Tensor, not {type(data).__name__}"
            )
        if requires_grad and _dtype.kind(arr.dtype) not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        p: Parameter = object.__new__(cls)
        init(p, arr, False)
        if requires_grad:
            p.requires_grad = True
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]  # type: ignore[no-any-return]
        out = Parameter(Tensor(0), self._rg)
        out._d = self._d.copy()
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild_parameter, (self._d.copy(), self._rg))


def _rebuild_parameter(data: np.ndarray[Any, Any], rg: bool) -> Parameter:
    from engine._tensor import make

    return Parameter(make(data, False, None, 0), rg)


class Buffer(Tensor):
    """`nn.Buffer(t)`: marks a tensor to be registered as a buffer on assignment."""

    def __new__(cls, data: Tensor, *, persistent: bool = True) -> Buffer:
        b: Buffer = object.__new__(cls)
        init(b, data._d, data._rg)
        b.__dict__["persistent"] = persistent
        return b

    def __init__(self, data: Tensor, *, persistent: bool = True) -> None:
        pass
