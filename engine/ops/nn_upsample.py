"""`F.interpolate`'s nearest, nearest-exact, (bi/tri)linear, bicubic and lanczos modes, one
dimension at a time, with or without antialiasing.

Index and weight arithmetic copies ATen's CPU kernels (`UpSample.h`, `UpSampleKernel.cpp`):
float32 scales, source index `scale * (i + 0.5) - 0.5` clamped at 0 (or `scale * i` with
align_corners), and the innermost dimension interpolated first, so values match PyTorch's bit
for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, variant
from engine.ops.nn_ops import linear_grad

Array = np.ndarray[Any, Any]
# (index arrays, weight arrays) of one dimension: nearest has one tap, linear two
Plan = tuple[list[Array], list[Array]]


def _scale(n_in: int, n_out: int, align: bool, scale: float | None, ft: Any) -> Any:
    """ATen's `area_pixel_compute_scale` in the kernel's float type `ft`."""
    if align:
        return ft(n_in - 1) / ft(n_out - 1) if n_out > 1 else ft(0)
    if scale is not None and scale > 0:
        return ft(1.0 / scale)
    return ft(n_in) / ft(n_out)


def nearest_plan(n_in: int, n_out: int, scale: float | None) -> Plan:
    """ATen's `nearest_idx`: floor(i * scale), with exact shortcuts for 1x and 2x."""
    i = np.arange(n_out)
    if n_out == n_in:
        idx = i
    elif n_out == 2 * n_in:
        idx = i >> 1
    else:
        s = _scale(n_in, n_out, False, scale, np.float32)  # float even for double input
        idx = np.minimum(np.floor(i.astype(np.float32) * s).astype(np.int64), n_in - 1)
    return [idx], [np.ones(n_out, np.float64)]


def nearest_exact_plan(n_in: int, n_out: int, scale: float | None) -> Plan:
    """ATen's `nearest_neighbor_exact_compute_source_index`: floor((i + 0.5) * scale)."""
    s = _scale(n_in, n_out, False, scale, np.float32)
    i = np.arange(n_out, dtype=np.float32)
    idx = np.minimum(np.floor((i + np.float32(0.5)) * s).astype(np.int64), n_in - 1)
    return [idx], [np.ones(n_out, np.float64)]


def cubic_plan(n_in: int, n_out: int, align: bool, scale: float | None, ft: Any) -> Plan:
    """ATen's bicubic taps: four neighbours (clamped at the borders) weighted by Keys' cubic
    convolution with A = -0.75; the source index is not clamped at 0 as linear's is."""
    s = _scale(n_in, n_out, align, scale, ft)
    i = np.arange(n_out, dtype=ft)
    src = s * i if align else s * (i + ft(0.5)) - ft(0.5)
    i0 = np.floor(src).astype(np.int64)
    t = (src - i0.astype(ft)).astype(ft)
    a = ft(-0.75)

    def near(x: Array) -> Array:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1  # type: ignore[no-any-return]

    def far(x: Array) -> Array:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # type: ignore[no-any-return]

    idx = [np.clip(i0 + k, 0, n_in - 1) for k in (-1, 0, 1, 2)]
    return idx, [far(t + 1), near(t), near(1 - t), far(2 - t)]


def linear_plan(n_in: int, n_out: int, align: bool, scale: float | None, ft: Any) -> Plan:
    """ATen's `compute_indices_weights_linear` for one dimension, in float type `ft`."""
    s = _scale(n_in, n_out, align, scale, ft)
    i = np.arange(n_out, dtype=ft)
    src = s * i if align else np.maximum(s * (i + ft(0.5)) - ft(0.5), 0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    lam1 = np.clip(src - i0.astype(ft), 0, 1).astype(ft)
    i1 = i0 + (i0 < n_in - 1)
    return [i0, i1], [ft(1) - lam1, lam1]


def _aa_linear(x: Array) -> Array:
    return np.where(x < 1, 1 - x, 0)


def _aa_cubic(x: Array) -> Array:
    a = x.dtype.type(-0.5)  # Keys' A = -0.5 as PIL's, not the -0.75 of plain bicubic
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0))


def _aa_lanczos(x: Array) -> Array:
    def sinc(v: Array) -> Array:
        pv = v * x.dtype.type(np.pi)
        return np.where(v == 0, 1, np.sin(pv) / np.where(v == 0, 1, pv))

    return np.where(x < 3, sinc(x) * sinc(x / x.dtype.type(3)), 0)


# mode: (taps of the filter at scale 1, the filter of |x|)
_AA_FILTERS = {"bilinear": (2, _aa_linear), "bicubic": (4, _aa_cubic), "lanczos": (6, _aa_lanczos)}


def aa_plan(n_in: int, n_out: int, mode: str, align: bool, scale: float | None, ft: Any) -> Plan:
    """ATen's antialiased taps (`_compute_indices_min_size_weights_aa`, PIL's resampling): the
    filter widened by the scale when downsampling, cut at the borders and normalised to sum to
    one. ATen rounds to the kernel's float type where it stores, so the steps do too."""
    size, filt = _AA_FILTERS[mode]
    s = _scale(n_in, n_out, align, scale, ft)
    support = ft(size * 0.5 * s) if s >= 1 else ft(size * 0.5)
    taps = int(np.ceil(support)) * 2 + 1
    invscale = ft(1.0 / float(s)) if s >= 1 else ft(1)
    center = (float(s) * (np.arange(n_out) + 0.5)).astype(ft)
    xmin = np.maximum(np.trunc((center - support).astype(np.float64) + 0.5), 0).astype(np.int64)
    xmax = np.trunc((center + support).astype(np.float64) + 0.5).astype(np.int64)
    xsize = np.clip(np.minimum(xmax, n_in) - xmin, 0, taps)
    idx, wts = [], []
    total = np.zeros(n_out, ft)
    for j in range(taps):
        at = ((xmin + j).astype(ft) - center).astype(np.float64) + 0.5
        w = np.where(j < xsize, filt(np.abs((at * float(invscale)).astype(ft))), 0).astype(ft)
        total = (total + w).astype(ft)
        idx.append(np.minimum(xmin + j, n_in - 1))
        wts.append(w)
    safe = np.where(total != 0, total, 1).astype(ft)
    return idx, [(w / safe).astype(ft) for w in wts]


