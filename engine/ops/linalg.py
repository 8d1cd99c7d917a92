"""Products: matmul (with PyTorch's dispatch), mm, bmm, mv, dot, addmm, outer.

`matmul` is not a primitive in PyTorch: it dispatches on the operands' dims to dot, mv, mm
or bmm, folding batch dims into a matrix or broadcasting them with expand/reshape, so its
graph shows those nodes (e.g. `UnsafeViewBackward0 -> MmBackward0 -> ViewBackward0` for a
3-D tensor times a matrix). The dispatch below follows ATen's `_matmul_impl` step by step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops._core import OpNode, acc_dtype, as_tensor, matmul_np, record, unbroadcast
from engine.ops.shape import reshape, t, transpose
from engine.ops.table import Op


def _title(a: np.ndarray[Any, Any]) -> str:
    """How ATen's dtype checks name an array's scalar type: `Float and Double`."""
    return _dtype.scalar_type_name(a.dtype.name)


def _sizes(shape: tuple[int, ...]) -> str:
    return "x".join(str(s) for s in shape)


# -- mm ----------------------------------------------------------------------------------
def mm(self: Tensor, mat2: Tensor) -> Tensor:
    """Matrix product of two 2-D tensors."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, mat2 = _autocast.lower(self, mat2)
    a, b = self._d, mat2._d
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_sizes(a.shape)} and {_sizes(b.shape)})"
        )
    if a.dtype != b.dtype:
        names = _dtype.CPP_NAMES
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{names.get(a.dtype.name, a.dtype.name)} != {names.get(b.dtype.name, b.dtype.name)}"
        )
    saved: dict[str, Any] = {"mat2": mat2, "self": self}
    if self._rg or mat2._rg:
        saved.update(sym_layout("self", self))
        saved.update(sym_layout("mat2", mat2))
    return record(MmBackward0, matmul_np(a, b), (self, mat2), saved)


