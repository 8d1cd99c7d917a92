"""3-d `grid_sample` (trilinear 'bilinear' and 'nearest'; zeros, border, reflection).

As ATen's scalar CPU kernel (GridSampler.cpp, grid_sampler_3d_cpu_impl): x = ((gx + 1) * W - 1) / 2
without align_corners, ((gx + 1) / 2) * (W - 1) with it; the eight corner weights are products
of distances to the opposite corner (tnw = (x1 - x) * (y1 - y) * (z1 - z)), summed tnw, tne,
tsw, tse, bnw, bne, bsw, bse; 'nearest' rounds half to even.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_grid import _SAVED, _bound, _source_ops
from engine.ops.nn_ops import Array

Corner = tuple[Array, Array, Array, Array, tuple[Array, Array, Array]]


def _source(coord: Array, size: int, padding: int, align: bool) -> tuple[Array, Array]:
    """Voxel coordinates and d(voxel)/d(grid) for one axis (ATen's scalar unnormalize)."""
    dt = coord.dtype.type
    if align:
        x = ((coord + dt(1)) / dt(2)) * dt(size - 1)
        scale = dt(size - 1) / dt(2)
    else:
        x = ((coord + dt(1)) * dt(size) - dt(1)) / dt(2)
        scale = dt(size) / dt(2)
    return _bound(x, np.full(x.shape, scale, coord.dtype), size, padding, align)


def _gather(a: Array, z: Array, y: Array, x: Array, ok: Array) -> Array:
    """a[n, :, z, y, x] per grid point (zero out of bounds): (N, C, Do, Ho, Wo)."""
    n = np.arange(a.shape[0])[:, None, None, None]
    vals = a[n, :, np.clip(z, 0, a.shape[2] - 1), np.clip(y, 0, a.shape[3] - 1),
             np.clip(x, 0, a.shape[4] - 1)]  # fmt: skip
    return np.where(ok[..., None], vals, 0).transpose(0, 4, 1, 2, 3)


def _ok(z: Array, y: Array, x: Array, shape: tuple[int, ...]) -> Array:
    d, h, w = shape[2:]
    return (z >= 0) & (z < d) & (y >= 0) & (y < h) & (x >= 0) & (x < w)


def _corners(p: tuple[Array, Array, Array], shape: tuple[int, ...]) -> list[Corner]:
    """(z, y, x, in-bounds, (fx, fy, fz)) of the eight corners in ATen's order; each factor is
    the distance to the opposite corner along its axis, the weight their product."""
    px, py, pz = p
    lo = [np.floor(c) for c in p]
    out = []
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                f = tuple(
                    (c0 + 1 - c) if d == 0 else (c - c0)
                    for c, c0, d in zip((px, py, pz), lo, (dx, dy, dz))
                )
                z, y, x = (lo[2].astype(np.int64) + dz, lo[1].astype(np.int64) + dy,
                           lo[0].astype(np.int64) + dx)  # fmt: skip
                out.append((z, y, x, _ok(z, y, x, shape), (f[0], f[1], f[2])))
    return out


def _nearest(p: tuple[Array, Array, Array], shape: tuple[int, ...]) -> tuple[Array, ...]:
    x, y, z = (np.rint(c).astype(np.int64) for c in p)
    return z, y, x, _ok(z, y, x, shape)


def grid_sample_3d(x: Tensor, grid: Tensor, mode: int, padding: int, align: bool) -> Tensor:
    """Sample x (N, C, D, H, W) at grid (N, Do, Ho, Wo, 3) of normalised (x, y, z)."""
    a, gd = x._d, grid._d.astype(x._d.dtype)
    p = _points(a, gd, padding, align)[0]
    if mode == 1:
        out = _gather(a, *_nearest(p, a.shape))
    else:
        out = None
        for z, y, xx, ok, (fx, fy, fz) in _corners(p, a.shape):
            term = _gather(a, z, y, xx, ok) * (fx * fy * fz)[:, None]
            out = term if out is None else out + term
    saved = {"align_corners": align, "grid": grid, "input": x}
    saved.update({"interpolation_mode": mode, "padding_mode": padding})
    return record(GridSampler3DBackward0, np.asarray(out, a.dtype), (x, grid), saved)


def _points(
    a: Array, gd: Array, padding: int, align: bool
) -> tuple[tuple[Array, Array, Array], tuple[Array, Array, Array]]:
    """Voxel coordinates (x, y, z) of the grid and their d(voxel)/d(grid)."""
    d, h, w = a.shape[2:]
    sx, sy, sz = (_source(gd[..., i], s, padding, align) for i, s in enumerate((w, h, d)))
    return (sx[0], sy[0], sz[0]), (sx[1], sy[1], sz[1])


class GridSampler3DBackward0(OpNode):
    """The input's gradient scatters each corner's weight; the grid's sums, per channel and
    corner in ATen's order, the value times the other two distances, times d(voxel)/d(grid)."""

    __slots__ = ()
    _name = "GridSampler3DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, gt = self.saved("input"), self.saved("grid")
        mode, padding = self.saved("interpolation_mode"), self.saved("padding_mode")
        align = self.saved("align_corners")
        if STATE.enabled and (g._rg or xt._rg or gt._rg):
            from engine.ops.composed_grad import regrad

            fwd = lambda x, grid: _sample_ops(x, grid, mode, padding, align)  # noqa: E731
            saved = {"grad_output": g, **{k: self.saved(k) for k in _SAVED}}
            return regrad(self, g, [xt, gt], fwd, "GridSampler3DBackwardBackward0", (), saved)
        a, gd = xt._d, gt._d.astype(xt._d.dtype)
        p, mult = _points(a, gd, padding, align)
        go = g._d
        gin = np.zeros_like(a)
        ggrid = np.zeros(gd.shape, a.dtype)
        if mode == 1:
            _scatter(gin, go, *_nearest(p, a.shape))
        else:
            corners = _corners(p, a.shape)
            acc = [np.zeros_like(p[0]) for _ in range(3)]
            for z, y, xx, ok, (fx, fy, fz) in corners:
                _scatter(gin, go * (fx * fy * fz)[:, None], z, y, xx, ok)
            for ch in range(a.shape[1]):
                gc = go[:, ch]
                for k, (z, y, xx, ok, (fx, fy, fz)) in enumerate(corners):
                    v = _gather(a[:, ch : ch + 1], z, y, xx, ok)[:, 0]
                    signs = [1 if (k >> i) & 1 else -1 for i in range(3)]  # x, y, z bits
                    for i, other in enumerate(((fy, fz), (fx, fz), (fx, fy))):
                        acc[i] = acc[i] + signs[i] * (v * other[0] * other[1] * gc)
            for i in range(3):
                ggrid[..., i] = mult[i] * acc[i]
        out: Grads = [None, None]
        if self.needs(0):
            out[0] = make(gin, False, None, 0)
        if self.needs(1):
            out[1] = make(ggrid.astype(gt._d.dtype), False, None, 0)
        return out


def _scatter(gin: Array, contrib: Array, z: Array, y: Array, x: Array, ok: Array) -> None:
    """gin[n, :, z, y, x] += contrib (N, C, Do, Ho, Wo) where in bounds."""
    c = np.where(ok[:, None], contrib, 0).transpose(0, 2, 3, 4, 1)
    n = np.arange(gin.shape[0])[:, None, None, None]
    d, h, w = gin.shape[2:]
    idx = np.broadcast_arrays(n, np.clip(z, 0, d - 1), np.clip(y, 0, h - 1), np.clip(x, 0, w - 1))
    where: Any = (idx[0], slice(None), idx[1], idx[2], idx[3])
    np.add.at(gin, where, c)


def _sample_ops(x: Any, grid: Any, mode: int, padding: int, align: bool) -> Any:
    """grid_sample_3d composed of engine ops (corner values by indexing, weights from the
    grid), for second derivatives."""
    d, h, w = x.shape[2:]
    px, py, pz = (_source_ops(grid[..., i], s, padding, align) for i, s in enumerate((w, h, d)))
    n = make(np.arange(x.shape[0])[:, None, None, None], False, None, 0)
    xl = x.permute(0, 2, 3, 4, 1)

    def value(z: Array, y: Array, c: Array) -> Any:
        ok = _ok(z, y, c, x.shape)
        idx = [make(np.clip(i, 0, s - 1), False, None, 0) for i, s in ((z, d), (y, h), (c, w))]
        return xl[n, idx[0], idx[1], idx[2]] * make(
            ok[..., None].astype(x._d.dtype), False, None, 0
        )

    if mode == 1:
        z, y, c, _ = _nearest((px._d, py._d, pz._d), x.shape)
        return value(z, y, c).permute(0, 4, 1, 2, 3)
    lo = [np.floor(t._d) for t in (px, py, pz)]
    frac = [(t - make(f, False, None, 0)).unsqueeze(-1) for t, f in zip((px, py, pz), lo)]
    i0 = [f.astype(np.int64) for f in lo]
    out: Any = 0
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                wt = [f if k else 1 - f for f, k in zip(frac, (dx, dy, dz))]
                out = out + value(i0[2] + dz, i0[1] + dy, i0[0] + dx) * (wt[0] * wt[1] * wt[2])
    return out.permute(0, 4, 1, 2, 3)
