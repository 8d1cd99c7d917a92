"""`affine_grid` and 2-d `grid_sample` (bilinear, nearest, bicubic; zeros, border, reflection).

The arithmetic follows ATen's CPU kernel (GridSamplerKernel.cpp) in the input's float type:
x = (gx + 1) * (W / 2) - 0.5 without align_corners, (gx + 1) * ((W - 1) / 2) with it, then
corner weights from x - floor(x), summed nw, ne, sw, se in that order. Bicubic samples the
4 x 4 taps around floor(x) with Keys' cubic (A = -0.75) and applies the padding rule to each
tap, not to x: so its grid gradient is the unnormalising scale alone, whatever the padding.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array

MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}
# what the sampler's node saves, and its BackwardBackward0 beside grad_output
_SAVED = ("align_corners", "grid", "input", "interpolation_mode", "padding_mode")


def _base_grid(size: tuple[int, ...], align: bool, dt: Any) -> Array:
    """(H * W, 3) rows (x, y, 1), or (D * H * W, 4) rows (x, y, z, 1), of ATen's base grid,
    from linspace(-1, 1) per axis."""
    from engine._creation import linspace
    from engine._dtype import from_numpy

    def axis(n: int) -> Array:
        if n <= 1:
            return np.zeros(1, dt)
        r = linspace(-1, 1, n, dtype=from_numpy(dt))._d
        return r if align else (r * dt.type(n - 1)) / dt.type(n)

    mesh = np.meshgrid(*(axis(n) for n in size[2:]), indexing="ij")  # (z,) y, x
    return np.stack([*mesh[::-1], np.ones_like(mesh[0])], -1).reshape(-1, len(mesh) + 1)


def affine_grid(theta: Tensor, size: tuple[int, ...], align: bool) -> Tensor:
    """The sampling grid (N, H, W, 2) of the 2-d affine maps theta (N, 2, 3), or (N, D, H, W, 3)
    of the 3-d ones (N, 3, 4)."""
    dt = theta._d.dtype
    base = _base_grid(size, align, dt)
    grid = np.matmul(base[None], theta._d.transpose(0, 2, 1)).astype(dt)
    out = grid.reshape(size[0], *size[2:], len(size) - 2)
    saved = {"align_corners": align, "size": tuple(size)}
    return record(AffineGridGeneratorBackward0, out, (theta,), saved, keep={"base": base})


class AffineGridGeneratorBackward0(OpNode):
    __slots__ = ()
    _name = "AffineGridGeneratorBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        base = self.__dict__["base"]
        n = g.shape[0]
        if STATE.enabled and g._rg:  # ATen's composite: (base^T bmm grad).transpose(1, 2)
            bt = make(
                np.ascontiguousarray(np.broadcast_to(base.T, (n, *base.T.shape))), False, None, 0
            )
            return [bt.bmm(g.reshape(n, -1, g.shape[-1])).transpose(1, 2)]
        gd = g._d.reshape(n, -1, g.shape[-1]).transpose(0, 2, 1)
        return [make(np.asarray(np.matmul(gd, base[None])), False, None, 0)]


def _unnormalize(coord: Array, size: int, align: bool) -> tuple[Array, Any]:
    """Pixel coordinates of normalised ones for one axis, and the scale d(pixel)/d(grid)."""
    dt = coord.dtype.type
    scale = dt(size - 1) / dt(2) if align else dt(size) / dt(2)
    return (coord + dt(1)) * scale - (dt(0) if align else dt(0.5)), scale


def _source(coord: Array, size: int, padding: int, align: bool) -> tuple[Array, Array]:
    """Pixel coordinates and d(pixel)/d(grid) for one axis, as ATen's ComputeLocation."""
    x, scale = _unnormalize(coord, size, align)
    return _bound(x, np.full(x.shape, scale, coord.dtype), size, padding, align)


def _bound(x: Array, grad: Array, size: int, padding: int, align: bool) -> tuple[Array, Array]:
    """Pixel coordinates under the padding rule, and the gradient scaled through it."""
    dt = x.dtype.type
    if padding == 1:  # border: clip, no gradient outside
        inside = (x > 0) & (x < size - 1)
        x = np.minimum(dt(size - 1), np.maximum(x, dt(0)))
        grad = np.where(inside, grad, dt(0))
    elif padding == 2:  # reflection off the edges (pixel centres, or the borders with align)
        lo, span = (dt(0), dt(size - 1)) if align else (dt(-0.5), dt(size))
        if span <= 0:
            return np.zeros_like(x), np.zeros_like(x)
        d = x - lo
        sign = np.where(d < 0, -1, 1)
        a = np.abs(d)
        flips = np.floor(a / span)
        extra = np.fmod(a, span)
        odd = flips % 2 == 1
        x = np.where(odd, span - extra, extra) + lo
        grad = grad * np.where(odd, -sign, sign).astype(x.dtype)
        inside = (x > 0) & (x < size - 1)
        x = np.minimum(dt(size - 1), np.maximum(x, dt(0)))
        grad = np.where(inside, grad, dt(0))
    return x.astype(dt), grad


