"""`torch.nn.init`: in-place initialisers, run without recording (as PyTorch's `no_grad`).

Random draws come from PyTorch's generator stream, so seeded initialisations match.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._generator import in_memory_order, pick
from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.grad_mode import no_grad
from engine.ops._core import overwrite

_LINEAR = (
    "linear", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid",
)  # fmt: skip


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for a nonlinearity (PyTorch's table)."""
    if nonlinearity in _LINEAR:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int | float):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fill(t: Tensor, values: np.ndarray[Any, Any]) -> Tensor:
    with no_grad():
        overwrite(t, values)
    return t


def _uniform(t: Tensor, a: float, b: float, generator: Any = None) -> np.ndarray[Any, Any]:
    """`tensor.uniform_(a, b)`'s numbers, drawn as PyTorch draws them."""
    g = pick(generator)
    return in_memory_order(t._d, g.uniform(t._d.size, t._d.dtype, a, b))


def _normal(t: Tensor, mean: float, std: float, generator: Any = None) -> np.ndarray[Any, Any]:
    """`tensor.normal_(mean, std)`'s numbers, drawn as PyTorch draws them."""
    g = pick(generator)
    d = t._d
    return in_memory_order(d, g.normal(d.size, d.dtype, mean, std, d.flags.c_contiguous))


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with U(a, b)."""
    return _fill(tensor, _uniform(tensor, a, b, generator))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with N(mean, std^2)."""
    return _fill(tensor, _normal(tensor, mean, std, generator))


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Any = None,
) -> Tensor:
    """Fill with N(mean, std^2) truncated to [a, b] (by redrawing outside values)."""
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
        )
    # PyTorch redraws a whole fresh tensor of normals each round and keeps the new values
    # only where the old ones fell outside; the bounds are first rounded to the dtype
    lo, hi = np.asarray(a, tensor._d.dtype), np.asarray(b, tensor._d.dtype)
    v = _normal(tensor, mean, std, generator)
    while True:
        bad = (v < lo) | (v > hi)
        if not bad.any():
            break
        v = np.where(bad, _normal(tensor, mean, std, generator), v)
    return _fill(tensor, v)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _fill(tensor, np.asarray(val))


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, np.asarray(1))


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, np.asarray(0))


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    dims = tensor.ndim
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    v = np.zeros(tuple(tensor.shape))
    out_per = tensor.shape[0] // groups
    mn = min(out_per, tensor.shape[1])
    for g in range(groups):
        for d in range(mn):
            centre = tuple(s // 2 for s in tensor.shape[2:])
            v[(g * out_per + d, d, *centre)] = 1
    return _fill(tensor, v)


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    rf = 1
    for s in tensor.shape[2:]:
        rf *= s
    return tensor.shape[1] * rf, tensor.shape[0] * rf


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    a = gain * math.sqrt(2.0 / float(fan_in + fan_out)) * math.sqrt(3.0)
    return uniform_(tensor, -a, a)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    if 0 in tuple(tensor.shape):
        warn("Initializing zero-element tensors is a no-op", UserWarning)
        return 0.0
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    """U(-b, b) with b = gain * sqrt(3 / fan)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std == 0.0 and 0 in tuple(tensor.shape):
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    """N(0, std^2) with std = gain / sqrt(fan)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std == 0.0 and 0 in tuple(tensor.shape):
        return tensor
    return normal_(tensor, 0.0, std)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR of a Gaussian one."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = pick(generator).normal(rows * cols, tensor._d.dtype).reshape(rows, cols)
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tuple(tensor.shape)))


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """N(0, std^2) with ceil(sparsity * rows) zeros per column (rows from randperm)."""
    from engine._generator import default_generator

    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    normal_(tensor, 0.0, std, generator)
    zeros = math.ceil(sparsity * rows)
    for col in range(cols):  # PyTorch's randperm here ignores `generator`
        tensor._d[default_generator.randperm(rows)[:zeros], col] = 0
    return tensor


def _deprecated(fn: Any) -> Any:
    """PyTorch's old, un-suffixed name for `fn`: it warns, then does the same."""
    old = fn.__name__[:-1]

    def alias(*args: Any, **kwargs: Any) -> Any:
        warn(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{fn.__name__}`.",
            FutureWarning,
        )
        return fn(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    return alias


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
