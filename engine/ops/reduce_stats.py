"""Statistical reductions: var, std, var_mean/std_mean and vector norms.

Points where PyTorch is particular: `var`/`std` take `unbiased=` or `correction=` (and a bare
bool as the first argument means `unbiased`); the gradient of a norm or std at zero is 0, not
NaN; softmax and logsumexp subtract the maximum first, so large inputs do not overflow.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine._warn import warn
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, acc_dtype, record, record_multi, zeros_for
from engine.ops.reduce import axes_of, dims_of, expand_back, shown_list, unsqueeze_to
from engine.ops.table import Op

# ufunc reductions called directly (np.sum & co. add ~1 us of Python per call); typed loosely
# because NumPy's stubs reject a runtime `keepdims: bool`
_ADD: Any = np.add.reduce
_MAX: Any = np.maximum.reduce


def _const(a: Any, like: Tensor) -> Tensor:
    return make(np.asarray(a, like._d.dtype), False, None, 0)


def _type_name(a: np.ndarray[Any, Any]) -> str:
    from engine.ops.inplace import type_name

    return type_name(_dtype.from_numpy(a.dtype))


# -- var / std ---------------------------------------------------------------------------
def _var_args(dim: Any, unbiased: Any, correction: Any) -> tuple[Any, Any]:
    """(dim, correction as PyTorch saves it) from var/std's three overloads."""
    if isinstance(dim, bool):  # x.var(False): the `unbiased` overload
        dim, unbiased = None, dim
    if correction is not None:
        return dim, correction
    if unbiased is not None:
        return dim, 1 if unbiased else 0
    return dim, (1 if dim is not None else None)


def _var(name: str, self: Tensor, dim: Any, correction: Any, keepdim: bool) -> Any:
    a = self._d
    if _dtype.kind(a.dtype) != "f" and _dtype.kind(a.dtype) != "c":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    axes = dims_of(dim, a.ndim)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    c = 1 if correction is None else correction
    if n - c <= 0:
        warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)",
            UserWarning,
        )
    low = a.dtype if acc_dtype(a.dtype) is not None else None
    if low is not None:  # bfloat16: computed in float32, rounded once
        a = a.astype(np.float32)
    rt = a.real.dtype  # complex: |z - mean|^2, a real variance
    if a.ndim == 0:
        d = np.abs(a - a)
        s = d * d
    else:
        d = a - _ADD(a, axis=axes, keepdims=True) / n
        if _dtype.kind(d.dtype) == "c":
            d = d.real * d.real + d.imag * d.imag
        else:
            np.multiply(d, d, out=d)
        s = np.asarray(_ADD(d, axis=axes, keepdims=keepdim))
    out = np.asarray(s / np.asarray(n - c if n > c else 0, rt), rt)
    return out if low is None else out.astype(low)


