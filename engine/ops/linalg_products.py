"""More products: cross, tensordot, inner, kron, composed as ATen composes them so the
recorded graphs match (tensordot: permute, reshape, then mm, or dot for a full contraction).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops._core import OpNode, record, unbroadcast
from engine.ops.linalg import dot, mm
from engine.ops.reduce import shown, wrap_dim
from engine.ops.shape import UnsafeViewBackward0, permute, reshape
from engine.ops.table import Op


# -- cross -------------------------------------------------------------------------------
def _cross_arrays(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], d: int) -> Any:
    return np.cross(a, b, axis=d)


def linalg_cross(self: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """`torch.linalg.cross`: the cross product of 3-vectors along `dim` (broadcasting)."""
    a, b = self._d, other._d
    if a.ndim != b.ndim:
        raise RuntimeError(
            f"linalg.cross: inputs must have the same number of dimensions. Got {a.ndim} and "
            f"{b.ndim}"
        )
    shape = np.broadcast_shapes(a.shape, b.shape)
    d = wrap_dim(int(dim), len(shape))
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {int(dim)} must have length 3. Got "
            f"{a.shape[d]} and {b.shape[d]}"
        )
    out = np.asarray(_cross_arrays(np.broadcast_to(a, shape), np.broadcast_to(b, shape), d))
    saved = {"dim": shown(int(dim)), "other": other, "self": self}
    return record(LinalgCrossBackward0, out, (self, other), saved, shapes=(a.shape, b.shape))


def cross(self: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """`torch.cross`: like `linalg.cross`, but without `dim` the first dim of size 3."""
    if dim is None:
        warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
            "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim "
            "will change to agree with that of linalg.cross in a future release.",
            UserWarning,
        )
        shape = np.broadcast_shapes(self._d.shape, other._d.shape)
        dim = next((i for i, s in enumerate(shape) if s == 3), -1)
    return linalg_cross(self, other, dim=dim)


class LinalgCrossBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgCrossBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        dim = self.saved("dim")
        d = dim - (1 << 64) if dim >= 1 << 63 else dim
        ga = gb = None
        if self.needs(0):
            ga = unbroadcast(linalg_cross(self.saved("other"), g, dim=d), self._shapes[0])
        if self.needs(1):
            gb = unbroadcast(linalg_cross(g, self.saved("self"), dim=d), self._shapes[1])
        return [ga, gb]


# -- tensordot / inner -------------------------------------------------------------------
def _dims_pair(dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return list(range(-dims, 0)), list(range(dims))
    d1, d2 = dims
    d1 = [d1] if isinstance(d1, int) else list(d1)
    d2 = [d2] if isinstance(d2, int) else list(d2)
    return d1, d2


def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """Contract `dims` of `a` with `dims` of `b` (a permute + reshape + mm, as ATen)."""
    from engine.ops.reduce import sum as _sum

    n1, n2 = a._d.ndim, b._d.ndim
    d1, d2 = _dims_pair(dims)
    if len(d1) != len(d2):
        raise RuntimeError("both dimension lists should have same length")
    given = list(zip(d1, d2))
    d1 = [wrap_dim(d, n1) for d in d1]
    d2 = [wrap_dim(d, n2) for d in d2]
    t1, t2 = a, b
    csize = 1
    for (x, y), (gx, gy) in zip(zip(d1, d2), given):
        s1, s2 = a._d.shape[x], b._d.shape[y]
        if s2 == 1:
            t1 = _sum(t1, x, True)
        elif s1 == 1:
            t2 = _sum(t2, y, True)
        elif s1 != s2:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {s1} in dim {gx} and "
                f"second has size {s2} in dim {gy}"
            )
        else:
            csize *= s1
    p1 = [i for i in range(n1) if i not in d1]
    p2 = [i for i in range(n2) if i not in d2]
    rsizes = [t1._d.shape[i] for i in p1] + [t2._d.shape[i] for i in p2]
    size1 = int(np.prod([t1._d.shape[i] for i in p1]))
    size2 = int(np.prod([t2._d.shape[i] for i in p2]))
    pa = permute(t1, p1 + d1)
    pb = permute(t2, d2 + p2)
    if size1 == 1 and size2 == 1:  # a full contraction is a dot product
        va = pa if pa._d.ndim == 1 else reshape(pa, (csize,))
        vb = pb if pb._d.ndim == 1 else reshape(pb, (csize,))
        return reshape(dot(va, vb), tuple(rsizes))
    out = mm(reshape(pa, (size1, csize)), reshape(pb, (csize, size2)))
    return reshape(out, tuple(rsizes))


def inner(self: Tensor, other: Tensor) -> Tensor:
    """Inner product over the last dims (a tensordot; a plain multiply with a scalar)."""
    if self._d.ndim == 0 or other._d.ndim == 0:
        return self * other
    if self._d.shape[-1] != other._d.shape[-1]:
        raise RuntimeError(
            f"inner() the last dimension must match on both input tensors but got shapes "
            f"{list(self._d.shape)} and {list(other._d.shape)}"
        )
    return tensordot(self, other, ([-1], [-1]))


# -- kron --------------------------------------------------------------------------------
def _unsafe_view(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    return record(UnsafeViewBackward0, x._d.reshape(shape), (x,), shapes=(x._d.shape,))


def kron(self: Tensor, other: Tensor) -> Tensor:
    """Kronecker product: interleaved views of both operands, multiplied, then merged."""
    n = max(self._d.ndim, other._d.ndim)
    sa = (1,) * (n - self._d.ndim) + self._d.shape
    sb = (1,) * (n - other._d.ndim) + other._d.shape
    va = tuple(x for s in sa for x in (s, 1))
    vb = tuple(x for s in sb for x in (1, s))
    prod: Any = _unsafe_view(self, va) * _unsafe_view(other, vb)
    return _unsafe_view(prod, tuple(x * y for x, y in zip(sa, sb)))


# -- baddbmm / addr ----------------------------------------------------------------------
def _scaled_sum(prod: Any, c: np.ndarray[Any, Any], beta: Any, alpha: Any) -> Any:
    from engine.ops.linalg import _check_expand

    _check_expand(c.shape, prod.shape)
    if alpha != 1:
        prod = prod * alpha
    out = prod + (c if beta == 1 else c * beta) if beta != 0 else prod
    return np.asarray(out, prod.dtype)


def baddbmm(
    self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1
) -> Tensor:
    """beta * self + alpha * bmm(batch1, batch2), `self` broadcast to the product."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, batch1, batch2 = _autocast.lower(self, batch1, batch2)
    from engine.ops.linalg import bmm

    prod = bmm(_plain(batch1), _plain(batch2))._d
    out = _scaled_sum(prod, self._d, beta, alpha)
    saved = {"alpha": alpha, "batch1": batch1, "batch2": batch2, "beta": beta}
    return record(BaddbmmBackward0, out, (self, batch1, batch2), saved, shapes=(self._d.shape,))


