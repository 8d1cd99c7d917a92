"""Max (with indices) and average pooling over 2 or 3 spatial dims (1d runs as 2d).

Inputs are (N, C, *sp) or unbatched (C, *sp). Work is done per kernel tap over output-sized
strided views of the padded input, so no window is ever copied.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi
from engine.ops.nn_conv import Pair, windows
from engine.ops.nn_ops import Array, linear_grad

Tap = tuple[int, tuple[slice, ...]]


def pool_out(n: int, k: int, s: int, p: int, d: int, ceil: bool) -> int:
    """PyTorch's pooling output size (a last window must start inside the padded input)."""
    span = n + 2 * p - d * (k - 1) - 1
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def batched(x: Array, nd: int) -> Array:
    """x with a batch axis (unbatched inputs have nd + 1 dims)."""
    return x[None] if x.ndim == nd + 1 else x


def _check(x: Array, k: Pair, p: Pair, d: Pair, avg: bool = False) -> None:
    nd = len(k)
    if avg and nd == 2 and x.ndim < 3:  # avg_pool2d reads size(-3) first
        n = max(x.ndim, 1)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got -3)"
        )
    if x.ndim not in (nd + 1, nd + 2) or x.size == 0:
        raise RuntimeError(
            f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input"
        )
    for ki, pi, di in zip(k, p, d):
        if pi > ((ki - 1) * di + 1) // 2:
            raise RuntimeError(
                "pad should be at most half of effective kernel size, but got "
                f"pad={pi}, kernel_size={ki} and dilation={di}"
            )


def _check_half_kernel(k: Pair, p: Pair) -> None:
    """Max pooling's second padding check: against half the undilated kernel."""
    if all(pi <= ki // 2 for ki, pi in zip(k, p)):
        return
    msg = "pad should be smaller than or equal to half of kernel size, but got "
    if len(k) == 3:
        msg += f"kT: {k[0]} kW: {k[2]} kH: {k[1]} padT: {p[0]} padW: {p[2]} padH: {p[1]}"
    else:
        msg += f"padW = {p[1]}, padH = {p[0]}, kW = {k[1]}, kH = {k[0]}"
    raise RuntimeError(msg)


def _sizes(x: Array, k: Pair, s: Pair, p: Pair, d: Pair, ceil: bool, avg: bool) -> Pair:
    """Output sizes, refusing empty ones with PyTorch's message for the op."""
    sp = x.shape[-len(k) :]
    o = tuple(pool_out(sp[i], k[i], s[i], p[i], d[i], ceil) for i in range(len(k)))
    if min(o) >= 1:
        return o
    if avg and len(k) == 3:  # avg_pool3d's own check, worded differently
        raise RuntimeError(
            f"input image (T: {sp[0]} H: {sp[1]} W: {sp[2]}) smaller than kernel size "
            f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})"
        )
    c = x.shape[-len(k) - 1]
    raise RuntimeError(
        f"Given input size: ({'x'.join(map(str, (c, *sp)))}). Calculated output size: "
        f"({'x'.join(map(str, (c, *o)))}). Output size is too small"
    )


def _padded(a: Array, k: Pair, s: Pair, p: Pair, d: Pair, o: Pair, value: float) -> Array:
    """a padded by p on both sides, plus what ceil_mode's last window reaches past the end."""
    sp = a.shape[2:]
    extra = [
        max(0, (o[i] - 1) * s[i] + (k[i] - 1) * d[i] + 1 - sp[i] - 2 * p[i]) for i in range(len(k))
    ]
    pads = ((0, 0), (0, 0), *((p[i], p[i] + extra[i]) for i in range(len(k))))
    return np.pad(a, pads, constant_values=value) if any(sum(pads, ())) else a


def _taps(k: Pair, s: Pair, d: Pair, o: Pair) -> list[Tap]:
    """(flat kernel offset, spatial slices) of each kernel tap over the padded input."""
    taps = []
    for t, pos in enumerate(itertools.product(*(range(ki) for ki in k))):
        sl = tuple(
            slice(j * di, j * di + si * (oi - 1) + 1, si) for j, di, si, oi in zip(pos, d, s, o)
        )
        taps.append((t, sl))
    return taps


