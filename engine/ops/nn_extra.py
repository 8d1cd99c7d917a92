"""More nn primitives: the bilinear form (`TrilinearBackward0`) and padding."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads, rename_class
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array, const, linear_grad, stash


def trilinear(x1: Tensor, w: Tensor, x2: Tensor) -> Tensor:
    """out[..., o] = sum_ij x1[..., i] w[o, i, j] x2[..., j]."""
    if x1.shape[:-1] != x2.shape[:-1]:
        raise RuntimeError(
            f"bilinear(): input batch dimensions do not match: got {x1.shape[0]} and {x2.shape[0]}"
        )
    if x1.shape[-1] != w.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {x1.shape[-1]} but "
            f"expected {w.shape[1]}"
        )
    if x2.shape[-1] != w.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {x2.shape[-1]} but "
            f"expected {w.shape[2]}"
        )
    out = np.einsum("...i,oij,...j->...o", x1._d, w._d, x2._d, optimize=True)
    return record(
        TrilinearBackward0, out.astype(w._d.dtype), (x1, w, x2), {"i1": x1, "i2": w, "i3": x2}
    )


class TrilinearBackward0(OpNode):
    __slots__ = ()
    _name = "TrilinearBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        ts = [self.saved(k) for k in ("i1", "i2", "i3")]
        if STATE.enabled and (g._rg or any(t._rg for t in ts)):
            from engine.ops.einsum import einsum
            from engine.ops.nn_norm import regrad

            return regrad(self, g, list(ts), lambda *xs: einsum("...i,oij,...j->...o", *xs))
        a, w, b = (t._d for t in ts)
        gd = g._d
        ga = np.einsum("...o,oij,...j->...i", gd, w, b, optimize=True) if self.needs(0) else None
        gw = np.einsum("...o,...i,...j->oij", gd, a, b, optimize=True) if self.needs(1) else None
        gb = np.einsum("...o,oij,...i->...j", gd, w, a, optimize=True) if self.needs(2) else None
        return [None if x is None else const(x.astype(gd.dtype)) for x in (ga, gw, gb)]


def _index_map(n: int, lo: int, hi: int, mode: str) -> Array:
    """Source index along one dimension for each padded position."""
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
        if lo >= n or hi >= n:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({lo}, {hi}) at dimension {n}"
            )
        period = 2 * (n - 1) if n > 1 else 1
        pos = np.abs(pos) % period
        return np.where(pos >= n, period - pos, pos)
    if mode == "replicate":
        return np.clip(pos, 0, n - 1)
    return pos % n  # circular


def pad_nd(x: Tensor, pad: tuple[int, ...], mode: str, value: float) -> Tensor:
    """Pad (or crop, with negative amounts) the last len(pad)/2 dimensions."""
    a = x._d
    k = len(pad) // 2
    pairs = [(0, 0)] * (a.ndim - k) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(k))]
    if mode == "constant":
        out = _pad(a, pairs, value)
        return stash(record(ConstantPadNdBackward0, out, (x,), {"pad": list(pad)}), pairs=pairs)
    if mode == "circular":
        raise NotImplementedError("circular padding is not supported by this engine")
    maps = [_index_map(a.shape[i], lo, hi, mode) for i, (lo, hi) in enumerate(pairs)]
    ix = np.ix_(*maps)
    name = ("Reflection" if mode == "reflect" else "Replication") + f"Pad{k}DBackward0"
    cls = _PAD_NODES[name]
    res = record(cls, np.ascontiguousarray(a[ix]), (x,), {"padding": list(pad), "self": x})
    return stash(res, ix=ix, shape=a.shape)


class ConstantPadNdBackward0(OpNode):
    __slots__ = ()
    _name = "ConstantPadNdBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        pairs = self.__dict__["pairs"]
        return [linear_grad(self._name, g, lambda a: _crop(a, pairs), lambda a: _pad(a, pairs))]


def _pad(a: Array, pairs: list[tuple[int, int]], value: float = 0.0) -> Array:
    """Constant padding by (before, after) per dimension; negative amounts crop."""
    out = np.pad(a, [(max(lo, 0), max(hi, 0)) for lo, hi in pairs], constant_values=value)
    crop = tuple(slice(-min(lo, 0), out.shape[i] + min(hi, 0)) for i, (lo, hi) in enumerate(pairs))
    return np.ascontiguousarray(out[crop])


def _crop(g: Array, pairs: list[tuple[int, int]]) -> Array:
    """The adjoint of `_pad`: drop the padding, zero-fill what was cropped."""
    return _pad(g, [(-lo, -hi) for lo, hi in pairs])


class _GatherPad(OpNode):
    __slots__ = ()

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        shape, ix = self.__dict__["shape"], self.__dict__["ix"]

        def scatter(a: Array) -> Array:
            out = np.zeros(shape, a.dtype)
            np.add.at(out, ix, a)
            return out

        return [linear_grad(self._name, g, scatter, lambda a: np.ascontiguousarray(a[ix]))]


def _pad_node(name: str) -> type[OpNode]:
    return type(name, (_GatherPad,), {"__slots__": (), "_name": name})


_PAD_NODES: dict[str, Any] = {
    n: _pad_node(n)
    for kind in ("Reflection", "Replication")
    for n in (f"{kind}Pad{k}DBackward0" for k in (1, 2, 3))
}


def clamp_min(self: Tensor, min: float) -> Tensor:
    """max(self, min) with a scalar bound, as F.normalize calls it (ClampMinBackward0)."""
    out = np.maximum(self._d, min).astype(self._d.dtype)
    return record(ClampMinBackward0, out, (self,), {"self": self, "min": min})


class ClampMinBackward0(OpNode):
    __slots__ = ()
    _name = "ClampMinBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")
        # the gradient passes where self >= min (at the bound too), as PyTorch
        mask = const((x._d >= self.saved("min")).astype(g._d.dtype))
        return [g * mask]


# -- tensor-by-scalar ops as PyTorch's C++ losses call them (mul.Scalar / div.Scalar) --------
def mul_scalar(self: Tensor, other: float) -> Tensor:
    """self * other recorded as MulBackward1 (a C++ scalar multiply)."""
    out = (self._d * other).astype(self._d.dtype)
    return record(MulScalarBackward, out, (self,), {"other": other})


class MulScalarBackward(OpNode):
    __slots__ = ()
    _scalars = frozenset(("other",))

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] * self.saved("other")]  # type: ignore[operator]


def div_scalar(self: Tensor, other: float) -> Tensor:
    """self / other recorded as DivBackward1 (a C++ scalar divide)."""
    out = (self._d / other).astype(self._d.dtype)
    return record(DivScalarBackward, out, (self,), {"other": other})


class DivScalarBackward(OpNode):
    __slots__ = ()
    _scalars = frozenset(("other",))

    def apply(self, grads: Grads) -> Grads:
        return [grads[0] / self.saved("other")]  # type: ignore[operator]


def add_scalar(self: Tensor, other: float) -> Tensor:
    """self + other recorded as AddBackward1 (a C++ scalar add: it saves nothing)."""
    out = np.asarray(self._d + other).astype(self._d.dtype)
    return record(AddScalarBackward, out, (self,))


class AddScalarBackward(OpNode):
    __slots__ = ()

    def apply(self, grads: Grads) -> Grads:
        return [grads[0]]


# Named after class creation: Python's `x * 2` records MulBackward0 (a wrapped number), so
# these C++-only overloads stay out of the op registry.
rename_class(MulScalarBackward, "MulBackward1")
rename_class(DivScalarBackward, "DivBackward1")
rename_class(AddScalarBackward, "AddBackward1")
