"""Adaptive average and max pooling, and max unpooling, over 2 or 3 spatial dims.

Adaptive bins are PyTorch's [floor(i n / o), ceil((i + 1) n / o)); max indices are flat over
the input's spatial dims, as `max_pool` returns them and `max_unpool` takes them.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi, variant
from engine.ops.nn_conv import Pair
from engine.ops.nn_ops import Array, LinearBackwardBackward, linear_grad
from engine.ops.nn_pool import batched


def _bins(n: int, o: int) -> list[tuple[int, int]]:
    return [((i * n) // o, math.ceil((i + 1) * n / o)) for i in range(o)]


def _cells(sp: Pair, o: Pair) -> list[tuple[tuple[int, ...], tuple[slice, ...]]]:
    """(output position, input slices) of every adaptive bin."""
    per_dim = [list(enumerate(_bins(n, m))) for n, m in zip(sp, o)]
    cells = []
    for combo in itertools.product(*per_dim):
        cells.append((tuple(i for i, _ in combo), tuple(slice(a, b) for _, (a, b) in combo)))
    return cells


def _lead(pos: tuple[int, ...] | tuple[slice, ...]) -> tuple[slice | int, ...]:
    return (slice(None), slice(None), *pos)


def _check_dims(x: Tensor, nd: int, name: str, colon: bool) -> None:
    if x._d.ndim not in (nd + 1, nd + 2):
        sep = ": " if colon else " "
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got{sep}{list(x._d.shape)}"
        )


def adaptive_avg_pool(x: Tensor, size: Pair) -> Tensor:
    """Average over PyTorch's adaptive bins."""
    nd = len(size)
    _check_dims(x, nd, f"adaptive_avg_pool{nd}d", False)
    a = batched(x._d, nd)
    out = np.empty((*a.shape[:2], *size), a.dtype)
    axes = tuple(range(2, 2 + nd))
    for pos, sl in _cells(a.shape[2:], size):
        out[_lead(pos)] = a[_lead(sl)].mean(axis=axes)
    if x._d.ndim == nd + 1:
        out = out[0]
    node = AdaptiveAvgPool3DBackward0 if nd == 3 else AdaptiveAvgPool2DBackward0
    return record(node, out, (x,), {"self": x})


class AdaptiveAvgPool2DBackward0(OpNode):
    __slots__ = ()
    _name = "AdaptiveAvgPool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        nd = 3 if self._name == "AdaptiveAvgPool3DBackward0" else 2
        sp, o = batched(x, nd).shape[2:], batched(g._d, nd).shape[2:]
        cells = _cells(sp, o)
        axes = tuple(range(2, 2 + nd))

        def spread(gd: Array) -> Array:
            gb = batched(gd, nd)
            gx = np.zeros((*gb.shape[:2], *sp), gd.dtype)
            for pos, sl in cells:
                cnt = math.prod(s.stop - s.start for s in sl)
                gx[_lead(sl)] += (gb[_lead(pos)] / cnt)[(..., *(None,) * nd)]
            return gx.reshape(x.shape)

        def average(gg: Array) -> Array:
            gb = batched(gg, nd)
            out = np.empty((*gb.shape[:2], *o), gg.dtype)
            for pos, sl in cells:
                out[_lead(pos)] = gb[_lead(sl)].mean(axis=axes)
            return out.reshape(g._d.shape)

        # PyTorch's double backward saves the sizes of grad_output's spatial dims, last first
        saved = {f"grad_output_sym_argsize_minus_{i}": g._d.shape[-i] for i in range(1, nd + 1)}
        return [linear_grad(self._name, g, spread, average, self.saved("self"), saved=saved)]


class AdaptiveAvgPool3DBackward0(AdaptiveAvgPool2DBackward0):
    __slots__ = ()
    _name = "AdaptiveAvgPool3DBackward0"


def _argmax_nan(win: Array) -> Array:
    """The kernels' `val > max || isnan(val)` scan: the first maximum, or the last NaN."""
    nan = np.isnan(win)
    last_nan = win.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
    out: Array = np.where(nan.any(-1), last_nan, win.argmax(-1))
    return out


