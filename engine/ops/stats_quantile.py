"""`cov`, `corrcoef`, `quantile` and `nanquantile`, composed as ATen composes them.

So the recorded graph matches PyTorch's: cov ends in `SqueezeBackward0` over a `DivBackward0`,
corrcoef in `ClampBackward1`, quantile in an in-place `squeeze_` (`SqueezeBackward4`) over an
in-place `lerp_` (`LerpBackward1`) of two gathers from the sorted input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine._warn import warn
from engine.ops.table import Op


def cov(
    input: Tensor, *, correction: int = 1, fweights: Any = None, aweights: Any = None
) -> Tensor:
    """`torch.cov`: covariance of the rows (variables) over the columns (observations)."""
    if input.dim() > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with "
            f"{input.dim()} dimensions"
        )
    x = input.view(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    dt = x._d.dtype if _dtype.kind(x._d.dtype) == "f" else np.float32
    w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    w_sum = make(np.asarray(n, dt), False, None, 0) if w is None else w.sum()
    avg = (x if w is None else x * w).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if float(norm_factor._d) <= 0:
        warn(
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "number of observations. (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Correlation.cpp:129.)",
            UserWarning,
        )
        norm_factor = make(np.zeros((), norm_factor._d.dtype), False, None, 0)
    x = x - avg.unsqueeze(1)
    c = x.mm((x if w is None else x * w).t())
    return c.true_divide(norm_factor).squeeze()


def corrcoef(input: Tensor) -> Tensor:
    """`torch.corrcoef`: Pearson correlation coefficients of the rows."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)


_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _check(x: Tensor, q: Any, fn: str, interpolation: str) -> np.ndarray[Any, Any]:
    if x.numel() == 0:
        raise RuntimeError(f"{fn}() input tensor must be non-empty")
    qa = np.asarray(q._d if isinstance(q, Tensor) else q, np.float64)
    if qa.ndim > 1:
        raise RuntimeError(f"{fn}() q must be a scalar or 1D tensor")
    if x._d.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{fn}() input tensor must be either float or double dtype")
    if isinstance(q, Tensor) and q._d.dtype != x._d.dtype:
        raise RuntimeError(f"{fn}() q tensor must be same dtype as the input tensor")
    if not np.all((qa >= 0) & (qa <= 1)):
        if qa.ndim == 0:
            raise RuntimeError(f"{fn}() q must be in the range [0, 1] but got {float(qa)}")
        raise RuntimeError(f"{fn}() q values must be in the range [0, 1]")
    if interpolation not in _MODES:
        raise RuntimeError(
            f"{fn}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
            f"Got {interpolation}"
        )
    return qa


def _quantile(
    x: Tensor, q: Any, dim: Any, keepdim: bool, interpolation: str, ignore_nan: bool
) -> Tensor:
    fn = "nanquantile" if ignore_nan else "quantile"
    qa = _check(x, q, fn, interpolation)
    xx = x
    shape = tuple(x.shape)
    # the output's shape (keepdim-aware) is the leading shape of the sorted view, as in ATen
    if dim is None:
        srt = xx.flatten().sort()[0]
        lead: tuple[int, ...] = (1,) * len(shape) if keepdim else ()
    else:
        d = dim % max(len(shape), 1)
        srt = xx.unsqueeze(-1).transpose(d, -1).sort()[0]
        lead = tuple(1 if i == d else s for i, s in enumerate(shape) if keepdim or i != d)
    n = srt.shape[-1]
    srt = srt.view(*lead, n)
    sd = srt._d
    nan = np.isnan(sd)
    q1 = qa.reshape(-1)
    if ignore_nan:
        count = (~nan).sum(-1, keepdims=True)
        ranks = q1 * (count - 1)
    else:
        ranks = np.where(nan.any(-1, keepdims=True), float(n - 1), q1 * (n - 1))
    ranks = np.broadcast_to(ranks, (*lead, q1.size)).astype(sd.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)  # half to even, as PyTorch's round_
    below = np.clip(ranks.astype(np.int64), 0, None)
    vals = srt.gather(-1, make(below, False, None, 0))
    if interpolation in ("linear", "midpoint"):
        above = np.clip(np.ceil(ranks).astype(np.int64), 0, None)
        w = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        vals.lerp_(srt.gather(-1, make(above, False, None, 0)), make(w, False, None, 0))
    if qa.ndim == 0:
        vals.squeeze_(-1)
    else:
        vals.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return vals


def quantile(
    input: Tensor,
    q: Any,
    dim: Any = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Tensor:
    """`torch.quantile`: the q-th quantiles (NaN when a slice holds a NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(
    input: Tensor,
    q: Any,
    dim: Any = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Tensor:
    """`torch.nanquantile`: quantiles ignoring NaNs."""
    return _quantile(input, q, dim, keepdim, interpolation, True)


OPS = [
    Op("cov", cov),
    Op("corrcoef", corrcoef),
    Op("quantile", quantile, out=True),
    Op("nanquantile", nanquantile, out=True),
]
