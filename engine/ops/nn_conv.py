"""Convolution (1d/2d, transposed) as im2col + one GEMM per group.

Everything is 2d inside: a 1d convolution is a 2d one with height 1. Padding is kept per side
(`((top, bottom), (left, right))`) because padding='same' with an even kernel is asymmetric.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array, const, stash

Pair = tuple[int, int]
Pads = tuple[Pair, Pair]


def windows(xp: Array, k: Pair, s: Pair, d: Pair, out_hw: Pair) -> Array:
    """(N, C, Ho, Wo, kh, kw) strided view of the padded input's receptive fields."""
    eh, ew = (k[0] - 1) * d[0] + 1, (k[1] - 1) * d[1] + 1
    v = sliding_window_view(xp, (eh, ew), axis=(2, 3))
    v = v[:, :, :: s[0], :: s[1], :: d[0], :: d[1]]
    return v[:, :, : out_hw[0], : out_hw[1]]


def out_size(n: int, k: int, s: int, p0: int, p1: int, d: int) -> int:
    return (n + p0 + p1 - d * (k - 1) - 1) // s + 1


def columns(x: Array, k: Pair, s: Pair, p: Pads, d: Pair, out_hw: Pair) -> Array:
    """im2col as (C * kh * kw, N * Ho * Wo): channel-major, so each copied run is a row of Wo
    contiguous values (a (.., kh, kw)-minor layout copies 3 values at a time and is 5x slower)."""
    n, c = x.shape[0], x.shape[1]
    xp = _zero_pad(x, p) if any(p[0] + p[1]) else x
    win = windows(xp, k, s, d, out_hw)  # N C Ho Wo kh kw
    return win.transpose(1, 4, 5, 0, 2, 3).reshape(c * k[0] * k[1], n * out_hw[0] * out_hw[1])


def _zero_pad(x: Array, p: Pads) -> Array:
    """Zero padding of the last two axes (np.pad's general path costs more than the copy)."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, h + p[0][0] + p[0][1], w + p[1][0] + p[1][1]), x.dtype)
    out[:, :, p[0][0] : p[0][0] + h, p[1][0] : p[1][0] + w] = x
    return out


def _gemm(a: Array, b: Array, groups: int, ta: bool = False, tb: bool = False) -> Array:
    """Per-group op(a) @ op(b), groups splitting the first axis of both stored arrays."""
    if groups == 1:
        return (a.T if ta else a) @ (b.T if tb else b)
    ag = np.split(a, groups)
    bg = np.split(b, groups)
    return np.concatenate([(x.T if ta else x) @ (y.T if tb else y) for x, y in zip(ag, bg)])


def conv_forward(x: Array, w: Array, s: Pair, p: Pads, d: Pair, groups: int) -> tuple[Array, Array]:
    """Cross-correlation of x (N, C, H, W) with w (O, C/g, kh, kw); also returns the columns."""
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    ho = out_size(h, kh, s[0], p[0][0], p[0][1], d[0])
    wo = out_size(wd, kw, s[1], p[1][0], p[1][1], d[1])
    cols = columns(x, (kh, kw), s, p, d, (ho, wo))
    out = _gemm(w.reshape(o, cg * kh * kw), cols, groups)  # O x (N Ho Wo)
    return np.ascontiguousarray(out.reshape(o, n, ho, wo).transpose(1, 0, 2, 3)), cols


def _rows(g: Array) -> Array:
    """(N, O, Ho, Wo) gradient as (O, N * Ho * Wo)."""
    return np.ascontiguousarray(g.transpose(1, 0, 2, 3)).reshape(g.shape[1], -1)


def conv_input_grad(
    g: Array, w: Array, x_shape: tuple[int, ...], s: Pair, p: Pads, d: Pair, groups: int
) -> Array:
    """Gradient of conv_forward with respect to x (also the transposed convolution): col2im."""
    n, c, h, wd = x_shape
    o, cg, kh, kw = w.shape
    ho, wo = g.shape[2], g.shape[3]
    gcols = _gemm(w.reshape(o, cg * kh * kw), _rows(g), groups, ta=True)
    gcols = gcols.reshape(c, kh, kw, n, ho, wo)
    hp, wp = h + p[0][0] + p[0][1], wd + p[1][0] + p[1][1]
    gx = np.zeros((c, n, hp, wp), g.dtype)
    for i in range(kh):
        for j in range(kw):
            hs, ws = i * d[0], j * d[1]
            gx[
                :, :, hs : hs + s[0] * (ho - 1) + 1 : s[0], ws : ws + s[1] * (wo - 1) + 1 : s[1]
            ] += gcols[:, i, j]
    gx = gx[:, :, p[0][0] : p[0][0] + h, p[1][0] : p[1][0] + wd]
    return np.ascontiguousarray(gx.transpose(1, 0, 2, 3))


def conv_weight_grad(g: Array, cols: Array, w_shape: tuple[int, ...], groups: int) -> Array:
    """Gradient of conv_forward with respect to w, from the forward's columns."""
    return _gemm(_rows(g), cols, groups, tb=True).reshape(w_shape)


