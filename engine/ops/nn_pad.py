"""Padding: constant (`ConstantPadNdBackward0`, negative amounts crop), reflection and
replication (`ReflectionPad2DBackward0`...)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array, linear_grad


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
        saved: dict[str, Any] = {"pad": list(pad)}
        return record(ConstantPadNdBackward0, out, (x,), saved, keep={"pairs": pairs})
    if mode == "circular":
        raise NotImplementedError("circular padding is not supported by this engine")
    maps = [_index_map(a.shape[i], lo, hi, mode) for i, (lo, hi) in enumerate(pairs)]
    ix = np.ix_(*maps)
    name = ("Reflection" if mode == "reflect" else "Replication") + f"Pad{k}DBackward0"
    cls = _PAD_NODES[name]
    saved = {"padding": list(pad), "self": x}
    keep = {"ix": ix, "shape": a.shape}
    return record(cls, np.ascontiguousarray(a[ix]), (x,), saved, keep=keep)


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