# Keys' cubic convolution with A = -0.75 (UpSampleBicubic2d's), weights of the taps at
# floor(x) - 1 .. floor(x) + 2 for t = x - floor(x), grouped as ATen's vectorised kernel groups
# them; Python constants (exact in float32) let it serve arrays and tensors alike
_A = -0.75


def _cubic(t: Any) -> list[Any]:
    def far(x: Any) -> Any:  # 1 < |x| < 2
        return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A

    def near(x: Any) -> Any:  # |x| <= 1
        return ((_A + 2) * x - (_A + 3)) * x * x + 1

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic_grad(t: Array) -> list[Array]:
    """d(weight)/d(tap offset) of each `_cubic` weight (ATen's get_cubic_coefficients_grad)."""
    x0, x1, x2, x3 = -1 - t, 0 - t, 1 - t, 2 - t
    return [
        (-3 * _A * x0 - 10 * _A) * x0 - 8 * _A,
        (-3 * (_A + 2) * x1 - 2 * (_A + 3)) * x1,
        (3 * (_A + 2) * x2 - 2 * (_A + 3)) * x2,
        (3 * _A * x3 - 10 * _A) * x3 + 8 * _A,
    ]


def _fms(acc: Array, a: Array, b: Array) -> Array:
    """acc - a * b rounded once, as ATen's AVX2 build fuses the grid gradient's accumulation
    (float32 through float64, where the product is exact; float64 rounds twice)."""
    if acc.dtype == np.float32:
        return (acc.astype(np.float64) - a.astype(np.float64) * b).astype(np.float32)
    return np.asarray(acc - a * b)


def _taps(floor: Array, size: int, padding: int, align: bool) -> list[Array]:
    """The 4 bicubic tap indices along one axis, each put through the padding rule (under
    zeros they may lie outside, to be masked)."""
    dt = floor.dtype.type
    out = []
    for k in range(-1, 3):
        v = floor + dt(k)
        out.append(_bound(v, v, size, padding, align)[0].astype(np.int64))
    return out


def _inside(r: Array, c: Array, h: int, w: int) -> tuple[Array, Array, Array]:
    ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
    return np.clip(r, 0, h - 1), np.clip(c, 0, w - 1), ok


def _corners(x: Array, y: Array, h: int, w: int) -> list[tuple[Array, Array, Array, Array]]:
    """(row, column, in-bounds mask, weight) of the four bilinear corners nw, ne, sw, se."""
    one = x.dtype.type(1)
    xw, yn = np.floor(x), np.floor(y)
    wx, ny = x - xw, y - yn
    ex, sy = one - wx, one - ny
    out = []
    for dy, dx, wt in ((0, 0, sy * ex), (0, 1, sy * wx), (1, 0, ny * ex), (1, 1, ny * wx)):
        r, c = yn.astype(np.int64) + dy, xw.astype(np.int64) + dx
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        out.append((np.clip(r, 0, h - 1), np.clip(c, 0, w - 1), ok, wt))
    return out


def _gather(a: Array, r: Array, c: Array, ok: Array) -> Array:
    """a[n, :, r, c] for each grid point (zero where out of bounds): (N, C, Ho, Wo)."""
    n = np.arange(a.shape[0])[:, None, None]
    vals = a[n, :, r, c]  # (N, Ho, Wo, C)
    return np.where(ok[..., None], vals, 0).transpose(0, 3, 1, 2)


def grid_sample(x: Tensor, grid: Tensor, mode: int, padding: int, align: bool) -> Tensor:
    """Sample x (N, C, H, W) at grid (N, Ho, Wo, 2) of normalised (x, y) in [-1, 1]."""
    a, gd = x._d, grid._d.astype(x._d.dtype)
    h, w = a.shape[2:]
    px, _ = _source(gd[..., 0], w, padding, align)
    py, _ = _source(gd[..., 1], h, padding, align)
    if mode == 2:
        out = _bicubic(a, gd, padding, align)
    elif mode == 1:
        r, c = np.rint(py).astype(np.int64), np.rint(px).astype(np.int64)
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        out = _gather(a, np.clip(r, 0, h - 1), np.clip(c, 0, w - 1), ok)
    else:
        out = None
        for r, c, ok, wt in _corners(px, py, h, w):
            term = _gather(a, r, c, ok) * wt[:, None]
            out = term if out is None else out + term
    saved = {"align_corners": align, "grid": grid, "input": x}
    saved.update({"interpolation_mode": mode, "padding_mode": padding})
    return record(GridSampler2DBackward0, np.asarray(out, a.dtype), (x, grid), saved)