def _apply(x: Array, dim: int, plan: Plan) -> Array:
    idx, wts = plan
    shape = [1] * x.ndim
    shape[dim] = -1
    out: Array = np.take(x, idx[0], axis=dim) * wts[0].reshape(shape).astype(x.dtype)
    for j, w in zip(idx[1:], wts[1:]):
        out = out + np.take(x, j, axis=dim) * w.reshape(shape).astype(x.dtype)
    return out


def upsample(
    x: Tensor, size: tuple[int, ...], mode: str, align: bool, scales: Any, aa: bool = False
) -> Tensor:
    """Resize the spatial dims (all after the first two) of `x` to `size` (`aa`: antialiased,
    as lanczos always is)."""
    ft = np.float64 if x._d.dtype == np.float64 else np.float32  # ATen's opmath type
    plans = []
    for k, (n_in, n_out) in enumerate(zip(x.shape[2:], size)):
        sc = scales[k] if scales is not None else None
        if aa:
            plans.append(aa_plan(n_in, n_out, mode, align, sc, ft))
        elif mode == "nearest":
            plans.append(nearest_plan(n_in, n_out, sc))
        elif mode == "nearest-exact":
            plans.append(nearest_exact_plan(n_in, n_out, sc))
        elif mode == "bicubic":
            plans.append(cubic_plan(n_in, n_out, align, sc, ft))
        else:
            plans.append(linear_plan(n_in, n_out, align, sc, ft))
    data = x._d
    for k in reversed(range(len(plans))):  # the innermost dimension first, as ATen
        data = _apply(data, 2 + k, plans[k])
    node = _NODES[(mode + "-aa" if aa else mode, len(size))]
    saved: dict[str, Any] = {"output_size": list(size), "self_sym_sizes": list(x.shape)}
    if not mode.startswith("nearest"):
        saved["align_corners"] = align
    for name, k in zip(_SCALE_NAMES[len(size)], range(len(size))):
        saved[name] = scales[k] if scales is not None else None
    data = np.ascontiguousarray(data)
    return record(node, data, (x,), saved, shapes=(x._d.shape,), keep={"plans": plans})


class _UpsampleBackward(OpNode):
    """The transpose of the interpolation: each output's grad goes back to its taps. Linear in
    the grad: under create_graph one `<Upsample...>BackwardBackward0` node whose backward is
    the interpolation again, as PyTorch's."""

    __slots__ = ()

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        plans: list[Plan] = self.__dict__["plans"]
        sizes = self._shapes[0]

        def spread(gd: Array) -> Array:
            for k, (idx, wts) in enumerate(plans):
                d = 2 + k
                shape = [1] * gd.ndim
                shape[d] = -1
                acc = np.zeros((*gd.shape[:d], sizes[d], *gd.shape[d + 1 :]), gd.dtype)
                for i, w in zip(idx, wts):
                    key: Any = (slice(None),) * d + (i,)
                    np.add.at(acc, key, gd * w.reshape(shape).astype(gd.dtype))
                gd = acc
            return gd

        def interpolate(gg: Array) -> Array:
            for k in reversed(range(len(plans))):
                gg = _apply(gg, 2 + k, plans[k])
            return np.ascontiguousarray(gg)

        saved = {k: self.saved(k) for k in self._saved or () if k != "self_sym_sizes"}
        return [linear_grad(self._name, g, spread, interpolate, saved=saved)]


_SCALE_NAMES = {
    1: ("scales",),
    2: ("scales_h", "scales_w"),
    3: ("scales_d", "scales_h", "scales_w"),
}
_NODES: dict[tuple[str, int], type[OpNode]] = {
    ("nearest", 1): variant(_UpsampleBackward, "UpsampleNearest1DBackward0"),
    ("nearest", 2): variant(_UpsampleBackward, "UpsampleNearest2DBackward0"),
    ("nearest", 3): variant(_UpsampleBackward, "UpsampleNearest3DBackward0"),
    ("nearest-exact", 1): variant(_UpsampleBackward, "UpsampleNearestExact1DBackward0"),
    ("nearest-exact", 2): variant(_UpsampleBackward, "UpsampleNearestExact2DBackward0"),
    ("nearest-exact", 3): variant(_UpsampleBackward, "UpsampleNearestExact3DBackward0"),
    ("bicubic", 2): variant(_UpsampleBackward, "UpsampleBicubic2DBackward0"),
    ("linear", 1): variant(_UpsampleBackward, "UpsampleLinear1DBackward0"),
    ("bilinear", 2): variant(_UpsampleBackward, "UpsampleBilinear2DBackward0"),
    ("trilinear", 3): variant(_UpsampleBackward, "UpsampleTrilinear3DBackward0"),
    ("bilinear-aa", 2): variant(_UpsampleBackward, "UpsampleBilinear2DAaBackward0"),
    ("bicubic-aa", 2): variant(_UpsampleBackward, "UpsampleBicubic2DAaBackward0"),
    ("lanczos-aa", 2): variant(_UpsampleBackward, "UpsampleLanczos2DAaBackward0"),
}