def _at(a: Array, sl: tuple[slice, ...]) -> Array:
    return a[(slice(None), slice(None), *sl)]


def _crop(a: Array, p: Pair, sp: Pair) -> Array:
    return _at(a, tuple(slice(pi, pi + n) for pi, n in zip(p, sp)))


def max_pool_with_indices(
    x: Tensor, k: Pair, s: Pair, p: Pair, d: Pair, ceil_mode: bool, with_indices: bool = True
) -> tuple[Tensor, Tensor | None]:
    """Max over windows, and the flat index (over the input's spatial dims) of each maximum
    (when asked: the indices cost a third of the op and `F.max_pool2d` usually drops them)."""
    _check(x._d, k, p, d)
    nd, saved_s, s = len(k), s, s or k  # an empty stride (saved as given) is the kernel size
    _check_half_kernel(k, p)
    o = _sizes(x._d, k, s, p, d, ceil_mode, False)
    ap = _padded(batched(x._d, nd), k, s, p, d, o, -np.inf)
    # passes over output-sized views per kernel tap: the maximum, then the first tap holding it
    # (later taps written first, so the first wins)
    taps = _taps(k, s, d, o)
    best = _at(ap, taps[0][1]).copy()
    for _, sl in taps[1:]:
        np.maximum(best, _at(ap, sl), out=best)
    tap = np.zeros(best.shape, np.int8 if len(taps) < 128 else np.int64)  # small: fast compares
    for t, sl in reversed(taps[1:]):
        np.copyto(tap, t, where=_at(ap, sl) == best)
    if np.isnan(best).any():  # a NaN takes over, as in PyTorch's kernel: the last NaN wins
        for t, sl in taps:
            tap[np.isnan(_at(ap, sl))] = t
    out = best[0] if x._d.ndim == nd + 1 else best
    saved = {"self": x, "kernel_size": k, "stride": saved_s, "padding": p, "dilation": d}
    saved["ceil_mode"] = ceil_mode
    node = MaxPool3DWithIndicesBackward0 if nd == 3 else MaxPool2DWithIndicesBackward0
    if not with_indices:
        # ATen also saves the indices here (`_saved_result1`); building them costs 1.3-1.7x
        # this forward, so the engine keeps its tap array and shows no result1
        return record(node, out, (x,), saved, keep={"tap": tap, "padded": ap.shape}), None
    offs = np.unravel_index(tap.astype(np.int64), k)
    sp = x._d.shape[-nd:]
    idx = np.zeros(tap.shape, np.int64)
    for i in range(nd):
        start = (np.arange(o[i]) * s[i] - p[i]).reshape((-1,) + (1,) * (nd - 1 - i))
        idx = idx * sp[i] + start + offs[i] * d[i]
    res1: Array = idx[0] if x._d.ndim == nd + 1 else idx
    saved["result1"] = res1
    keep = {"tap": tap, "padded": ap.shape}
    res, ind = record_multi(node, [out, res1], (x,), saved, [True, False], keep)
    return res, ind


class MaxPool2DWithIndicesBackward0(OpNode):
    __slots__ = ()
    _name = "MaxPool2DWithIndicesBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        k, s, d = self.saved("kernel_size"), self.saved("stride"), self.saved("dilation")
        p, nd, s = self.saved("padding"), len(k), s or k
        tap, padded = self.__dict__["tap"], self.__dict__["padded"]
        sp, o = batched(x, nd).shape[2:], tap.shape[2:]
        taps = _taps(k, s, d, o)
        tiled = k == s and set(d) == {1} and tuple(a * b for a, b in zip(o, k)) == sp == padded[2:]

        def scatter(gd: Array) -> Array:
            gb = batched(gd, nd)
            if tiled:  # windows tile the input: one pass writing (n, c, o0, k0, o1, k1, ...)
                inter = (*gb.shape[:2], *(v for oi in o for v in (oi, 1)))
                grid = np.arange(len(taps)).reshape(k).astype(tap.dtype)
                grid = grid.reshape((1, 1, *(v for ki in k for v in (1, ki))))
                out = (tap.reshape(inter) == grid) * gb.reshape(inter)
                return np.asarray(out, gd.dtype).reshape(x.shape)
            gx = np.zeros((*gb.shape[:2], *padded[2:]), gb.dtype)
            for t, sl in taps:
                _at(gx, sl)[...] += np.where(tap == t, gb, 0)
            return np.ascontiguousarray(_crop(gx, p, sp)).reshape(x.shape)

        def gather(gg: Array) -> Array:
            gb = batched(gg, nd)
            pads = ((0, 0), (0, 0), *((pi, pp - n - pi) for pi, pp, n in zip(p, padded[2:], sp)))
            gp = np.pad(gb, pads)
            out = np.zeros(tap.shape, gg.dtype)
            for t, sl in taps:
                out += np.where(tap == t, _at(gp, sl), 0)
            return out.reshape(g._d.shape)

        return [linear_grad(self._name, g, scatter, gather, self.saved("self"))]