def adaptive_max_pool(x: Tensor, size: Pair) -> tuple[Tensor, Tensor]:
    """Max over each adaptive bin, and the flat spatial index of the (first) maximum."""
    nd = len(size)
    _check_dims(x, nd, f"adaptive_max_pool{nd}d", True)
    a = batched(x._d, nd)
    n, c, sp = a.shape[0], a.shape[1], a.shape[2:]
    out = np.empty((n, c, *size), a.dtype)
    idx = np.empty((n, c, *size), np.int64)
    flat = np.arange(math.prod(sp)).reshape(sp)
    for pos, sl in _cells(sp, size):
        win = a[_lead(sl)].reshape(n, c, -1)
        arg = _argmax_nan(win)
        out[_lead(pos)] = np.take_along_axis(win, arg[..., None], -1)[..., 0]
        idx[_lead(pos)] = flat[sl].reshape(-1)[arg]
    if x._d.ndim == nd + 1:
        out, idx = out[0], idx[0]
    node = AdaptiveMaxPool3DBackward0 if nd == 3 else AdaptiveMaxPool2DBackward0
    res, ind = record_multi(node, [out, idx], (x,), {"self": x, "result1": idx}, [True, False])
    return res, ind


def scatter_flat(g: Array, idx: Array, sp: tuple[int, ...], nd: int) -> Array:
    """Zeros of spatial shape `sp` with g added at the flat spatial indices `idx`."""
    gb, ib = batched(g, nd), batched(idx, nd)
    n, c = gb.shape[:2]
    out = np.zeros((n * c, math.prod(sp)), g.dtype)
    rows = np.repeat(np.arange(n * c), math.prod(ib.shape[2:]))
    np.add.at(out, (rows, ib.reshape(-1)), gb.reshape(-1))
    return out.reshape((n, c, *sp) if g.ndim == nd + 2 else (c, *sp))


def gather_flat(src: Array, idx: Array, nd: int) -> Array:
    """src's values at the flat spatial indices `idx` (per sample and channel)."""
    sb, ib = batched(src, nd), batched(idx, nd)
    n, c = sb.shape[:2]
    out = np.take_along_axis(sb.reshape(n, c, -1), ib.reshape(n, c, -1), -1)
    return out.reshape(idx.shape)


class AdaptiveMaxPool2DBackward0(OpNode):
    __slots__ = ()
    _name = "AdaptiveMaxPool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x, idx = self.saved("self")._d, self.saved("result1")
        nd = 3 if "3D" in self._name else 2
        sp = batched(x, nd).shape[2:]
        return [
            linear_grad(
                self._name,
                g,
                lambda gd: scatter_flat(gd, idx, sp, nd),
                lambda gg: gather_flat(gg, idx, nd),
                self.saved("self"),
                saved={"indices": make(idx, False, None, 0)},
            )
        ]


class AdaptiveMaxPool3DBackward0(AdaptiveMaxPool2DBackward0):
    __slots__ = ()
    _name = "AdaptiveMaxPool3DBackward0"


def _intervals(sample: Array, n_in: int, n_out: int, pool: int) -> Array:
    """ATen's generate_intervals for every plane: window starts (planes, n_out), in the
    samples' float type (int(float(i + u) * alpha) - int(u * alpha))."""
    dt = sample.dtype.type
    seq = np.empty((*sample.shape, n_out), np.int64)
    if n_out > 1:
        alpha = dt(n_in - pool) / dt(n_out - 1)
        i = np.arange(n_out - 1).astype(sample.dtype)
        u = sample[..., None]
        seq[..., :-1] = np.trunc((i + u) * alpha).astype(np.int64) - np.trunc(u * alpha).astype(
            np.int64
        )
    if n_out > 0:
        seq[..., -1] = n_in - pool
    return seq


