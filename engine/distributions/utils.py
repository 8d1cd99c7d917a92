"""`torch.distributions.utils`: the helpers PyTorch's distributions share (broadcasting
parameters, probabilities <-> logits, clamping).

>>> probs_to_logits(torch.tensor([0.5]), is_binary=True)
tensor([0.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.distribution import broadcast_all
from engine.distributions.independent import _sum_rightmost

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant

__all__ = [
    "_sum_rightmost", "broadcast_all", "clamp_probs", "euler_constant", "lazy_property",
    "logits_to_probs", "probs_to_logits", "tril_matrix_to_vec", "vec_to_tril_matrix",
]  # fmt: skip


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """sigmoid for a binary variable, else softmax over the last dim."""
    if is_binary:
        return torch.sigmoid(logits)
    return torch.nn.functional.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """probs clamped into [eps, 1 - eps] of their dtype."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log-odds for a binary variable, else log-probabilities (of the clamped probs)."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


_T = TypeVar("_T")


class lazy_property(Generic[_T]):
    """A value computed on first access and then stored on the instance. Computed with grad
    enabled, as PyTorch's is: a parameter first derived inside `no_grad` (a `sample` call)
    must still carry its graph to later `log_prob` and `mean` calls."""

    def __init__(self, wrapped: Callable[[Any], _T]) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    @overload
    def __get__(self, instance: None, obj_type: Any = None) -> lazy_property[_T]: ...

    @overload
    def __get__(self, instance: object, obj_type: Any = None) -> _T: ...

    def __get__(self, instance: object | None, obj_type: Any = None) -> Any:
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The lower triangle of (a batch of) square matrices, from diagonal `diag` down, read row
    by row into a vector."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = torch.arange(n)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """The inverse of `tril_matrix_to_vec`: D x D lower-triangular matrices filled row by row
    from the last dim of `vec` (whose length fixes D)."""
    # the positive root of D**2 + (1 + 2 diag) D - |diag| (diag + 1) - 2 len = 0
    b = 1 + 2 * diag
    n = (-b + (b**2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = torch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            "the lower triangular part of a square D x D matrix."
        )
    size = round(n)
    mat = vec.new_zeros((*vec.shape[:-1], size, size))
    arange = torch.arange(size)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat
