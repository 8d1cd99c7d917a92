"""More of `torch.nn.functional`: channel dropout and the 1d pools (run as 2d ones)."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor, make
from engine.nn._functional_more import avg_pool2d, max_pool2d
from engine.ops import nn_pool
from engine.ops._core import check_inplace, rebase


def _feature_dropout(x: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """Zero whole channels: one mask entry per (sample, channel), as PyTorch's dropout2d."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    from engine._creation import rand

    shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
    keep = rand(*shape)._d >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    out = x * make((keep * scale).astype(x._d.dtype), False, None, 0)
    if inplace:
        check_inplace(x)
        return rebase(x, out)
    return out


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    return _feature_dropout(input, p, training, inplace)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    return _feature_dropout(input, p, training, inplace)


def _one(v: Any) -> tuple[int, int]:
    return (1, int(v[0] if isinstance(v, list | tuple) else v))


def _pool1d(fn: Any, x: Tensor, *args: Any) -> Any:
    """A 1d pool as PyTorch runs it: unsqueeze(-2), the 2d pool, squeeze(-2)."""
    out = fn(x.unsqueeze(-2), *args)  # type: ignore[attr-defined]
    if isinstance(out, tuple):
        return tuple(o.squeeze(-2) for o in out)
    return out.squeeze(-2)


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Max over windows along the last dimension."""
    s = None if stride is None else _one(stride)
    args = (_one(kernel_size), s, (0, _one(padding)[1]), _one(dilation), ceil_mode, return_indices)
    return _pool1d(max_pool2d, input, *args)


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """Mean over windows along the last dimension."""
    s = None if stride is None else _one(stride)
    args = (_one(kernel_size), s, (0, _one(padding)[1]), ceil_mode, count_include_pad)
    return _pool1d(avg_pool2d, input, *args)  # type: ignore[no-any-return]


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Average into `output_size` bins along the last dimension."""
    return _pool1d(nn_pool.adaptive_avg_pool2d, input, _one(output_size))  # type: ignore[no-any-return]