def var(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> Tensor:
    """Variance over `dim` (all by default), with Bessel's correction unless told otherwise."""
    dim, corr = _var_args(dim, unbiased, correction)
    out = _var("var", self, dim, corr, keepdim)
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    return record(VarBackward0, out, (self,), saved)


def std(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> Tensor:
    """Standard deviation over `dim` (all by default)."""
    dim, corr = _var_args(dim, unbiased, correction)
    out = np.sqrt(_var("std", self, dim, corr, keepdim))
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    return record(StdBackward0, out, (self,), saved, out_saved="result")


def _var_back(node: OpNode, g: Any) -> Tensor:
    """PyTorch's var_backward: 2 / (n - correction) * grad * (x - mean)."""
    x = node.saved("self")
    shape = x._d.shape
    dim = node.saved("dim")
    whole = dim is None or not shape
    axes = axes_of(dim, len(shape))
    corr = node.saved("correction")
    n = 1
    for ax in axes:
        n *= shape[ax]
    dof = n - (1 if corr is None else corr)
    # no degrees of freedom: PyTorch's formula still runs (2/0 = inf, times x - mean = 0), so
    # the gradient is NaN with the input's shape (`x.std()` of one element: .grad is [nan])
    scale = 2.0 / dof if dof else math.inf
    if not whole and not node.saved("keepdim") and len(shape) > 1:
        g = unsqueeze_to(g, shape, axes)
    if not STATE.enabled:
        xd = x._d
        centred = xd - _ADD(xd, axis=axes, keepdims=True) / n if xd.ndim else xd - xd
        with np.errstate(invalid="ignore"):
            grad = scale * g._d * centred
        return make(grad.astype(xd.dtype, copy=False), False, None, 0)
    from engine.ops.nn_loss import mul_scalar
    from engine.ops.reduce import mean

    scaled = mul_scalar(g, scale)  # a C++ scalar multiply in PyTorch: MulBackward1
    return scaled * (x - (mean(x) if whole else mean(x, axes, True)))  # type: ignore[no-any-return]


class VarBackward0(OpNode):
    __slots__ = ()
    _name = "VarBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [_var_back(self, grads[0])]


class StdBackward0(OpNode):
    __slots__ = ()
    _name = "StdBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.masked import masked_fill

        r = self.saved("result")
        g: Any = grads[0]
        # PyTorch masks the zero-std positions: their gradient is 0, not inf or NaN
        gv = masked_fill(g / (r * 2), make(r._d == 0, False, None, 0), 0.0)
        return [_var_back(self, gv)]


# -- norms -------------------------------------------------------------------------------
def vector_norm(
    x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Tensor:
    """`torch.linalg.vector_norm`: the `ord`-norm of `x` over `dim` (all by default)."""
    return _vector_norm(x, ord, dim, keepdim, dtype, LinalgVectorNormBackward0)


def _vector_norm(
    x: Tensor, ord: Any, dim: Any, keepdim: bool, dtype: Any, overload: type[OpNode]
) -> Tensor:
    a = x._d
    if _dtype.kind(a.dtype) != "f" and _dtype.kind(a.dtype) != "c":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. "
            f"Got {_type_name(a)}"
        )
    if dtype is not None:
        a = a.astype(dtype.np, copy=False)
    axes = dims_of(dim, a.ndim)
    p = float(ord)
    low = a.dtype if acc_dtype(a.dtype) is not None else None
    ab = np.abs(a if low is None else a.astype(np.float32))  # bfloat16: in float32
    if a.ndim == 0:
        out = ab if p != 0 else (ab != 0).astype(a.dtype)
    elif p == 2:
        out = np.sqrt(_ADD(ab * ab, axis=axes, keepdims=keepdim))
    elif p == 1:
        out = _ADD(ab, axis=axes, keepdims=keepdim)
    elif p == math.inf:
        out = np.max(ab, axis=axes, keepdims=keepdim)
    elif p == -math.inf:
        out = np.min(ab, axis=axes, keepdims=keepdim)
    elif p == 0:
        out = np.sum(ab != 0, axis=axes, keepdims=keepdim)
    else:
        out = np.power(np.sum(np.power(ab, p), axis=axes, keepdims=keepdim), 1.0 / p)
    out = np.asarray(out, ab.dtype if low is None else low)  # real, also for complex input
    if overload is NormBackward0:  # ATen's norm.Scalar: every dim, the order named `p`
        return record(NormBackward0, out, (x,), {"p": ord, "self": x}, out_saved="result")
    saved = {"dim": shown_list(dim), "keepdim": keepdim, "ord": ord, "self": x}
    if overload is NormBackward1:  # ATen's norm.ScalarOpt_dim
        saved = {"dim": shown_list(dim), "keepdim": keepdim, "p": ord, "self": x}
    return record(overload, out, (x,), saved, out_saved="result")


def norm_overload(x: Tensor, p: float, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """ATen's `norm(self, p[, dim, keepdim])` as PyTorch's C++ code calls it (weight norm,
    pairwise distance): NormBackward0 over every dim, NormBackward1 over `dim`."""
    if dim is None:
        return _vector_norm(x, p, None, False, None, NormBackward0)
    return _vector_norm(x, p, dim, keepdim, None, NormBackward1)


def norm(
    self: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    """`Tensor.norm` / `torch.norm`: a vector norm (Frobenius is the 2-norm)."""
    if p == "fro" or p is None:
        p = 2
    elif p == "nuc":
        from engine.ops.linalg_norms import matrix_norm

        return matrix_norm(self, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    elif isinstance(p, str):
        raise NotImplementedError(f"norm with p={p!r} is not supported by this engine")
    return vector_norm(self, p, dim, keepdim, dtype=dtype)


class LinalgVectorNormBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgVectorNormBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x, r = self.saved("self"), self.saved("result")
        saved = self._saved or {}
        p = float(self.saved("ord" if "ord" in saved else "p"))
        if p == 0:
            return [None]  # PyTorch returns an undefined gradient for the 0-"norm"
        shape = x._d.shape
        dim = self.saved("dim") if "dim" in saved else None
        axes = axes_of(dim, len(shape))
        if dim is not None and not self.saved("keepdim") and shape:
            g, r = unsqueeze_to(g, shape, axes), unsqueeze_to(r, shape, axes)
        return [_norm_grad(x, g, r, p, axes)]


class NormBackward0(LinalgVectorNormBackward0):
    __slots__ = ()
    _name = "NormBackward0"


class NormBackward1(LinalgVectorNormBackward0):
    __slots__ = ()
    _name = "NormBackward1"


def _norm_grad(x: Tensor, g: Tensor, r: Tensor, p: float, axes: tuple[int, ...]) -> Tensor:
    """PyTorch's `norm_backward`, with engine ops (the gradient at a zero norm is 0)."""
    from engine.ops.masked import masked_fill

    xd = x._d
    rzero = make(np.asarray(r._d == 0), False, None, 0)
    if p == 1:
        return x.sign() * g
    if p == 2:
        return g * masked_fill(x / r, rzero, 0.0)
    if math.isinf(p):
        ab = np.abs(xd)
        mask = (ab == r._d) | np.isnan(ab)
        count = mask.sum(axis=axes, keepdims=True) if xd.ndim else mask
        return x.sign() * (g / _const(count, g) * _const(mask, g))
    if p < 1:
        xzero = make(np.asarray(xd == 0), False, None, 0)
        scaled = x.sign() * masked_fill(x.abs() ** (p - 1), xzero, 0.0)
        return scaled * g * r ** (1 - p)
    scaled = x.sign() * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return scaled * masked_fill(g / r ** (p - 1), rzero, 0.0)


# -- var_mean / std_mean -----------------------------------------------------------------
def _mean_of(a: np.ndarray[Any, Any], axes: tuple[int, ...], keepdim: bool) -> Any:
    if a.ndim == 0:
        return a.copy()
    return np.asarray(np.mean(a, axis=axes, keepdims=keepdim), a.dtype)


def var_mean(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, ...]:
    """(variance, mean) over `dim` in one node."""
    dim, corr = _var_args(dim, unbiased, correction)
    var = _var("var_mean", self, dim, corr, keepdim)
    mean = _mean_of(self._d, dims_of(dim, self._d.ndim), keepdim)
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    return tuple(record_multi(VarMeanBackward0, [var, mean], (self,), saved))


def std_mean(
    self: Tensor,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple[Tensor, ...]:
    """(standard deviation, mean) over `dim` in one node."""
    dim, corr = _var_args(dim, unbiased, correction)
    std = np.sqrt(_var("std_mean", self, dim, corr, keepdim))
    mean = _mean_of(self._d, dims_of(dim, self._d.ndim), keepdim)
    saved = {"correction": corr, "dim": shown_list(dim), "keepdim": keepdim, "self": self}
    outs = record_multi(StdMeanBackward0, [std, mean], (self,), saved, out_saved=("result0", ""))
    return tuple(outs)


def _mean_back(node: OpNode, g: Tensor) -> Tensor:
    x = node.saved("self")
    shape = x._d.shape
    axes = axes_of(node.saved("dim"), len(shape))
    n = 1
    for ax in axes:
        n *= shape[ax]
    gm: Any = g
    return expand_back(gm / n, shape, axes, node.saved("keepdim"))


class VarMeanBackward0(OpNode):
    __slots__ = ()
    _name = "VarMeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        gv, gm = zeros_for(self, grads)
        out: Any = _var_back(self, gv)
        return [out + _mean_back(self, gm)]


class StdMeanBackward0(OpNode):
    __slots__ = ()
    _name = "StdMeanBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.pointwise import where

        gs, gm = zeros_for(self, grads)
        r: Any = self.saved("result0")
        gv = where(make(r._d == 0, False, None, 0), 0.0, gs / (r * 2))
        out: Any = _var_back(self, gv)
        return [out + _mean_back(self, gm)]


OPS = [
    Op("var", var, out=True),
    Op("std", std, out=True),
    Op("norm", norm, out=True),
    Op("var_mean", var_mean, out=True),
    Op("std_mean", std_mean, out=True),
]