def sym_layout(name: str, t: Tensor) -> dict[str, tuple[int, ...]]:
    """The sizes and strides PyTorch saves beside a matrix (`_saved_self_sym_strides`)."""
    d = t._d
    strides = tuple(s // d.itemsize for s in d.strides) if d.itemsize else (0,) * d.ndim
    return {f"{name}_sym_sizes": d.shape, f"{name}_sym_strides": strides}


class MmBackward0(OpNode):
    __slots__ = ()
    _name = "MmBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ga = gb = None
        if not STATE.enabled:
            if self.needs(0):
                ga = make(matmul_np(g._d, self.saved("mat2")._d.T), False, None, 0)
            if self.needs(1):
                gb = make(matmul_np(self.saved("self")._d.T, g._d), False, None, 0)
            return [ga, gb]
        if self.needs(0):
            ga = mm(g, t(self.saved("mat2")))
        if self.needs(1):
            gb = mm(t(self.saved("self")), g)
        return [ga, gb]


def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """beta * self + alpha * (mat1 @ mat2), `self` broadcast to the product's shape."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, mat1, mat2 = _autocast.lower(self, mat1, mat2)
    a, b, c = mat1._d, mat2._d, as_tensor(self)._d
    for name, m in (("mat1", a), ("mat2", b)):
        if m.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_sizes(a.shape)} and {_sizes(b.shape)})"
        )
    if c.dtype != b.dtype:
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {_title(c)} and {_title(b)}"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_title(a)} and {_title(b)}"
        )
    acc = acc_dtype(a.dtype)  # bfloat16: the whole sum in float32, rounded once
    prod = np.matmul(a, b) if acc is None else np.matmul(a.astype(acc), b.astype(acc))
    _check_expand(c.shape, prod.shape)
    if alpha != 1:
        prod *= alpha
    cc = c if acc is None else c.astype(acc)
    out = prod + (cc if beta == 1 else cc * beta) if beta != 0 else prod
    out = out if acc is None else out.astype(a.dtype)
    saved = {"alpha": alpha, "beta": beta, "mat1": mat1, "mat2": mat2}
    if mat1._rg or mat2._rg:
        saved.update(sym_layout("mat1", mat1))
        saved.update(sym_layout("mat2", mat2))
    st = self if isinstance(self, Tensor) else None
    return record(AddmmBackward0, out, (st, mat1, mat2), saved, shapes=(c.shape,))


def _check_expand(shape: tuple[int, ...], target: tuple[int, ...]) -> None:
    lead = len(target) - len(shape)
    for i, s in enumerate(shape):
        if s != 1 and s != target[i + lead]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[i + lead]}) must match the existing "
                f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                f"{list(target)}.  Tensor sizes: {list(shape)}"
            )


class AddmmBackward0(OpNode):
    __slots__ = ()
    _name = "AddmmBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        alpha, beta = self.saved("alpha"), self.saved("beta")
        gs = g1 = g2 = None
        if self.needs(0):
            gs = unbroadcast(g if beta == 1 else g * beta, self._shapes[0])
        if not STATE.enabled:
            gd = g._d if alpha == 1 else g._d * alpha
            if self.needs(1):
                g1 = make(matmul_np(gd, self.saved("mat2")._d.T), False, None, 0)
            if self.needs(2):
                g2 = make(matmul_np(self.saved("mat1")._d.T, gd), False, None, 0)
            return [gs, g1, g2]
        if self.needs(1):
            g1 = mm(g, t(self.saved("mat2")))
            g1 = g1 if alpha == 1 else g1 * alpha
        if self.needs(2):
            g2 = mm(t(self.saved("mat1")), g)
            g2 = g2 if alpha == 1 else g2 * alpha
        return [gs, g1, g2]


# -- bmm / mv / dot ----------------------------------------------------------------------
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    """Batched matrix product of two 3-D tensors with the same batch size."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, mat2 = _autocast.lower(self, mat2)
    a, b = self._d, mat2._d
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {_title(a)} but found {_title(b)}")
    # PyTorch saves `self` only when mat2 needs a gradient, and `mat2` only when self does
    saved = {"mat2": mat2 if self._rg else None, "self": self if mat2._rg else None}
    return record(BmmBackward0, matmul_np(a, b), (self, mat2), saved)


class BmmBackward0(OpNode):
    __slots__ = ()
    _name = "BmmBackward0"
    _tensors = frozenset(("mat2", "self"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ga = gb = None
        if not STATE.enabled:
            if self.needs(0):
                ga = make(matmul_np(g._d, self.saved("mat2")._d.transpose(0, 2, 1)), False, None, 0)
            if self.needs(1):
                gb = make(matmul_np(self.saved("self")._d.transpose(0, 2, 1), g._d), False, None, 0)
            return [ga, gb]
        if self.needs(0):
            ga = bmm(g, transpose(self.saved("mat2"), 1, 2))
        if self.needs(1):
            gb = bmm(transpose(self.saved("self"), 1, 2), g)
        return [ga, gb]


def mv(self: Tensor, vec: Tensor) -> Tensor:
    """Matrix times vector."""
    a, v = self._d, vec._d
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({_sizes(a.shape)}), vec ({v.shape[0]})"
        )
    if a.dtype != v.dtype:
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{_title(v)}, {_title(a)}, and {_title(v)}"
        )
    return record(MvBackward0, matmul_np(a, v), (self, vec), {"self": self, "vec": vec})


class MvBackward0(OpNode):
    __slots__ = ()
    _name = "MvBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ga = gv = None
        if not STATE.enabled:
            if self.needs(0):
                ga = make(np.multiply.outer(g._d, self.saved("vec")._d), False, None, 0)
            if self.needs(1):
                gv = make(matmul_np(self.saved("self")._d.T, g._d), False, None, 0)
            return [ga, gv]
        if self.needs(0):
            ga = outer(g, self.saved("vec"))
        if self.needs(1):
            gv = mv(t(self.saved("self")), g)
        return [ga, gv]


def dot(self: Tensor, tensor: Tensor) -> Tensor:
    """Inner product of two 1-D tensors."""
    a, b = self._d, tensor._d
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
            f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
            "respectively"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {_title(a)} and {_title(b)}"
        )
    out = matmul_np(a, b)
    return record(DotBackward0, out, (self, tensor), {"self": self, "tensor": tensor})


