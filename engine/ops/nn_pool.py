"""2d pooling: max (with indices), average, adaptive average. Inputs (N, C, H, W) or (C, H, W)."""

from __future__ import annotations

import math

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi
from engine.ops.nn_conv import Pair, windows
from engine.ops.nn_ops import Array, linear_grad, stash


def pool_out(n: int, k: int, s: int, p: int, d: int, ceil: bool) -> int:
    """PyTorch's pooling output size (a last window must start inside the padded input)."""
    span = n + 2 * p - d * (k - 1) - 1
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def _as4(x: Array) -> Array:
    return x[None] if x.ndim == 3 else x


def _check_out(x: Array, ho: int, wo: int) -> None:
    if ho < 1 or wo < 1:
        c, h, w = x.shape[-3:]
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{ho}x{wo}). "
            "Output size is too small"
        )


def _check(x: Array, k: Pair, p: Pair, name: str) -> None:
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if p[0] * 2 > k[0] or p[1] * 2 > k[1]:
        raise RuntimeError(
            "pad should be at most half of effective kernel size, but got "
            f"pad={p[0] if p[0] * 2 > k[0] else p[1]}, "
            f"kernel_size={k[0] if p[0] * 2 > k[0] else k[1]} and dilation=1"
        )


def _taps(k: Pair, s: Pair, d: Pair, out_hw: Pair) -> list[tuple[int, slice, slice]]:
    """(window offset, row slice, column slice) of each kernel tap over the padded input."""
    taps = []
    for i in range(k[0]):
        for j in range(k[1]):
            rs = slice(i * d[0], i * d[0] + s[0] * (out_hw[0] - 1) + 1, s[0])
            cs = slice(j * d[1], j * d[1] + s[1] * (out_hw[1] - 1) + 1, s[1])
            taps.append((i * k[1] + j, rs, cs))
    return taps


def _nan_taps(ap: Array, taps: list[tuple[int, slice, slice]], best: Array, tap: Array) -> None:
    """Redo the tap choice where the maximum is NaN: the last NaN wins."""
    for t, rs, cs in taps:
        tap[np.isnan(ap[:, :, rs, cs])] = t


def max_pool2d_with_indices(
    x: Tensor, k: Pair, s: Pair, p: Pair, d: Pair, ceil_mode: bool, with_indices: bool = True
) -> tuple[Tensor, Tensor | None]:
    """Max over windows, and the flat (h * W + w) index of each maximum (when asked: the
    indices cost a third of the op and `F.max_pool2d` usually drops them)."""
    _check(x._d, k, p, "max")
    a = _as4(x._d)
    _n, _c, h, w = a.shape
    ho = pool_out(h, k[0], s[0], p[0], d[0], ceil_mode)
    wo = pool_out(w, k[1], s[1], p[1], d[1], ceil_mode)
    _check_out(x._d, ho, wo)
    extra_h = max(0, (ho - 1) * s[0] + (k[0] - 1) * d[0] + 1 - h - 2 * p[0])
    extra_w = max(0, (wo - 1) * s[1] + (k[1] - 1) * d[1] + 1 - w - 2 * p[1])
    pads = ((0, 0), (0, 0), (p[0], p[0] + extra_h), (p[1], p[1] + extra_w))
    ap = np.pad(a, pads, constant_values=-np.inf) if any(sum(pads, ())) else a
    # passes over output-sized views per kernel tap (no window copies): the maximum, then the
    # first tap holding it (later taps written first, so the first wins)
    taps = _taps(k, s, d, (ho, wo))
    best = ap[:, :, taps[0][1], taps[0][2]].copy()
    for _, rs, cs in taps[1:]:
        np.maximum(best, ap[:, :, rs, cs], out=best)
    tap = np.zeros(best.shape, np.int8 if len(taps) < 128 else np.int64)  # small: fast compares
    for t, rs, cs in reversed(taps[1:]):
        np.copyto(tap, t, where=ap[:, :, rs, cs] == best)
    if np.isnan(best).any():  # a NaN takes over, as in PyTorch's kernel
        _nan_taps(ap, taps, best, tap)
    out = best[0] if x._d.ndim == 3 else best
    saved = {"self": x, "kernel_size": k, "stride": s, "padding": p, "dilation": d}
    saved["ceil_mode"] = ceil_mode
    if not with_indices:
        res = record(MaxPool2DWithIndicesBackward0, out, (x,), saved)
        return stash(res, tap=tap, padded=ap.shape), None
    ki, kj = np.divmod(tap.astype(np.int64), k[1])
    hi = np.arange(ho)[:, None] * s[0] - p[0] + ki * d[0]
    wi = np.arange(wo)[None, :] * s[1] - p[1] + kj * d[1]
    idx = hi * w + wi
    res1: Array = idx[0] if x._d.ndim == 3 else idx
    saved["result1"] = res1
    outs: list[Array] = [out, res1]
    res, ind = record_multi(MaxPool2DWithIndicesBackward0, outs, (x,), saved, [True, False])
    return stash(res, tap=tap, padded=ap.shape), ind