def _plain(t: Tensor) -> Tensor:
    from engine._tensor import make

    return make(t._d, False, None, 0)


class BaddbmmBackward0(OpNode):
    __slots__ = ()
    _name = "BaddbmmBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.linalg import bmm
        from engine.ops.shape import transpose

        g: Any = grads[0]
        assert self._shapes is not None
        alpha, beta = self.saved("alpha"), self.saved("beta")
        ga = unbroadcast(g if beta == 1 else g * beta, self._shapes[0]) if self.needs(0) else None
        gs = g if alpha == 1 else g * alpha
        g1 = bmm(gs, transpose(self.saved("batch2"), 1, 2)) if self.needs(1) else None
        g2 = bmm(transpose(self.saved("batch1"), 1, 2), gs) if self.needs(2) else None
        return [ga, g1, g2]


def addbmm(
    self: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1
) -> Tensor:
    """beta * self + alpha * (sum over the batch of bmm(batch1, batch2)), one node."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, batch1, batch2 = _autocast.lower(self, batch1, batch2)
    from engine.ops.linalg import _check_expand, bmm

    for b in (batch1, batch2):  # ATen reads size(2) of each first
        if b._d.ndim != 3:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{max(b._d.ndim, 1)}, "
                f"{max(b._d.ndim, 1) - 1}], but got 2)"
            )
    if batch1._d.shape[0] != batch2._d.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1._d.shape[0]} and "
            f"{batch2._d.shape[0]}"
        )
    target = (batch1._d.shape[1], batch2._d.shape[2])
    _check_expand(self._d.shape, target)
    prod = bmm(_plain(batch1), _plain(batch2))._d.sum(axis=0)
    out = _scaled_sum(prod, self._d, beta, alpha)
    saved = {
        "alpha": alpha,
        "batch1": batch1,
        "batch1_sym_argsize_0": batch1._d.shape[0],
        "batch1_sym_argsize_1": batch1._d.shape[1],
        "batch2": batch2,
        "batch2_sym_argsize_2": batch2._d.shape[2],
        "beta": beta,
    }
    return record(AddbmmBackward0, out, (self, batch1, batch2), saved, shapes=(self._d.shape,))


class AddbmmBackward0(OpNode):
    __slots__ = ()
    _name = "AddbmmBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.linalg import bmm
        from engine.ops.shape import expand, transpose, unsqueeze

        g: Any = grads[0]
        assert self._shapes is not None
        alpha, beta = self.saved("alpha"), self.saved("beta")
        ga = unbroadcast(g if beta == 1 else g * beta, self._shapes[0]) if self.needs(0) else None
        n = self.saved("batch1_sym_argsize_0")
        # PyTorch: grad.unsqueeze(0).expand(n, ...).bmm(batch2.transpose(1, 2)) * alpha
        ge = expand(unsqueeze(g, 0), (n, *g._d.shape))
        g1 = g2 = None
        if self.needs(1):
            g1 = bmm(ge, transpose(self.saved("batch2"), 1, 2))
            g1 = g1 if alpha == 1 else g1 * alpha
        if self.needs(2):
            g2 = bmm(transpose(self.saved("batch1"), 1, 2), ge)
            g2 = g2 if alpha == 1 else g2 * alpha
        return [ga, g1, g2]


def addr(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """beta * self + alpha * outer(vec1, vec2)."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._d.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._d.ndim}-D")
    out = _scaled_sum(np.multiply.outer(vec1._d, vec2._d), self._d, beta, alpha)
    saved = {"alpha": alpha, "beta": beta, "vec1": vec1, "vec2": vec2}
    return record(AddrBackward0, out, (self, vec1, vec2), saved, shapes=(self._d.shape,))


