"""`F.unfold` (im2col) and `F.fold` (col2im): sliding blocks to columns and back.

Each is the other's gradient, as in PyTorch (`Im2ColBackward0` runs col2im, `Col2ImBackward0`
runs im2col). Columns are ordered channel-major, then kernel row, then kernel column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array

Pair = tuple[int, int]


def _pair(v: Any) -> Pair:
    if isinstance(v, int):
        return (v, v)
    t = tuple(int(i) for i in v)
    return (t[0], t[1]) if len(t) == 2 else (t[0], t[0])


def _blocks(size: Pair, k: Pair, d: Pair, p: Pair, s: Pair) -> Pair:
    oh = (size[0] + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (size[1] + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    return oh, ow


def _slices(i: int, j: int, o: Pair, d: Pair, s: Pair) -> tuple[slice, slice]:
    r0, c0 = i * d[0], j * d[1]
    return slice(r0, r0 + s[0] * (o[0] - 1) + 1, s[0]), slice(c0, c0 + s[1] * (o[1] - 1) + 1, s[1])


def im2col(x: Array, k: Pair, d: Pair, p: Pair, s: Pair) -> Array:
    """[N, C, H, W] -> [N, C*kh*kw, L]."""
    n, c, h, w = x.shape
    o = _blocks((h, w), k, d, p, s)
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    out = np.empty((n, c, k[0], k[1], o[0], o[1]), x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            rs, cs = _slices(i, j, o, d, s)
            out[:, :, i, j] = xp[:, :, rs, cs]
    return out.reshape(n, c * k[0] * k[1], o[0] * o[1])


def col2im(cols: Array, size: Pair, k: Pair, d: Pair, p: Pair, s: Pair) -> Array:
    """[N, C*kh*kw, L] -> [N, C, H, W], summing where blocks overlap."""
    n = cols.shape[0]
    c = cols.shape[1] // (k[0] * k[1])
    o = _blocks(size, k, d, p, s)
    blocks = cols.reshape(n, c, k[0], k[1], o[0], o[1])
    out = np.zeros((n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]), cols.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            rs, cs = _slices(i, j, o, d, s)
            out[:, :, rs, cs] += blocks[:, :, i, j]
    return out[:, :, p[0] : p[0] + size[0], p[1] : p[1] + size[1]]


def _batched(a: Array, want: int) -> tuple[Array, bool]:
    return (a[None], True) if a.ndim == want - 1 else (a, False)


def unfold(
    input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Tensor:
    """Extract sliding local blocks: [N, C, H, W] -> [N, C*kh*kw, L]."""
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    x = input._d
    if 0 < x.ndim < 3:  # ATen reads the size of dim 2 before checking the rank
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but "
            "got 2)"
        )
    if x.ndim not in (3, 4):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor for input with possible 0 batch size and "
            f"non-zero dimensions for input, but got: {list(x.shape)}"
        )
    xb, unb = _batched(x, 4)
    o = _blocks((xb.shape[2], xb.shape[3]), k, d, p, s)
    if o[0] < 1 or o[1] < 1:
        raise RuntimeError(
            f"Given input with spatial size ({xb.shape[2]}, {xb.shape[3]}), kernel_size=({k[0]}, "
            f"{k[1]}), dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), calculated shape of "
            f"the array of sliding blocks as ({o[0]}, {o[1]}), but its components must be at "
            "least one."
        )
    out = im2col(xb, k, d, p, s)
    out = out[0] if unb else out
    saved = {
        "kernel_size": k,
        "dilation": d,
        "padding": p,
        "stride": s,
        "self_sym_argsize_minus_2": x.shape[-2],
        "self_sym_argsize_minus_1": x.shape[-1],
    }
    return record(Im2ColBackward0, out, (input,), saved)


class Im2ColBackward0(OpNode):
    __slots__ = ()
    _name = "Im2ColBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        size = (self.saved("self_sym_argsize_minus_2"), self.saved("self_sym_argsize_minus_1"))
        k, d = self.saved("kernel_size"), self.saved("dilation")
        return [fold(g, size, k, d, self.saved("padding"), self.saved("stride"))]


def fold(
    input: Tensor,
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Combine sliding local blocks into a tensor: [N, C*kh*kw, L] -> [N, C, H, W]."""
    size, k = _pair(output_size), _pair(kernel_size)
    d, p, s = _pair(dilation), _pair(padding), _pair(stride)
    x = input._d
    if x.ndim not in (2, 3):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possible 0 batch size and "
            f"non-zero dimensions for input, but got: {list(x.shape)}"
        )
    xb, unb = _batched(x, 3)
    kk = k[0] * k[1]
    if xb.shape[1] % kk:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={xb.shape[1]} and kernel_size=({k[0]}, {k[1]})."
        )
    o = _blocks(size, k, d, p, s)
    if o[0] * o[1] != xb.shape[2]:
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({d[0]}, {d[1]}), padding=({p[0]}, {p[1]}), stride=({s[0]}, {s[1]}), "
            f"expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {o[0]} * {o[1]} = {o[0] * o[1]}, but got input.size(2)={xb.shape[2]}."
        )
    out = col2im(xb, size, k, d, p, s)
    out = out[0] if unb else out
    saved = {"kernel_size": k, "dilation": d, "padding": p, "stride": s}
    return record(Col2ImBackward0, np.ascontiguousarray(out), (input,), saved)


class Col2ImBackward0(OpNode):
    __slots__ = ()
    _name = "Col2ImBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        k, d = self.saved("kernel_size"), self.saved("dilation")
        return [unfold(g, k, d, self.saved("padding"), self.saved("stride"))]