class MaxPool2DWithIndicesBackward0(OpNode):
    __slots__ = ()
    _name = "MaxPool2DWithIndicesBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        k, s, d = self.saved("kernel_size"), self.saved("stride"), self.saved("dilation")
        p = self.saved("padding")
        tap = self.__dict__["tap"]
        h, w = _as4(x).shape[2:]
        hp, wp = self.__dict__["padded"][2:]
        taps = _taps(k, s, d, tap.shape[2:])
        ho, wo = tap.shape[2:]
        tiled = k == s and d == (1, 1) and (ho * k[0], wo * k[1]) == (h, w) == (hp, wp)

        def scatter(gd: Array) -> Array:
            g4 = _as4(gd)
            if tiled:  # windows tile the input: one pass writing (n, c, ho, kh, wo, kw)
                n, c, ho, wo = g4.shape
                grid = np.arange(k[0])[:, None] * k[1] + np.arange(k[1])[None, :]
                grid6 = grid.reshape(1, 1, 1, k[0], 1, k[1]).astype(tap.dtype)
                out = (tap.reshape(n, c, ho, 1, wo, 1) == grid6) * g4.reshape(n, c, ho, 1, wo, 1)
                return np.asarray(out, gd.dtype).reshape(x.shape)
            gx = np.zeros((*g4.shape[:2], hp, wp), g4.dtype)
            for t, rs, cs in taps:
                gx[:, :, rs, cs] += np.where(tap == t, g4, 0)
            return np.ascontiguousarray(gx[:, :, p[0] : p[0] + h, p[1] : p[1] + w]).reshape(x.shape)

        def gather(gg: Array) -> Array:
            g4 = _as4(gg)
            gp = np.pad(g4, ((0, 0), (0, 0), (p[0], hp - h - p[0]), (p[1], wp - w - p[1])))
            out = np.zeros(tap.shape, gg.dtype)
            for t, rs, cs in taps:
                out += np.where(tap == t, gp[:, :, rs, cs], 0)
            return out.reshape(g._d.shape)

        return [linear_grad(self._name, g, scatter, gather)]


def _avg_divisor(n: int, o: int, k: int, s: int, p: int, include_pad: bool) -> Array:
    start = np.arange(o) * s - p
    end = np.minimum(start + k, n + p)
    size = end - start
    if not include_pad:
        size = np.minimum(end, n) - np.maximum(start, 0)
    return size


def avg_pool2d(
    x: Tensor,
    k: Pair,
    s: Pair,
    p: Pair,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int | None,
) -> Tensor:
    """Mean over windows (zero padding counted unless `count_include_pad=False`)."""
    _check(x._d, k, p, "avg")
    a = _as4(x._d)
    _n, _c, h, w = a.shape
    ho = pool_out(h, k[0], s[0], p[0], 1, ceil_mode)
    wo = pool_out(w, k[1], s[1], p[1], 1, ceil_mode)
    _check_out(x._d, ho, wo)
    extra_h = max(0, (ho - 1) * s[0] + k[0] - h - 2 * p[0])
    extra_w = max(0, (wo - 1) * s[1] + k[1] - w - 2 * p[1])
    pads = ((0, 0), (0, 0), (p[0], p[0] + extra_h), (p[1], p[1] + extra_w))
    ap = np.pad(a, pads) if any(sum(pads, ())) else a
    sums = windows(ap, k, s, (1, 1), (ho, wo)).sum(axis=(-1, -2))
    if divisor_override:
        div: Array = np.asarray(divisor_override)
    else:
        dh = _avg_divisor(h, ho, k[0], s[0], p[0], count_include_pad)
        dw = _avg_divisor(w, wo, k[1], s[1], p[1], count_include_pad)
        div = np.outer(dh, dw)
    out = (sums / div).astype(a.dtype)
    if x._d.ndim == 3:
        out = out[0]
    saved = {"self": x, "kernel_size": k, "stride": s, "padding": p, "ceil_mode": ceil_mode}
    saved.update({"count_include_pad": count_include_pad, "divisor_override": divisor_override})
    return stash(record(AvgPool2DBackward0, out, (x,), saved), div=div)