class AddrBackward0(OpNode):
    __slots__ = ()
    _name = "AddrBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.linalg import mv
        from engine.ops.shape import t

        g: Any = grads[0]
        assert self._shapes is not None
        alpha, beta = self.saved("alpha"), self.saved("beta")
        ga = unbroadcast(g if beta == 1 else g * beta, self._shapes[0]) if self.needs(0) else None
        gs = g if alpha == 1 else g * alpha
        g1 = mv(gs, self.saved("vec2")) if self.needs(1) else None
        g2 = mv(t(gs), self.saved("vec1")) if self.needs(2) else None
        return [ga, g1, g2]


# -- multi_dot ---------------------------------------------------------------------------
def multi_dot(tensors: Any) -> Tensor:
    """`torch.linalg.multi_dot`: a chain of mm in the cheapest order (ATen's chain order)."""
    from engine.ops.shape import unsqueeze, view

    ms = list(tensors)
    n = len(ms)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    _check_chain(ms)
    out_shape: list[int] = []
    if ms[0]._d.ndim == 1:
        ms[0] = unsqueeze(ms[0], 0)
    else:
        out_shape.append(ms[0]._d.shape[0])
    if ms[-1]._d.ndim == 1:
        ms[-1] = unsqueeze(ms[-1], -1)
    else:
        out_shape.append(ms[-1]._d.shape[1])
    if n == 2:
        res = mm(ms[0], ms[1])
    elif n == 3:
        a, b = ms[0]._d.shape
        c, d = ms[2]._d.shape
        # (AB)C costs a*c*(b+d), A(BC) costs b*d*(a+c)
        if a * c * (b + d) > b * d * (a + c):
            res = mm(ms[0], mm(ms[1], ms[2]))
        else:
            res = mm(mm(ms[0], ms[1]), ms[2])
    else:
        res = _chain(ms, _chain_order(ms), 0, n - 1)
    return view(res, tuple(out_shape))


def _check_chain(ms: list[Tensor]) -> None:
    """ATen's multi_dot checks, in its order: ranks, then dtype and sizes pair by pair."""
    first, last = ms[0]._d.ndim, ms[-1]._d.ndim
    if first not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first}D")
    if last not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last}D")
    for i in range(1, len(ms) - 1):
        if ms[i]._d.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {ms[i]._d.ndim}D")
    names = _dtype.CPP_NAMES
    dt = ms[0]._d.dtype
    for i in range(1, len(ms)):
        a, b = ms[i - 1]._d, ms[i]._d
        if b.dtype != dt:
            raise RuntimeError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{names.get(dt.name, dt.name)} and tensor {i} "
                f"{names.get(b.dtype.name, b.dtype.name)}"
            )
        if a.shape[-1] != b.shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i - 1} and {i} with shapes {list(a.shape)} and "
                f"{list(b.shape)} cannot be multiplied"
            )


_CHAIN_WARNED: set[int] = set()


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    """The deprecated variadic `multi_dot` (PyTorch warns once per process, per overload)."""
    from engine._warn import warn
    from engine.ops.tensor_shape import clone

    line = 1102 if out is None else 1120
    if line not in _CHAIN_WARNED:
        _CHAIN_WARNED.add(line)
        warn(
            "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
            "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
            "rather than multiple parameters. (Triggered internally at "
            f"/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:{line}.)"
        )
    for m in matrices:
        if m._d.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m._d.ndim}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    res = clone(matrices[0]) if len(matrices) == 1 else multi_dot(matrices)
    if out is None:
        return res
    from engine.ops.out_params import with_out

    written: Tensor = with_out(lambda: res, "chain_matmul")(out=out)
    return written


def _chain_order(ms: list[Tensor]) -> list[list[int]]:
    n = len(ms)
    p = [m._d.shape[0] for m in ms] + [ms[-1]._d.shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = 1 << 62
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(ms: list[Tensor], split: list[list[int]], i: int, j: int) -> Tensor:
    if i == j:
        return ms[i]
    k = split[i][j]
    return mm(_chain(ms, split, i, k), _chain(ms, split, k + 1, j))


OPS = [
    Op("cross", cross, out=True),
    Op("inner", inner, out=True),
    Op("kron", kron, out=True),
    Op("baddbmm", baddbmm, out=True, inplace=True),
    Op("addbmm", addbmm, inplace=True, out=True),
    Op("addr", addr, out=True, inplace=True),
    Op("tensordot", tensordot, method=False, out=True),
    Op("chain_matmul", chain_matmul, method=False),
]