class MaxPool3DWithIndicesBackward0(MaxPool2DWithIndicesBackward0):
    __slots__ = ()
    _name = "MaxPool3DWithIndicesBackward0"


def _avg_divisor(n: int, o: int, k: int, s: int, p: int, include_pad: bool) -> Array:
    start = np.arange(o) * s - p
    end = np.minimum(start + k, n + p)
    size = end - start
    if not include_pad:
        size = np.minimum(end, n) - np.maximum(start, 0)
    return size


def avg_pool(
    x: Tensor,
    k: Pair,
    s: Pair,
    p: Pair,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int | None,
) -> Tensor:
    """Mean over windows (zero padding counted unless `count_include_pad=False`)."""
    nd, ones, saved_s, s = len(k), (1,) * len(k), s, s or k
    _check(x._d, k, p, ones, avg=True)
    o = _sizes(x._d, k, s, p, ones, ceil_mode, True)
    a = batched(x._d, nd)
    ap = _padded(a, k, s, p, ones, o, 0.0)
    sums = windows(ap, k, s, ones, o).sum(axis=tuple(range(-nd, 0)))
    if divisor_override:
        div: Array = np.asarray(divisor_override)
    else:
        sp = a.shape[2:]
        divs = [_avg_divisor(sp[i], o[i], k[i], s[i], p[i], count_include_pad) for i in range(nd)]
        div = functools.reduce(np.multiply.outer, divs)
    out = (sums / div).astype(a.dtype)
    if x._d.ndim == nd + 1:
        out = out[0]
    saved = {"self": x, "kernel_size": k, "stride": saved_s, "padding": p, "ceil_mode": ceil_mode}
    saved.update({"count_include_pad": count_include_pad, "divisor_override": divisor_override})
    node = AvgPool3DBackward0 if nd == 3 else AvgPool2DBackward0
    return record(node, out, (x,), saved, keep={"div": div, "padded": ap.shape})


class AvgPool2DBackward0(OpNode):
    __slots__ = ()
    _name = "AvgPool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        k, s, p = self.saved("kernel_size"), self.saved("stride"), self.saved("padding")
        nd, s = len(k), s or k
        div, padded = self.__dict__["div"], self.__dict__["padded"]
        sp, o = batched(x, nd).shape[2:], batched(g._d, nd).shape[2:]
        taps = _taps(k, s, (1,) * nd, o)

        def spread(gd: Array) -> Array:
            gb = batched(gd, nd) / div
            gx = np.zeros((*gb.shape[:2], *padded[2:]), gb.dtype)
            for _, sl in taps:
                _at(gx, sl)[...] += gb
            return np.ascontiguousarray(_crop(gx, p, sp).reshape(x.shape)).astype(gd.dtype)

        def average(gg: Array) -> Array:
            pads = ((0, 0), (0, 0), *((pi, pp - n - pi) for pi, pp, n in zip(p, padded[2:], sp)))
            gp = np.pad(batched(gg, nd), pads)
            out = sum(_at(gp, sl) for _, sl in taps) / div
            return np.asarray(out, gg.dtype).reshape(g._d.shape)

        return [linear_grad(self._name, g, spread, average, self.saved("self"))]


class AvgPool3DBackward0(AvgPool2DBackward0):
    __slots__ = ()
    _name = "AvgPool3DBackward0"