def _bicubic(a: Array, gd: Array, padding: int, align: bool) -> Array:
    """Each row of 4 taps weighted along x, then the 4 rows along y, as ATen sums them."""
    h, w = a.shape[2:]
    px, _ = _unnormalize(gd[..., 0], w, align)
    py, _ = _unnormalize(gd[..., 1], h, align)
    ix, iy = np.floor(px), np.floor(py)
    cx, cy = _cubic(px - ix), _cubic(py - iy)
    cols, rows = _taps(ix, w, padding, align), _taps(iy, h, padding, align)
    out: Any = None
    for j in range(4):
        row: Any = None
        for i in range(4):
            term = cx[i][:, None] * _gather(a, *_inside(rows[j], cols[i], h, w))
            row = term if row is None else row + term
        term = cy[j][:, None] * row
        out = term if out is None else out + term
    return np.asarray(out)


def _bicubic_backward(
    a: Array, gd: Array, go: Array, padding: int, align: bool
) -> tuple[Array, Array]:
    """The input's gradient (each tap's weight times grad_output, scattered) and the grid's
    (the weights' slopes, summed per channel and tap in ATen's order, times the scale)."""
    h, w = a.shape[2:]
    px, sx = _unnormalize(gd[..., 0], w, align)
    py, sy = _unnormalize(gd[..., 1], h, align)
    ix, iy = np.floor(px), np.floor(py)
    cx, cy = _cubic(px - ix), _cubic(py - iy)
    gcx, gcy = _cubic_grad(px - ix), _cubic_grad(py - iy)
    cols, rows = _taps(ix, w, padding, align), _taps(iy, h, padding, align)
    gin = np.zeros_like(a)
    n = np.arange(a.shape[0])[:, None, None]
    vals = {}
    for i in range(4):
        for j in range(4):
            r, c, ok = _inside(rows[j], cols[i], h, w)
            contrib = go * cx[i][:, None] * cy[j][:, None]
            GridSampler2DBackward0._scatter(gin, contrib, n, r, c, ok, None)
            vals[i, j] = _gather(a, r, c, ok)
    gx, gy = np.zeros_like(px), np.zeros_like(py)
    for ch in range(a.shape[1]):
        g = go[:, ch]
        for i in range(4):
            for j in range(4):
                vg = vals[i, j][:, ch] * g
                gx = _fms(gx, vg * gcx[i], cy[j])
                gy = _fms(gy, vg * gcy[j], cx[i])
    return gin, np.stack([gx * sx, gy * sy], -1)


class GridSampler2DBackward0(OpNode):
    """Gradients for the input (scatter of the weights) and the grid (slopes of the bilinear
    surface times d(pixel)/d(grid)); PyTorch's own backward is not differentiable again."""

    __slots__ = ()
    _name = "GridSampler2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, gt = self.saved("input"), self.saved("grid")
        if STATE.enabled and (g._rg or xt._rg or gt._rg):
            from engine.ops.composed_grad import regrad

            args = (self.saved("interpolation_mode"), self.saved("padding_mode"))
            align = self.saved("align_corners")
            fwd = lambda x, grid: _sample_ops(x, grid, *args, align)  # noqa: E731
            saved = {"grad_output": g, **{k: self.saved(k) for k in _SAVED}}
            return regrad(self, g, [xt, gt], fwd, "GridSampler2DBackwardBackward0", (), saved)
        a, gd = xt._d, gt._d.astype(xt._d.dtype)
        mode, padding = self.saved("interpolation_mode"), self.saved("padding_mode")
        align = self.saved("align_corners")
        h, w = a.shape[2:]
        px, mx = _source(gd[..., 0], w, padding, align)
        py, my = _source(gd[..., 1], h, padding, align)
        go = g._d
        gin = np.zeros_like(a)
        ggrid = np.zeros(gd.shape, a.dtype)
        n = np.arange(a.shape[0])[:, None, None]
        if mode == 2:
            gin, ggrid = _bicubic_backward(a, gd, go, padding, align)
        elif mode == 1:
            r, c = np.rint(py).astype(np.int64), np.rint(px).astype(np.int64)
            ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
            self._scatter(gin, go, n, np.clip(r, 0, h - 1), np.clip(c, 0, w - 1), ok, None)
        else:
            vals = []
            for r, c, ok, wt in _corners(px, py, h, w):
                self._scatter(gin, go, n, r, c, ok, wt)
                vals.append(_gather(a, r, c, ok))
            one = px.dtype.type(1)
            wx, ny = px - np.floor(px), py - np.floor(py)
            nw, ne, sw, se = vals
            dx = ((ne - nw) * (one - ny)[:, None] + (se - sw) * ny[:, None]) * go
            dy = ((sw - nw) * (one - wx)[:, None] + (se - ne) * wx[:, None]) * go
            ggrid[..., 0] = dx.sum(1) * mx
            ggrid[..., 1] = dy.sum(1) * my
        out: Grads = [None, None]
        if self.needs(0):
            out[0] = make(gin, False, None, 0)
        if self.needs(1):
            out[1] = make(ggrid.astype(self.saved("grid")._d.dtype), False, None, 0)
        return out

    @staticmethod
    def _scatter(gin: Array, go: Array, n: Array, r: Array, c: Array, ok: Array, wt: Any) -> None:
        contrib = go if wt is None else go * wt[:, None]  # (N, C, Ho, Wo)
        contrib = np.where(ok[:, None], contrib, 0).transpose(0, 2, 3, 1)
        nn, rr, cc = np.broadcast_arrays(n, r, c)
        where: Any = (nn, slice(None), rr, cc)
        np.add.at(gin, where, contrib)