def fractional_max_pool(x: Tensor, k: Pair, size: Pair, samples: Tensor) -> tuple[Tensor, Tensor]:
    """Max over pseudo-random windows of size k placed by `samples` (N, C, nd) in [0, 1)."""
    nd = len(k)
    if samples._d.dtype != x._d.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    a = batched(x._d, nd)
    n, c, sp = a.shape[0], a.shape[1], a.shape[2:]
    names = ("time", "height", "width")[3 - nd :]
    for i in range(nd):  # 3d refuses a window that exactly fits (a strict < in ATen)
        if size[i] + k[i] - 1 > sp[i] - (nd == 3):
            where = "fractional_max_pool3d_out" if nd == 3 else "fractional_max_pool2d"
            raise RuntimeError(
                f"{where}(): pool {names[i]} {k[i]} too large relative to input {names[i]} {sp[i]}"
            )
    smp = samples._d.reshape(n, c, -1)
    flat = np.zeros((n, c), np.int64)[(...,) + (None,) * (2 * nd)]
    for i in range(nd):
        # samples run (W, H) in 2d but (T, H, W) in 3d, as in ATen's kernels
        u = smp[..., (1 - i) if nd == 2 else i]
        pos = _intervals(u, sp[i], size[i], k[i])[..., None] + np.arange(k[i])  # (N, C, o, k)
        shape = [n, c] + [1] * (2 * nd)
        shape[2 + i], shape[2 + nd + i] = size[i], k[i]
        flat = flat * sp[i] + pos.reshape(shape)
    flat = np.broadcast_to(flat, (n, c, *size, *k)).reshape(n, c, *size, -1)
    win = np.take_along_axis(a.reshape(n, c, 1, -1), flat.reshape(n, c, 1, -1), -1).reshape(
        flat.shape
    )
    arg = _argmax_nan(win)
    out = np.take_along_axis(win, arg[..., None], -1)[..., 0]
    idx = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
    if x._d.ndim == nd + 1:
        out, idx = out[0], idx[0]
    node = FractionalMaxPool3DBackward0 if nd == 3 else FractionalMaxPool2DBackward0
    saved = {"kernel_size": k, "output_size": size, "result1": idx, "self": x}
    res, ind = record_multi(node, [out, idx], (x,), saved, [True, False])
    return res, ind


class FractionalMaxPool2DBackward0(AdaptiveMaxPool2DBackward0):
    __slots__ = ()
    _name = "FractionalMaxPool2DBackward0"


class FractionalMaxPool3DBackward0(AdaptiveMaxPool2DBackward0):
    __slots__ = ()
    _name = "FractionalMaxPool3DBackward0"


def max_unpool(x: Tensor, indices: Tensor, size: Pair) -> Tensor:
    """Put each value at its flat spatial index in zeros of spatial shape `size`."""
    nd, idx = len(size), indices._d
    total = math.prod(size)
    bad = idx[(idx < 0) | (idx >= total)]
    if bad.size:
        raise RuntimeError(
            f"Found an invalid max index: {int(bad.reshape(-1)[0])} "
            f"(output volumes are of size {'x'.join(map(str, size))})"
        )
    # later duplicates overwrite earlier ones, as PyTorch's sequential kernel does
    xb, ib = batched(x._d, nd), batched(idx, nd)
    n, c = xb.shape[:2]
    out = np.zeros((n * c, total), x._d.dtype)
    rows = np.repeat(np.arange(n * c), math.prod(ib.shape[2:]))
    out[rows, ib.reshape(-1)] = xb.reshape(-1)
    shape = (n, c, *size) if x._d.ndim == nd + 2 else (c, *size)
    node = MaxUnpool3DBackward0 if nd == 3 else MaxUnpool2DBackward0
    return record(node, out.reshape(shape), (x,), {"indices": indices})


class MaxUnpool2DBackward0(OpNode):
    __slots__ = ()
    _name = "MaxUnpool2DBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        idx = self.saved("indices")._d
        nd = 3 if self._name == "MaxUnpool3DBackward0" else 2
        sp = batched(g._d, nd).shape[2:]
        return [
            linear_grad(
                self._name,
                g,
                lambda gd: gather_flat(gd, idx, nd),
                lambda gg: scatter_flat(gg, idx, sp, nd),
            )
        ]


class MaxUnpool3DBackward0(MaxUnpool2DBackward0):
    __slots__ = ()
    _name = "MaxUnpool3DBackward0"


# the max pools' double backward saves the indices (listed as _raw_saved_)
for _pool in ("AdaptiveMaxPool", "FractionalMaxPool"):
    for _d in ("2D", "3D"):
        _double = f"{_pool}{_d}BackwardBackward0"
        variant(LinearBackwardBackward, _double, _tensors=frozenset(("indices",)))