_C_TYPES = {"float64": "double", "float32": "float", "float16": "c10::Half"}


def _check_dtypes(xd: Any, wd: Any, b: Tensor | None) -> None:
    """PyTorch's refusals of mixed dtypes (the bias is checked first)."""
    if b is not None and b._d.dtype != xd.dtype:
        cx, cb = (_C_TYPES.get(d.name, d.name) for d in (xd.dtype, b._d.dtype))
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
    """PyTorch's `convolution`; 3d inputs (N, C, L) run as 2d with height 1."""
    xd, wd = x._d, w._d
    _check_dtypes(xd, wd, b)
    squeeze_h = xd.ndim == 3
    if squeeze_h:
        xd, wd = xd[:, :, None], wd[:, :, None]
    if transposed:
        n, _ci, h, wi = xd.shape
        _, og, kh, kw = wd.shape
        oh = (h - 1) * stride[0] - sum(pads[0]) + dilation[0] * (kh - 1) + output_padding[0] + 1
        ow = (wi - 1) * stride[1] - sum(pads[1]) + dilation[1] * (kw - 1) + output_padding[1] + 1
        out = conv_input_grad(xd, wd, (n, og * groups, oh, ow), stride, pads, dilation, groups)
        cols = None
    else:
        out, cols = conv_forward(xd, wd, stride, pads, dilation, groups)
    if b is not None:
        out = out + b._d.reshape(1, -1, 1, 1)
    if squeeze_h:
        out = out[:, :, 0]
    saved = {"input": x, "weight": w, "stride": stride, "padding": pads, "dilation": dilation}
    saved.update({"transposed": transposed, "groups": groups})
    saved["bias_sym_sizes_opt"] = None if b is None else list(b._d.shape)
    saved["output_padding"] = output_padding
    res = record(ConvolutionBackward0, np.ascontiguousarray(out), (x, w, b), saved)
    # the columns serve the weight gradient (saved as PyTorch would recompute them)
    return stash(res, squeeze_h=squeeze_h, cols=cols if w._rg else None)


