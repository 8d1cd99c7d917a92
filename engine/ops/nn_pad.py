"""Padding: constant (`ConstantPadNdBackward0`, negative amounts crop), reflection and
replication (`ReflectionPad2DBackward0`...)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, variant
from engine.ops.nn_ops import Array, linear_grad


def _index_map(n: int, lo: int, hi: int, mode: str) -> Array:
    """Source index along one dimension for each padded position."""
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
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
    if mode == "reflect":
        for i, (lo, hi) in enumerate(pairs):
            if lo >= a.shape[i] or hi >= a.shape[i]:
                arg = 4 + 2 * (a.ndim - 1 - i)  # ATen numbers the pad arguments from the last dim
                raise RuntimeError(
                    f"Argument #{arg}: Padding size should be less than the corresponding input "
                    f"dimension, but got: padding ({lo}, {hi}) at dimension {i} of input "
                    f"{list(a.shape)}"
                )
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
        crop, pad = (lambda a: _crop(a, pairs)), (lambda a: _pad(a, pairs))
        saved = {"pad": [-p for p in self.saved("pad")]}
        return [linear_grad(self._name, g, crop, pad, same=True, saved=saved)]


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

        gather = lambda a: np.ascontiguousarray(a[ix])  # noqa: E731
        saved = {"padding": self.saved("padding")}
        return [linear_grad(self._name, g, scatter, gather, self.saved("self"), saved=saved)]


_PAD_NODES: dict[str, type[_GatherPad]] = {
    n: variant(_GatherPad, n)
    for kind in ("Reflection", "Replication")
    for n in (f"{kind}Pad{k}DBackward0" for k in (1, 2, 3))
}


def _check_pad_mode(x: Tensor, n: int, mode: str, value: float | None) -> None:
    """ATen's refusals for reflect/replicate/circular padding."""
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if x.ndim not in (n // 2 + 1, n // 2 + 2) or n not in (2, 4, 6):
        raise NotImplementedError(
            f"Padding size {n} is not supported for {x.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last len(pad)/2 dimensions ((left, right) pairs from the last dimension)."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            "got padding length " + f"{len(pad)} and input of dimension {input.ndim}"
        )
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        _check_pad_mode(input, len(pad), mode, value)
    if mode == "circular":
        return pad_circular(input, tuple(int(p) for p in pad))
    return pad_nd(input, tuple(int(p) for p in pad), mode, 0.0 if value is None else value)


def pad_circular(x: Tensor, pad: tuple[int, ...]) -> Tensor:
    """ATen's `_pad_circular`: copy x into an empty tensor, then copy its wrapped edges in,
    slice by slice, so the graph is PyTorch's chain of CopySlices."""
    from engine._creation import empty

    shape, nd = list(x.shape), len(pad) // 2
    lead = len(shape) - nd
    if lead not in (1, 2):
        raise RuntimeError(
            "Invalid padding size, expected 1 or 2 non-padded dimensions, which would be "
            f"equivalent to padding of length {(len(shape) - 1) * 2} or {(len(shape) - 2) * 2} "
            f"respectively but got {len(pad)}"
        )
    out_shape = list(shape)
    for i in range(nd):
        left, right, size = pad[2 * i], pad[2 * i + 1], shape[-i - 1]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        out_shape[-i - 1] = size + left + right
        if out_shape[-i - 1] <= 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = empty(out_shape, dtype=x.dtype)
    out_slice, in_slice = out, x

    def cut(t: Any, dim: int, start: int, stop: int) -> Any:
        return t.narrow(dim, start, stop - start)

    for i in range(nd):
        dim, left, right = nd - i + lead - 1, pad[2 * i], pad[2 * i + 1]
        out_slice = cut(out_slice, dim, max(left, 0), out_shape[dim] - max(right, 0))
        in_slice = cut(in_slice, dim, max(-left, 0), shape[dim] - max(-right, 0))
    out_slice.copy_(in_slice)
    for i in range(nd):  # the left pad, then the right one (corners are written twice)
        dim, left, right = nd - i + lead - 1, pad[2 * i], pad[2 * i + 1]
        n = out_shape[dim]
        if left > 0:
            cut(out, dim, 0, left).copy_(cut(out, dim, n - left - max(right, 0), n - max(right, 0)))
        if right > 0:
            cut(out, dim, n - right, n).copy_(cut(out, dim, max(left, 0), max(left, 0) + right))
    return out