class AvgPool2DBackward0(OpNode):
    __slots__ = ()
    _name = "AvgPool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        k, s, p = self.saved("kernel_size"), self.saved("stride"), self.saved("padding")
        div = self.__dict__["div"]
        h, w = _as4(x).shape[2:]
        ho, wo = _as4(g._d).shape[2:]
        hp = max(h + 2 * p[0], (ho - 1) * s[0] + k[0])
        wp = max(w + 2 * p[1], (wo - 1) * s[1] + k[1])
        taps = _taps(k, s, (1, 1), (ho, wo))

        def spread(gd: Array) -> Array:
            g4 = _as4(gd) / div
            gx = np.zeros((*g4.shape[:2], hp, wp), g4.dtype)
            for _, rs, cs in taps:
                gx[:, :, rs, cs] += g4
            out = gx[:, :, p[0] : p[0] + h, p[1] : p[1] + w]
            return np.ascontiguousarray(out.reshape(x.shape)).astype(gd.dtype)

        def average(gg: Array) -> Array:
            g4 = _as4(gg)
            gp = np.pad(g4, ((0, 0), (0, 0), (p[0], hp - h - p[0]), (p[1], wp - w - p[1])))
            out = sum(gp[:, :, rs, cs] for _, rs, cs in taps) / div
            return np.asarray(out, gg.dtype).reshape(g._d.shape)

        return [linear_grad(self._name, g, spread, average)]


def _bins(n: int, o: int) -> list[tuple[int, int]]:
    return [((i * n) // o, math.ceil((i + 1) * n / o)) for i in range(o)]


def adaptive_avg_pool2d(x: Tensor, size: Pair) -> Tensor:
    """Average over PyTorch's adaptive bins [floor(i n / o), ceil((i + 1) n / o))."""
    a = _as4(x._d)
    n, c, h, w = a.shape
    out = np.empty((n, c, size[0], size[1]), a.dtype)
    for i, (h0, h1) in enumerate(_bins(h, size[0])):
        for j, (w0, w1) in enumerate(_bins(w, size[1])):
            out[:, :, i, j] = a[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    if x._d.ndim == 3:
        out = out[0]
    return record(AdaptiveAvgPool2DBackward0, out, (x,), {"self": x})


class AdaptiveAvgPool2DBackward0(OpNode):
    __slots__ = ()
    _name = "AdaptiveAvgPool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        a = _as4(x)
        oh, ow = _as4(g._d).shape[2:]
        bins = [
            (i, j, h0, h1, w0, w1)
            for i, (h0, h1) in enumerate(_bins(a.shape[2], oh))
            for j, (w0, w1) in enumerate(_bins(a.shape[3], ow))
        ]

        def spread(gd: Array) -> Array:
            g4 = _as4(gd)
            gx = np.zeros((*g4.shape[:2], *a.shape[2:]), gd.dtype)
            for i, j, h0, h1, w0, w1 in bins:
                cnt = (h1 - h0) * (w1 - w0)
                gx[:, :, h0:h1, w0:w1] += (g4[:, :, i, j] / cnt)[:, :, None, None]
            return gx.reshape(x.shape)

        def average(gg: Array) -> Array:
            g4 = _as4(gg)
            out = np.empty((*g4.shape[:2], oh, ow), gg.dtype)
            for i, j, h0, h1, w0, w1 in bins:
                out[:, :, i, j] = g4[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
            return out.reshape(g._d.shape)

        return [linear_grad(self._name, g, spread, average)]