def vdot(self: Tensor, other: Tensor) -> Tensor:
    """Inner product of two 1-D tensors (conjugating the first, a no-op for real tensors)."""
    if _dtype.kind(self._d.dtype) == "c" or _dtype.kind(other._d.dtype) == "c":
        from engine.ops.complex import vdot_complex

        return vdot_complex(self, other)
    out = dot(self, other)
    if out._fn is None:
        return out
    return record(VdotBackward0, out._d, (self, other), {"other": other, "self": self})


class VdotBackward0(OpNode):
    __slots__ = ()
    _name = "VdotBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        return [
            g * self.saved("other") if self.needs(0) else None,
            g * self.saved("self") if self.needs(1) else None,
        ]


def addmv(self: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """beta * self + alpha * (mat @ vec), `self` broadcast to the product's shape."""
    prod = mv(make(mat._d, False, None, 0), make(vec._d, False, None, 0))._d
    c = as_tensor(self)._d
    _check_expand(c.shape, prod.shape)
    if alpha != 1:
        prod = prod * alpha
    out = prod + (c if beta == 1 else c * beta) if beta != 0 else prod
    saved = {"alpha": alpha, "beta": beta, "mat": mat, "vec": vec}
    st = self if isinstance(self, Tensor) else None
    out = np.asarray(out, prod.dtype)
    return record(AddmvBackward0, out, (st, mat, vec), saved, shapes=(c.shape,))


class AddmvBackward0(OpNode):
    __slots__ = ()
    _name = "AddmvBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        assert self._shapes is not None
        alpha, beta = self.saved("alpha"), self.saved("beta")
        gs = gm = gv = None
        if self.needs(0):
            gs = unbroadcast(g if beta == 1 else g * beta, self._shapes[0])
        ga = g if alpha == 1 else g * alpha
        if self.needs(1):
            gm = outer(ga, self.saved("vec"))
        if self.needs(2):
            gv = mv(t(self.saved("mat")), ga)
        return [gs, gm, gv]


def trace(self: Tensor) -> Tensor:
    """Sum of the main diagonal of a matrix."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        (self,) = _autocast.fp32(self)
    a = self._d
    if a.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    out = np.asarray(np.trace(a))
    if _dtype.kind(a.dtype) in "biu":
        out = out.astype(np.int64)
    return record(TraceBackward0, out, (self,), {"self_sym_sizes": a.shape})


class TraceBackward0(OpNode):
    __slots__ = ()
    _name = "TraceBackward0"

    def apply(self, grads: Grads) -> Grads:
        g: Any = grads[0]
        shape = self.saved("self_sym_sizes")
        return [g * make(np.eye(*shape, dtype=g._d.dtype), False, None, 0)]


class DotBackward0(OpNode):
    __slots__ = ()
    _name = "DotBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        return [
            g * self.saved("tensor") if self.needs(0) else None,
            g * self.saved("self") if self.needs(1) else None,
        ]


def outer(self: Tensor, vec2: Tensor) -> Tensor:
    """Outer product of two vectors (PyTorch: a reshape to a column, then a broadcast mul)."""
    for name, v in (("vec1", self), ("vec2", vec2)):
        if v._d.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v._d.ndim}-D")
    return reshape(self, (self._d.shape[0], 1)) * vec2


ger = outer

OPS = [
    Op("mm", mm, out=True),
    Op("bmm", bmm, out=True),
    Op("mv", mv, out=True),
    Op("dot", dot, out=True),
    Op("vdot", vdot, out=True),
    Op("addmm", addmm, out=True, inplace=True),
    Op("addmv", addmv, out=True, inplace=True),
    Op("outer", outer, out=True),
    Op("ger", ger, out=True),
    Op("trace", trace),
]
