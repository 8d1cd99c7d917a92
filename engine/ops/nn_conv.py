"""Convolution (1d/2d, transposed) as im2col + one GEMM per group.

Everything is 2d inside: a 1d convolution is a 2d one with height 1. Padding is kept per side
(`((top, bottom), (left, right))`) because padding='same' with an even kernel is asymmetric.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from engine._dtype import CPP_NAMES
from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, acc_dtype, record
from engine.ops.nn_ops import Array, const

Pair = tuple[int, ...]  # one entry per spatial dimension
Pads = tuple[tuple[int, int], ...]  # (before, after) per spatial dimension


def windows(xp: Array, k: Pair, s: Pair, d: Pair, out_sz: Pair) -> Array:
    """(N, C, *out, *k) strided view of the padded input's receptive fields."""
    nd = len(k)
    eff = tuple((k[i] - 1) * d[i] + 1 for i in range(nd))
    v = sliding_window_view(xp, eff, axis=tuple(range(2, 2 + nd)))
    v = v[(slice(None), slice(None), *(slice(None, None, a) for a in s + d))]
    return v[(slice(None), slice(None), *(slice(0, o) for o in out_sz))]


def out_size(n: int, k: int, s: int, p0: int, p1: int, d: int) -> int:
    return (n + p0 + p1 - d * (k - 1) - 1) // s + 1


def columns(x: Array, k: Pair, s: Pair, p: Pads, d: Pair, out_sz: Pair) -> Array:
    """im2col as (C * prod(k), N * prod(out)): channel-major, so each copied run is a row of
    the last output dimension (a kernel-minor layout copies 3 values at a time: 5x slower)."""
    n, c, nd = x.shape[0], x.shape[1], len(k)
    xp = _zero_pad(x, p) if any(a + b for a, b in p) else x
    win = windows(xp, k, s, d, out_sz)  # N C *out *k
    order = (1, *range(2 + nd, 2 + 2 * nd), 0, *range(2, 2 + nd))
    return win.transpose(order).reshape(c * math.prod(k), n * math.prod(out_sz))


def _zero_pad(x: Array, p: Pads) -> Array:
    """Zero padding of the spatial axes (np.pad's general path costs more than the copy)."""
    out = np.zeros((*x.shape[:2], *(n + a + b for n, (a, b) in zip(x.shape[2:], p))), x.dtype)
    out[(slice(None), slice(None), *(slice(a, a + n) for n, (a, _) in zip(x.shape[2:], p)))] = x
    return out


def _gemm(a: Array, b: Array, groups: int, ta: bool = False, tb: bool = False) -> Array:
    """Per-group op(a) @ op(b), groups splitting the first axis of both stored arrays."""
    if groups == 1:
        return (a.T if ta else a) @ (b.T if tb else b)
    ag = np.split(a, groups)
    bg = np.split(b, groups)
    return np.concatenate([(x.T if ta else x) @ (y.T if tb else y) for x, y in zip(ag, bg)])


def _swap01(a: Array) -> Array:
    return a.transpose(1, 0, *range(2, a.ndim))


# im2col buffers above this many elements are built a few samples at a time (the Conv3d docs
# example would need 1.5 GB at once; PyTorch's own kernel unfolds one sample at a time)
COLS_LIMIT = 1 << 24


