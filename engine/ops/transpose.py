"""Dim reordering views: transpose/swapaxes, permute, movedim, t, `.T`, `.mT`."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, _wrap_dim
from engine._warn import warn_once
from engine.autograd.forward_ad import FW
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, check_inplace, writing
from engine.ops.shape import (
    SqueezeBackward0,
    UnsqueezeBackward0,
    _shape_arg,
    _view_op,
    kw_arg,
    squeeze_as,
    unsqueeze_as,
)
from engine.ops.table import Op


def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims (a strided view)."""
    return _transpose(self, dim0, dim1, TransposeBackward0)


def _transpose(self: Tensor, dim0: int, dim1: int, node: type[OpNode]) -> Tensor:
    nd = self._d.ndim
    d0, d1 = _wrap_dim(dim0, nd), _wrap_dim(dim1, nd)
    data = np.swapaxes(self._d, d0, d1) if nd else self._d.view()
    fn = (lambda a: np.swapaxes(a, d0, d1)) if nd else (lambda a: a.view())
    return _view_op(node, self, data, fn, {"dim0": d0, "dim1": d1})


swapaxes = swapdims = transpose


class TransposeBackward0(OpNode):
    __slots__ = ()
    _name = "TransposeBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [transpose(grads[0], self.saved("dim0"), self.saved("dim1"))]  # type: ignore[arg-type]


def permute(self: Tensor, *dims: Any, **kw: Any) -> Tensor:
    """Reorder dims (a strided view)."""
    if kw:
        dims = kw_arg(dims, kw, "dims")
    nd = self._d.ndim
    perm = tuple(_wrap_dim(d, nd) for d in _shape_arg(dims))
    if len(perm) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(perm)}"
        )
    if len(set(perm)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    fn: Any = (lambda a: a.transpose(perm)) if nd else (lambda a: a.view())
    return _view_op(PermuteBackward0, self, fn(self._d), fn, {"dims": perm})


class PermuteBackward0(OpNode):
    __slots__ = ()
    _name = "PermuteBackward0"

    def apply(self, grads: Grads) -> Grads:
        perm = self.saved("dims")
        inv = [0] * len(perm)
        for i, p in enumerate(perm):
            inv[p] = i
        return [permute(grads[0], inv)]  # type: ignore[arg-type]


def movedim(self: Tensor, source: Any, destination: Any) -> Tensor:
    """Move dims to new positions (a permute, as PyTorch records it)."""
    nd = self._d.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src_w = [_wrap_dim(s, nd) for s in src]
    dst_w = [_wrap_dim(d, nd) for d in dst]
    rest = [i for i in range(nd) if i not in src_w]
    out = [-1] * nd
    for s, d in zip(src_w, dst_w):
        out[d] = s
    it = iter(rest)
    full = [o if o != -1 else next(it) for o in out]
    return permute(self, full)


def t(self: Tensor) -> Tensor:
    """Transpose a tensor of at most 2 dims."""
    return _t(self, TBackward0)


def _t(self: Tensor, node: type[OpNode]) -> Tensor:
    nd = self._d.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    fn: Any = (lambda a: a.T) if nd == 2 else (lambda a: a.view())
    return _view_op(node, self, fn(self._d), fn)


class TBackward0(OpNode):
    __slots__ = ()
    _name = "TBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [t(grads[0])]  # type: ignore[arg-type]


_T_WARNINGS = {
    "nd": "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose "
    "batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
    "dimensions of a tensor. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)",
    "0d": "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)",
}


def _T(self: Tensor) -> Tensor:
    nd = self._d.ndim
    if nd != 2:  # PyTorch warns once per process (TORCH_WARN_ONCE)
        warn_once(_T_WARNINGS["0d" if nd == 0 else "nd"])
    return permute(self, tuple(range(nd - 1, -1, -1)))


def _mT(self: Tensor) -> Tensor:
    if self._d.ndim < 2:
        raise RuntimeError(
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    return transpose(self, -2, -1)


T = property(_T)
mT = mH = property(_mT)
H = property(_T)


# -- in-place metadata ops (t_, transpose_, squeeze_, unsqueeze_) ------------------------
class TBackward1(TBackward0):
    __slots__ = ()
    _name = "TBackward1"


class TransposeBackward1(TransposeBackward0):
    __slots__ = ()
    _name = "TransposeBackward1"


class UnsqueezeBackward1(UnsqueezeBackward0):
    __slots__ = ()
    _name = "UnsqueezeBackward1"


class SqueezeBackward3(SqueezeBackward0):
    __slots__ = ()
    _name = "SqueezeBackward3"


class SqueezeBackward4(SqueezeBackward0):
    __slots__ = ()
    _name = "SqueezeBackward4"


class SqueezeBackward5(SqueezeBackward0):
    __slots__ = ()
    _name = "SqueezeBackward5"


def _restride(self: Tensor, res: Tensor) -> Tensor:
    """`self` takes the strided view `res` of itself (recorded under the in-place op's node):
    data, history, a version bump."""
    if FW.on:  # in a dual level `self` takes res's tangent (computed now: see forward_jvp.py)
        from engine.autograd.forward_ad import set_tangent
        from engine.autograd.forward_jvp import tangent_of

        set_tangent(self, tangent_of(res))
    with writing(self, told=True):  # (check_inplace told the observer) new strides, no data
        self._d = res._d
        if res._fn is not None:
            self._fn, self._nr, self._rg = res._fn, 0, True
        if self._base is not None:
            self._view_fn = res._view_fn
    return self


def t_(self: Tensor) -> Tensor:
    check_inplace(self)
    return _restride(self, _t(self, TBackward1))


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    check_inplace(self)
    return _restride(self, _transpose(self, dim0, dim1, TransposeBackward1))


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    check_inplace(self)
    return _restride(self, unsqueeze_as(self, dim, UnsqueezeBackward1))


def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    check_inplace(self)
    nodes = (SqueezeBackward3, SqueezeBackward4, SqueezeBackward5)
    return _restride(self, squeeze_as(self, dim, nodes))


swapaxes_ = swapdims_ = transpose_

OPS = [
    Op("transpose", transpose),
    Op("swapaxes", swapaxes),
    Op("swapdims", swapdims),
    Op("permute", permute),
    Op("movedim", movedim),
    Op("t", t),
    Op("T", T, function=False),
    Op("mT", mT, function=False),
    Op("t_", t_, function=False),
    Op("transpose_", transpose_, function=False),
    Op("swapaxes_", swapaxes_, function=False),
    Op("swapdims_", swapdims_, function=False),
    Op("unsqueeze_", unsqueeze_, function=False),
    Op("squeeze_", squeeze_, function=False),
]