class ConvolutionBackward0(OpNode):
    __slots__ = ()
    _name = "ConvolutionBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, wt = self.saved("input"), self.saved("weight")
        if STATE.enabled and (g._rg or xt._rg or wt._rg):
            if self.saved("groups") > 1:
                return self._regrad_groups(g, xt, wt)
            if self.saved("transposed"):
                return self._apply_graph_t(g, xt, wt)
            return self._apply_graph(g, xt, wt)
        x, w = xt._d, wt._d
        sq = self.__dict__["squeeze_h"]
        if sq:
            x, w = x[:, :, None], w[:, :, None]
        s, p, d = self.saved("stride"), self.saved("padding"), self.saved("dilation")
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
                    cols = columns(gd, w.shape[2:], s, p, d, x.shape[2:])
                gw = conv_weight_grad(x, cols, w.shape, groups)
        else:
            if self.needs(0):
                gx = conv_input_grad(gd, w, x.shape, s, p, d, groups)
            if self.needs(1):
                cols = self.__dict__.get("cols")
                if cols is None:
                    cols = columns(x, w.shape[2:], s, p, d, gd.shape[2:])
                gw = conv_weight_grad(gd, cols, w.shape, groups)
        if self.needs(2):
            gb = gd.sum(axis=(0, 2, 3))
        out: Grads = []
        for a in (gx, gw, gb):
            if a is not None and sq and a.ndim == 4:  # back to the 1d layout
                a = a[:, :, 0]
            out.append(None if a is None else const(np.ascontiguousarray(a)))
        return out

    def _apply_graph(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph: both gradients as recorded convolutions, so they differentiate again."""
        s, p, d = self.saved("stride"), self.saved("padding"), self.saved("dilation")
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
            xs, gs = xt.transpose(0, 1), g.transpose(0, 1)  # type: ignore[attr-defined]
            s2, p2, d2, _ = _as2d(d, p, s, (0,) * nd)
            full = convolution(xs, gs, None, s2, p2, d2, False, (0, 0), 1)
            crop = (slice(None), slice(None), *tuple(slice(0, k) for k in sp_w))
            gw = full[crop].transpose(0, 1)  # type: ignore[index]
        if self.needs(2):
            gb = g.sum((0, *range(2, g._d.ndim)))  # type: ignore[attr-defined]
        return [gx, gw, gb]

    def _apply_graph_t(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph for a transposed convolution: its gradients are plain convolutions."""
        s, p, d = self.saved("stride"), self.saved("padding"), self.saved("dilation")
        gx = gw = gb = None
        if self.needs(0):
            gx = convolution(g, wt, None, s, p, d, False, (0, 0), 1)
        if self.needs(1):
            gs, xs = g.transpose(0, 1), xt.transpose(0, 1)  # type: ignore[attr-defined]
            full = convolution(gs, xs, None, d, p, s, False, (0, 0), 1)
            crop = (slice(None), slice(None), *tuple(slice(0, k) for k in wt._d.shape[2:]))
            gw = full[crop].transpose(0, 1)  # type: ignore[index]
        if self.needs(2):
            gb = g.sum((0, *range(2, g._d.ndim)))  # type: ignore[attr-defined]
        return [gx, gw, gb]

    def _regrad_groups(self, g: Tensor, xt: Tensor, wt: Tensor) -> Grads:
        """create_graph for groups > 1: differentiate the per-group convolutions, concatenated."""
        from engine.ops.nn_norm import regrad
        from engine.ops.shape_extra import cat

        s, p, d = self.saved("stride"), self.saved("padding"), self.saved("dilation")
        tr, op, groups = (
            self.saved("transposed"),
            self.saved("output_padding"),
            self.saved("groups"),
        )

        def fwd(x: Tensor, w: Tensor, _: Any) -> Tensor:
            xs, ws = x.chunk(groups, 1), w.chunk(groups, 0)  # type: ignore[attr-defined]
            return cat([convolution(a, b, None, s, p, d, tr, op, 1) for a, b in zip(xs, ws)], 1)

        out = regrad(self, g, [xt, wt, None], fwd)
        if self.needs(2):
            out[2] = g.sum((0, *range(2, g._d.ndim)))  # type: ignore[attr-defined]
        return out


def _as2d(s: tuple[int, ...], p: Any, d: tuple[int, ...], op: tuple[int, ...]) -> Any:
    """1d (or 2d) convolution parameters in the 2d form `convolution` takes."""
    if len(s) == 1:
        return (1, s[0]), ((0, 0), tuple(p[0])), (1, d[0]), (0, op[0])
    return (s[0], s[1]), (tuple(p[0]), tuple(p[1])), (d[0], d[1]), (op[0], op[1])