def _chunks(n: int, per_sample: int) -> list[slice]:
    step = max(1, COLS_LIMIT // max(per_sample, 1))
    return [slice(i, i + step) for i in range(0, n, step)]


def conv_forward(
    x: Array, w: Array, s: Pair, p: Pads, d: Pair, groups: int
) -> tuple[Array, Array | None]:
    """Cross-correlation of x (N, C, *sp) with w (O, C/g, *k); also returns the columns (None
    when they were built in batch chunks to bound memory)."""
    n, o, k = x.shape[0], w.shape[0], w.shape[2:]
    osz = tuple(out_size(x.shape[2 + i], k[i], s[i], p[i][0], p[i][1], d[i]) for i in range(len(k)))
    parts = _chunks(n, x.shape[1] * math.prod(k) * math.prod(osz))
    if len(parts) > 1:
        outs = [conv_forward(x[sl], w, s, p, d, groups)[0] for sl in parts]
        return np.concatenate(outs), None
    cols = columns(x, k, s, p, d, osz)
    out = _gemm(w.reshape(o, -1), cols, groups)  # O x (N *out)
    return np.ascontiguousarray(_swap01(out.reshape(o, n, *osz))), cols


def _rows(g: Array) -> Array:
    """(N, O, *out) gradient as (O, N * prod(out))."""
    return np.ascontiguousarray(_swap01(g)).reshape(g.shape[1], -1)


def conv_input_grad(
    g: Array, w: Array, x_shape: tuple[int, ...], s: Pair, p: Pads, d: Pair, groups: int
) -> Array:
    """Gradient of conv_forward with respect to x (also the transposed convolution): col2im."""
    n, c, sp = x_shape[0], x_shape[1], x_shape[2:]
    o, k, osz = w.shape[0], w.shape[2:], g.shape[2:]
    parts = _chunks(n, c * math.prod(k) * math.prod(osz))
    if len(parts) > 1:
        pieces = [
            conv_input_grad(g[sl], w, (g[sl].shape[0], *x_shape[1:]), s, p, d, groups)
            for sl in parts
        ]
        return np.concatenate(pieces)
    gcols = _gemm(w.reshape(o, -1), _rows(g), groups, ta=True)
    gcols = gcols.reshape(c, *k, n, *osz)
    gx = np.zeros((c, n, *(m + a + b for m, (a, b) in zip(sp, p))), g.dtype)
    for tap in itertools.product(*(range(m) for m in k)):
        sl = (
            slice(t * di, t * di + si * (oi - 1) + 1, si) for t, di, si, oi in zip(tap, d, s, osz)
        )
        src: tuple[Any, ...] = (slice(None), *tap)
        gx[(slice(None), slice(None), *sl)] += gcols[src]
    gx = gx[(slice(None), slice(None), *(slice(a, a + m) for m, (a, _) in zip(sp, p)))]
    return np.ascontiguousarray(_swap01(gx))


def conv_weight_grad(g: Array, cols: Array, w_shape: tuple[int, ...], groups: int) -> Array:
    """Gradient of conv_forward with respect to w, from the forward's columns."""
    return _gemm(_rows(g), cols, groups, tb=True).reshape(w_shape)


def weight_grad(
    g: Array, x: Array, w_shape: tuple[int, ...], s: Pair, p: Pads, d: Pair, groups: int
) -> Array:
    """conv_weight_grad with x's columns rebuilt, a few samples at a time when large."""
    k, osz = w_shape[2:], g.shape[2:]
    total: Array | None = None
    for sl in _chunks(x.shape[0], x.shape[1] * math.prod(k) * math.prod(osz)):
        part = conv_weight_grad(g[sl], columns(x[sl], k, s, p, d, osz), w_shape, groups)
        total = part if total is None else total + part
    assert total is not None
    return total


def _check_dtypes(xd: Any, wd: Any, b: Tensor | None) -> None:
    """PyTorch's refusals of mixed dtypes (the bias is checked first)."""
    if b is not None and b._d.dtype != xd.dtype:
        cx, cb = (CPP_NAMES[d.name] for d in (xd.dtype, b._d.dtype))
        raise RuntimeError(f"Input type ({cx}) and bias type ({cb}) should be the same")
    if wd.dtype != xd.dtype:
        from engine.ops.reduce_stats import _type_name

        raise RuntimeError(f"expected scalar type {_type_name(xd)} but found {_type_name(wd)}")


def convolution(
    x: Tensor,
    w: Tensor,
    b: Tensor | None,
    stride: Pair,
    pads: Pads,
    dilation: Pair,
    transposed: bool,
    output_padding: Pair,
    groups: int,
) -> Tensor:
    """PyTorch's `convolution` over 1, 2 or 3 spatial dims; 1d runs as 2d with height 1."""
    xd, wd = x._d, w._d
    _check_dtypes(xd, wd, b)
    acc = acc_dtype(xd.dtype)  # bfloat16: computed in float32, rounded once
    if acc is not None:
        xd, wd = xd.astype(acc), wd.astype(acc)
    squeeze_h = xd.ndim == 3
    if squeeze_h:
        xd, wd = xd[:, :, None], wd[:, :, None]
    if transposed:
        k, sp = wd.shape[2:], xd.shape[2:]
        osz = tuple(
            (sp[i] - 1) * stride[i]
            - sum(pads[i])
            + dilation[i] * (k[i] - 1)
            + output_padding[i]
            + 1
            for i in range(len(k))
        )
        shape = (xd.shape[0], wd.shape[1] * groups, *osz)
        out = conv_input_grad(xd, wd, shape, stride, pads, dilation, groups)
        cols = None
    else:
        out, cols = conv_forward(xd, wd, stride, pads, dilation, groups)
    if b is not None:
        out = out + b._d.astype(out.dtype, copy=False).reshape(1, -1, *(1,) * (out.ndim - 2))
    if acc is not None:
        out, cols = out.astype(x._d.dtype), None
    if squeeze_h:
        out = out[:, :, 0]
    params = (stride, pads, dilation, output_padding)
    k = 1 if squeeze_h else 0  # PyTorch shows a 1d convolution's own (1-entry) parameters
    saved = {
        "input": x,
        "weight": w,
        "stride": stride[k:],
        "padding": tuple(a for a, _ in pads[k:]),
    }
    saved.update({"dilation": dilation[k:], "transposed": transposed})
    saved["output_padding"] = output_padding[k:]
    saved["groups"] = groups
    saved["bias_sym_sizes_opt"] = (0,) if b is None else tuple(b._d.shape)  # PyTorch: (0,) for none
    # the columns serve the weight gradient (saved as PyTorch would recompute them); `params`
    # keep the 2d form and per-side padding the kernels take
    keep = {"squeeze_h": squeeze_h, "params": params, "cols": cols if w._rg else None}
    return record(ConvolutionBackward0, np.ascontiguousarray(out), (x, w, b), saved, keep=keep)


class ConvolutionBackward0(OpNode):
    __slots__ = ()
    _name = "ConvolutionBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, wt = self.saved("input"), self.saved("weight")
        if STATE.enabled and (g._rg or xt._rg or wt._rg):
            return self._named_graph(g, xt, wt)
        x, w = xt._d, wt._d
        low = x.dtype
        acc = acc_dtype(low)  # bfloat16: computed in float32, each gradient rounded once
        if acc is not None:
            x, w, g = x.astype(acc), w.astype(acc), const(g._d.astype(acc))
        sq = self.__dict__["squeeze_h"]
        if sq:
            x, w = x[:, :, None], w[:, :, None]
        s, p, d, _ = self.__dict__["params"]
        groups = self.saved("groups")
        gd = g._d[:, :, None] if sq else g._d
        gx = gw = gb = None
        if self.saved("transposed"):
            # y = conv_input_grad(x, w): its adjoint in x is the plain convolution
            cols = None
            if self.needs(0):
                gx, cols = conv_forward(gd, w, s, p, d, groups)
            if self.needs(1):
                if cols is None:
                    gw = weight_grad(x, gd, w.shape, s, p, d, groups)
                else:
                    gw = conv_weight_grad(x, cols, w.shape, groups)
        else:
            if self.needs(0):
                gx = conv_input_grad(gd, w, x.shape, s, p, d, groups)
            if self.needs(1):
                cols = self.__dict__.get("cols")
                if cols is None:
                    gw = weight_grad(gd, x, w.shape, s, p, d, groups)
                else:
                    gw = conv_weight_grad(gd, cols, w.shape, groups)
        if self.needs(2):
            gb = gd.sum(axis=(0, *range(2, gd.ndim)))
        out: Grads = []
        for a in (gx, gw, gb):
            if a is not None and sq and a.ndim == 4:  # back to the 1d layout
                a = a[:, :, 0]
            out.append(None if a is None else const(np.ascontiguousarray(a, low)))
        return out

    def _named_graph(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph: the gradients composed of convolutions, shown as PyTorch's one
        ConvolutionBackwardBackward0 node over (grad_output, input, weight)."""
        from engine.ops.composed_grad import named_grads

        if self.saved("groups") > 1:
            compose = self._regrad_groups
        elif self.saved("transposed"):
            compose = self._apply_graph_t
        else:
            compose = self._apply_graph
        keys = ("dilation", "groups", "output_padding", "padding", "stride", "transposed")
        saved = {"grad_output": g, "input": xt, "weight": wt}
        saved.update({k: self.saved(k) for k in keys})
        return named_grads("ConvolutionBackwardBackward0", compose, (g, xt, wt), saved)

    def _apply_graph(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph: both gradients as recorded convolutions, so they differentiate again."""
        s, p, d, op = self.__dict__["params"]
        nd = xt._d.ndim - 2
        sp_x, sp_g, sp_w = xt._d.shape[2:], g._d.shape[2:], wt._d.shape[2:]
        if nd == 1:  # the 2d parameters of a 1d convolution: height 1
            s, p, d = s[1:], p[1:], d[1:]
        gx = gw = gb = None
        if self.needs(0):
            # the adjoint in x: a transposed convolution sized back to x
            op = tuple(
                sp_x[i] - ((sp_g[i] - 1) * s[i] - sum(p[i]) + d[i] * (sp_w[i] - 1) + 1)
                for i in range(nd)
            )
            s2, p2, d2, op2 = _as2d(s, p, d, op)
            gx = convolution(g, wt, None, s2, p2, d2, True, op2, 1)
        if self.needs(1):
            # gw[o, c] = conv(x[:, c], g[:, o]) with stride and dilation swapped, cropped to k
            xs, gs = xt.transpose(0, 1), g.transpose(0, 1)
            s2, p2, d2, _ = _as2d(d, p, s, (0,) * nd)
            full = convolution(xs, gs, None, s2, p2, d2, False, (0,) * len(s2), 1)
            crop = (slice(None), slice(None), *tuple(slice(0, k) for k in sp_w))
            gw = full[crop].transpose(0, 1)
        if self.needs(2):
            gb = g.sum((0, *range(2, g._d.ndim)))
        return [gx, gw, gb]

    def _apply_graph_t(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph for a transposed convolution: its gradients are plain convolutions."""
        s, p, d, _ = self.__dict__["params"]
        gx = gw = gb = None
        if self.needs(0):
            gx = convolution(g, wt, None, s, p, d, False, (0,) * len(s), 1)
        if self.needs(1):
            gs, xs = g.transpose(0, 1), xt.transpose(0, 1)
            full = convolution(gs, xs, None, d, p, s, False, (0,) * len(s), 1)
            crop = (slice(None), slice(None), *tuple(slice(0, k) for k in wt._d.shape[2:]))
            gw = full[crop].transpose(0, 1)
        if self.needs(2):
            gb = g.sum((0, *range(2, g._d.ndim)))
        return [gx, gw, gb]

    def _regrad_groups(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph for groups > 1: differentiate the per-group convolutions, concatenated."""
        from engine.ops.composed_grad import regrad
        from engine.ops.tensor_shape import cat

        s, p, d, op = self.__dict__["params"]
        tr, groups = self.saved("transposed"), self.saved("groups")

        def fwd(x: Tensor, w: Tensor, _: Any) -> Tensor:
            xs, ws = x.chunk(groups, 1), w.chunk(groups, 0)
            return cat([convolution(a, b, None, s, p, d, tr, op, 1) for a, b in zip(xs, ws)], 1)

        out = regrad(self, g, [xt, wt, None], fwd)
        if self.needs(2):
            out[2] = g.sum((0, *range(2, g._d.ndim)))
        return out


def _as2d(s: tuple[int, ...], p: Any, d: tuple[int, ...], op: tuple[int, ...]) -> Any:
    """1d convolution parameters in the 2d form `convolution` takes (others unchanged)."""
    if len(s) == 1:
        return (1, s[0]), ((0, 0), tuple(p[0])), (1, d[0]), (0, op[0])
    return tuple(s), tuple(tuple(a) for a in p), tuple(d), tuple(op)
