"""`torch.fft`: discrete Fourier transforms with PyTorch's three primitives and their nodes.

ATen reduces every transform to `_fft_c2c` (complex to complex), `_fft_r2c` (real to complex,
optionally one-sided) and `_fft_c2r` (one-sided complex to real), each a node
(FftC2CBackward0, FftR2CBackward0, FftC2RBackward0) whose gradient is another transform.
NumPy's pocketfft is PyTorch's CPU backend too. `normalization` is ATen's mode: 0 none,
1 by 1/sqrt(n), 2 by 1/n.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, _wrap_dim, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, as_tensor, record
from engine.ops.complex import conj, conj_physical
from engine.ops.complex_grad import real_grad

# numpy's `norm` that applies ATen's mode, for a forward / an inverse transform
_Norm = Literal["backward", "ortho", "forward"]
_FWD: dict[int, _Norm] = {0: "backward", 1: "ortho", 2: "forward"}
_INV: dict[int, _Norm] = {0: "forward", 1: "ortho", 2: "backward"}


def _mode(norm: str | None, forward: bool) -> int:
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


# -- the three primitives ----------------------------------------------------------------
def _c2c(x: Tensor, dims: tuple[int, ...], mode: int, forward: bool) -> Tensor:
    a = x._d
    fn = np.fft.fftn if forward else np.fft.ifftn
    out = fn(a, axes=dims, norm=(_FWD if forward else _INV)[mode]).astype(a.dtype, copy=False)
    saved = {"dim": dims, "forward": forward, "normalization": mode}
    return record(FftC2CBackward0, out, (x,), saved)


class FftC2CBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "FftC2CBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        dims, mode = self.saved("dim"), self.saved("normalization")
        return [_c2c(g, dims, mode, not self.saved("forward"))]


def _r2c(x: Tensor, dims: tuple[int, ...], mode: int, onesided: bool) -> Tensor:
    a = x._d
    ct = _dtype.from_numpy(a.dtype).to_complex().np
    if onesided:
        out = np.fft.rfftn(a, axes=dims, norm=_FWD[mode])
    else:
        out = np.fft.fftn(a, axes=dims, norm=_FWD[mode])
    saved = {"dim": dims, "normalization": mode, "onesided": onesided, "self": x}
    return record(FftR2CBackward0, out.astype(ct, copy=False), (x,), saved)


class FftR2CBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "FftR2CBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        dims, mode = self.saved("dim"), self.saved("normalization")
        full = self.saved("self")._d.shape[dims[-1]]
        missing = full - g._d.shape[dims[-1]]
        if self.saved("onesided") and missing > 0:  # the dropped half gets a zero gradient
            g = _pad_dim(g, dims[-1], missing)
        return [real_grad(_c2c(g, dims, mode, False))]


def _c2r(x: Tensor, dims: tuple[int, ...], mode: int, last_dim_size: int) -> Tensor:
    a = x._d
    s = [a.shape[d] for d in dims[:-1]] + [last_dim_size]
    rt = a.real.dtype
    out = np.fft.irfftn(a, s=s, axes=dims, norm=_INV[mode]).astype(rt, copy=False)
    return record(FftC2RBackward0, out, (x,), {"dim": dims, "normalization": mode})


class FftC2RBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "FftC2RBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        dims, mode = self.saved("dim"), self.saved("normalization")
        gi = _r2c(g, dims, mode, True)
        d = dims[-1]
        double = g._d.shape[d] - gi._d.shape[d]
        if double > 0:  # the bins that stand for two (their mirror images were dropped)
            w = np.ones(gi._d.shape[d], g._d.dtype)
            w[1 : 1 + double] = 2
            gi = gi * make(w.reshape((-1,) + (1,) * (gi._d.ndim - d - 1)), False, None, 0)
        return [gi]


def _pad_dim(t: Tensor, d: int, amount: int) -> Tensor:
    from engine.ops.nn_pad import pad_nd

    pad = [0] * (2 * (t._d.ndim - d))
    pad[-1] = amount
    return pad_nd(t, tuple(pad), "constant", 0.0)


# -- argument handling -------------------------------------------------------------------
def _promote(x: Any, need_complex: bool) -> Tensor:
    t = as_tensor(x)
    kind = _dtype.kind(t._d.dtype)
    if kind in "iub":
        t = t.to(_dtype.get_default_dtype())
        kind = "f"
    if need_complex and kind == "f":
        t = t.to(_dtype.from_numpy(t._d.dtype).to_complex())
    return t


def _dims_sizes(
    x: Tensor, s: Any, dim: Any, one: bool = False
) -> tuple[tuple[int, ...], list[int]]:
    """The transformed dims and their signal sizes (-1 or None: the input's size)."""
    nd = x._d.ndim
    dims: tuple[int, ...]
    if one:
        dims = (_wrap_dim(dim, nd),)
        s = None if s is None else [s]
    elif dim is None:
        dims = tuple(range(nd - len(s), nd)) if s is not None else tuple(range(nd))
    else:
        dims = tuple(_wrap_dim(d, nd) for d in ([dim] if isinstance(dim, int) else dim))
    if s is not None and len(s) != len(dims):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    sizes = [
        x._d.shape[d] if s is None or s[i] in (None, -1) else int(s[i]) for i, d in enumerate(dims)
    ]
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _resize(x: Tensor, dims: Sequence[int], sizes: Sequence[int]) -> Tensor:
    """Crop (SliceBackward0) or zero-pad (one ConstantPadNdBackward0) to `sizes`, as ATen."""
    from engine.ops.index import narrow
    from engine.ops.nn_pad import pad_nd

    pad = [0] * (2 * x._d.ndim)
    grow = False
    for d, n in zip(dims, sizes):
        have = x._d.shape[d]
        if have > n:
            x = narrow(x, d, 0, n)
        elif have < n:
            grow = True
            pad[2 * (x._d.ndim - d) - 1] = n - have
    if not grow:
        return x
    last = max(i for i, p in enumerate(pad) if p) + 1
    return pad_nd(x, tuple(pad[: last + (last % 2)]), "constant", 0.0)


def _complex_fft(x: Any, s: Any, dim: Any, norm: Any, forward: bool, one: bool) -> Tensor:
    t = _promote(x, False)
    dims, sizes = _dims_sizes(t, s, dim, one)
    if _dtype.kind(t._d.dtype) == "f" and one:  # a real signal: r2c, conjugated for the inverse
        t = _resize(t, dims, sizes)
        out = _r2c(t, dims, _mode(norm, forward), False)
        return out if forward else conj(out)
    t = _resize(_promote(t, True), dims, sizes)
    return _c2c(t, dims, _mode(norm, forward), forward)


def _real_fft(x: Any, s: Any, dim: Any, norm: Any, one: bool, name: str) -> Tensor:
    t = _promote(x, False)
    if _dtype.kind(t._d.dtype) == "c":
        from engine.ops.complex import type_title

        raise RuntimeError(f"{name} expects a real input tensor, but got {type_title(t._d.dtype)}")
    dims, sizes = _dims_sizes(t, s, dim, one)
    return _r2c(_resize(t, dims, sizes), dims, _mode(norm, True), True)


def _one_sided_input(x: Any, s: Any, dim: Any, one: bool) -> tuple[Tensor, tuple[int, ...], int]:
    """A c2r transform's input resized to the one-sided half of its output, the transformed
    dims, and the output's last size (by default 2 * (n - 1) from the input's n)."""
    t = _promote(x, True)
    dims, sizes = _dims_sizes(t, s, dim, one)
    raw = None if s is None else s if one else s[-1]
    last = int(raw) if raw not in (None, -1) else 2 * (t._d.shape[dims[-1]] - 1)
    if last < 1:
        raise RuntimeError(f"Invalid number of data points ({last}) specified")
    return _resize(t, dims, [*sizes[:-1], last // 2 + 1]), dims, last


def _inverse_real_fft(x: Any, s: Any, dim: Any, norm: Any, one: bool) -> Tensor:
    t, dims, last = _one_sided_input(x, s, dim, one)
    return _c2r(t, dims, _mode(norm, False), last)


def _hermitian_fft(x: Any, s: Any, dim: Any, norm: Any, one: bool) -> Tensor:
    """hfft/hfftn as ATen: c2c over all but the last dim, conj, then c2r over the last."""
    t, dims, last = _one_sided_input(x, s, dim, one)
    mode = _mode(norm, True)
    if len(dims) > 1:
        t = _c2c(t, dims[:-1], mode, True)
    return _c2r(conj(t), dims[-1:], mode, last)


def _inverse_hermitian_fft(x: Any, s: Any, dim: Any, norm: Any, one: bool, name: str) -> Tensor:
    """ihfft/ihfftn as ATen: one-sided r2c over the last dim, conj, then inverse c2c."""
    t = _promote(x, False)
    if _dtype.kind(t._d.dtype) == "c":
        from engine.ops.complex import type_title

        raise RuntimeError(f"{name} expects a real input tensor, but got {type_title(t._d.dtype)}")
    dims, sizes = _dims_sizes(t, s, dim, one)
    mode = _mode(norm, False)
    out = _r2c(_resize(t, dims, sizes), dims[-1:], mode, True)
    if len(dims) == 1:
        return conj(out)
    return _c2c(conj_physical(out), dims[:-1], mode, False)


# -- the public functions ----------------------------------------------------------------
def fft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _complex_fft(input, n, dim, norm, True, True)


def ifft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _complex_fft(input, n, dim, norm, False, True)


def fftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _complex_fft(input, s, dim, norm, True, False)


def ifftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _complex_fft(input, s, dim, norm, False, False)


def fft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _complex_fft(input, s, dim, norm, True, False)


def ifft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _complex_fft(input, s, dim, norm, False, False)


def rfft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _real_fft(input, n, dim, norm, True, "rfft")


def rfftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _real_fft(input, s, dim, norm, False, "rfftn")


def rfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _real_fft(input, s, dim, norm, False, "rfftn")


def irfft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _inverse_real_fft(input, n, dim, norm, True)


def irfftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _inverse_real_fft(input, s, dim, norm, False)


def irfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _inverse_real_fft(input, s, dim, norm, False)


def hfft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _hermitian_fft(input, n, dim, norm, True)


def ihfft(input: Any, n: Any = None, dim: int = -1, norm: str | None = None) -> Tensor:
    return _inverse_hermitian_fft(input, n, dim, norm, True, "ihfft")


def hfftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _hermitian_fft(input, s, dim, norm, False)


def ihfftn(input: Any, s: Any = None, dim: Any = None, norm: str | None = None) -> Tensor:
    return _inverse_hermitian_fft(input, s, dim, norm, False, "ihfftn")


def hfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _hermitian_fft(input, s, dim, norm, False)


def ihfft2(input: Any, s: Any = None, dim: Any = (-2, -1), norm: str | None = None) -> Tensor:
    return _inverse_hermitian_fft(input, s, dim, norm, False, "ihfftn")


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Sample frequencies of an n-point transform: [0, 1, ..., -1] / (d * n)."""
    dt = dtype.np if dtype is not None else _dtype.get_default_dtype().np
    k = np.concatenate((np.arange((n + 1) // 2), np.arange(-(n // 2), 0)))
    return _leaf(k.astype(dt) * np.asarray(1.0 / (n * d), dt), requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Sample frequencies of a one-sided n-point transform."""
    dt = dtype.np if dtype is not None else _dtype.get_default_dtype().np
    return _leaf(np.arange(n // 2 + 1).astype(dt) * np.asarray(1.0 / (n * d), dt), requires_grad)


def _leaf(a: np.ndarray[Any, Any], requires_grad: bool) -> Tensor:
    out = make(a, False, None, 0)
    if requires_grad:
        out.requires_grad = True
    return out


def fftshift(input: Tensor, dim: Any = None) -> Tensor:
    """Move the zero frequency to the middle (a roll by half of each dim)."""
    return _shift(input, dim, 1)


def ifftshift(input: Tensor, dim: Any = None) -> Tensor:
    """The inverse of `fftshift`."""
    return _shift(input, dim, -1)


def _shift(x: Tensor, dim: Any, sign: int) -> Tensor:
    from engine.ops.tensor_shape import roll

    nd = x._d.ndim
    dims = list(range(nd)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    shifts = [sign * (x._d.shape[d] // 2) for d in dims]
    return roll(x, shifts, dims)


__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "hfft2",
    "hfftn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]  # fmt: skip