def _source_ops(coord: Any, size: int, padding: int, align: bool) -> Any:
    """_source with engine ops (differentiable in the grid), for second derivatives."""
    scale = (size - 1) / 2 if align else size / 2
    x = (coord + 1) * scale - (0.0 if align else 0.5)
    if padding == 2:
        lo, span = (0.0, size - 1.0) if align else (-0.5, float(size))
        if span <= 0:
            return x * 0
        a = (x - lo).abs()
        flips = np.floor(a._d / span)
        extra = a - make(flips * span, False, None, 0)
        odd = make(flips % 2 == 1, False, None, 0)
        x = (span - extra).where(odd, extra) + lo
    if padding:
        x = x.clamp(0, size - 1)
    return x


def _sample_ops(x: Any, grid: Any, mode: int, padding: int, align: bool) -> Any:
    """grid_sample composed of engine ops: corner values by indexing, weights from the grid."""
    h, w = x.shape[2:]
    px = _source_ops(grid[..., 0], w, 0 if mode == 2 else padding, align)
    py = _source_ops(grid[..., 1], h, 0 if mode == 2 else padding, align)
    n = make(np.arange(x.shape[0])[:, None, None], False, None, 0)

    def value(r: Array, c: Array) -> Any:
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        rr = make(np.clip(r, 0, h - 1), False, None, 0)
        cc = make(np.clip(c, 0, w - 1), False, None, 0)
        vals = x.permute(0, 2, 3, 1)[n, rr, cc]  # (N, Ho, Wo, C)
        return vals * make(ok[..., None].astype(x._d.dtype), False, None, 0)

    if mode == 1:
        out = value(np.rint(py._d).astype(np.int64), np.rint(px._d).astype(np.int64))
        return out.permute(0, 3, 1, 2)
    if mode == 2:  # the taps' weights are differentiable in the grid, their indices are not
        ix, iy = np.floor(px._d), np.floor(py._d)
        cx = _cubic((px - make(ix, False, None, 0)).unsqueeze(-1))
        cy = _cubic((py - make(iy, False, None, 0)).unsqueeze(-1))
        cols, rows = _taps(ix, w, padding, align), _taps(iy, h, padding, align)
        out = sum(
            (cy[j] * sum((cx[i] * value(rows[j], cols[i]) for i in range(4)), 0) for j in range(4)),
            0,
        )
        return out.permute(0, 3, 1, 2)
    x0, y0 = np.floor(px._d), np.floor(py._d)
    wx = (px - make(x0, False, None, 0)).unsqueeze(-1)
    ny = (py - make(y0, False, None, 0)).unsqueeze(-1)
    r0, c0 = y0.astype(np.int64), x0.astype(np.int64)
    out = (
        value(r0, c0) * ((1 - ny) * (1 - wx))
        + value(r0, c0 + 1) * ((1 - ny) * wx)
        + value(r0 + 1, c0) * (ny * (1 - wx))
        + value(r0 + 1, c0 + 1) * (ny * wx)
    )
    return out.permute(0, 3, 1, 2)
