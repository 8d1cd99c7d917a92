"""The pooling part of `torch.nn.functional`: max, average, adaptive, lp pools and unpooling
in 1, 2 and 3 dimensions. 1d pools run as PyTorch runs them: unsqueeze, the 2d op, squeeze."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.ops import nn_pool, nn_pool_adaptive


def _tup(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, list | tuple):
        return (int(v[0]),) * n if len(v) == 1 else tuple(int(a) for a in v)
    return (int(v),) * n


def _stride(stride: Any, k: tuple[int, ...]) -> tuple[int, ...]:
    """The stride as given; () (PyTorch saves it so) means the kernel size."""
    if stride is None or (isinstance(stride, list | tuple) and not stride):
        return ()
    return _tup(stride, len(k))


def _check_1d(x: Tensor, name: str) -> None:
    if x.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor for argument #1 "
            f"'self' (while checking arguments for {name})"
        )


def _as1d(out: Any) -> Any:
    """Squeeze the height a 1d pool was run with (values and indices)."""
    if isinstance(out, tuple):
        return tuple(o.squeeze(-2) for o in out)
    return out.squeeze(-2)


def _max_pool(x: Tensor, nd: int, args: tuple[Any, ...]) -> Any:
    """args: (kernel_size, stride, padding, dilation, ceil_mode, return_indices)."""
    k = _tup(args[0], nd)
    s, p, d = _stride(args[1], k), _tup(args[2], nd), _tup(args[3], nd)
    out, idx = nn_pool.max_pool_with_indices(x, k, s, p, d, args[4], args[5])
    return (out, idx) if args[5] else out


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
    if input.ndim not in (2, 3):
        raise RuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
            f"for input, but got:{list(input.shape)}"
        )
    k = (1, _tup(kernel_size, 1)[0])
    s = k if stride is None else (1, _tup(stride, 1)[0])
    args = (k, s, (0, _tup(padding, 1)[0]), (1, _tup(dilation, 1)[0]), ceil_mode, return_indices)
    if not (input.requires_grad or return_indices):  # PyTorch's own 1d kernel checks first
        size = nn_pool.pool_out(input.shape[-1], k[1], s[1], args[2][1], args[3][1], ceil_mode)
        if size < 1:
            raise RuntimeError(f"max_pool1d() Invalid computed output size: {size}")
    return _as1d(_max_pool(input.unsqueeze(-2), 2, args))


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Max over each window; with `return_indices`, also where each max came from."""
    args = (kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    return _max_pool(input, 2, args)


def max_pool3d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """Max over each (depth, height, width) window."""
    args = (kernel_size, stride, padding, dilation, ceil_mode, return_indices)
    return _max_pool(input, 3, args)


def max_pool1d_with_indices(input: Tensor, *args: Any, **kw: Any) -> Any:
    return max_pool1d(input, *args, **{**kw, "return_indices": True})


def max_pool2d_with_indices(input: Tensor, *args: Any, **kw: Any) -> Any:
    return max_pool2d(input, *args, **{**kw, "return_indices": True})


def max_pool3d_with_indices(input: Tensor, *args: Any, **kw: Any) -> Any:
    return max_pool3d(input, *args, **{**kw, "return_indices": True})


def _avg_pool(x: Tensor, nd: int, args: tuple[Any, ...]) -> Tensor:
    """args: (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)."""
    k = _tup(args[0], nd)
    s, p = _stride(args[1], k), _tup(args[2], nd)
    return nn_pool.avg_pool(x, k, s, p, args[3], args[4], args[5])


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """Mean over windows along the last dimension."""
    _check_1d(input, "avg_pool1d")
    k = (1, _tup(kernel_size, 1)[0])
    s = k if stride is None else (1, _tup(stride, 1)[0])
    args = (k, s, (0, _tup(padding, 1)[0]), ceil_mode, count_include_pad, None)
    return _as1d(_avg_pool(input.unsqueeze(-2), 2, args))  # type: ignore[no-any-return]


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """Mean over each window."""
    args = (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _avg_pool(input, 2, args)


def avg_pool3d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """Mean over each (depth, height, width) window."""
    args = (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _avg_pool(input, 3, args)


def _out_size(x: Tensor, output_size: Any, nd: int) -> tuple[int, ...]:
    """The adaptive output size; None entries keep the input's size."""
    size = list(output_size) if isinstance(output_size, list | tuple) else [output_size] * nd
    return tuple(int(x.shape[-nd + i] if v is None else v) for i, v in enumerate(size))


def _adaptive_avg(x: Tensor, output_size: Any, nd: int) -> Tensor:
    size = _out_size(x, output_size, nd)
    if set(size) == {1} and x.ndim in (nd + 1, nd + 2):  # a mean, as PyTorch computes it
        # ATen reduces over (-1, -2, ...): the saved `dim` shows that order
        return x.mean(tuple(range(-1, -nd - 1, -1)), keepdim=True)
    return nn_pool_adaptive.adaptive_avg_pool(x, size)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """Average into `output_size` bins along the last dimension."""
    _check_1d(input, "adaptive_avg_pool1d")
    size = (1, _tup(output_size, 1)[0])
    return _as1d(_adaptive_avg(input.unsqueeze(-2), size, 2))  # type: ignore[no-any-return]


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Average into a fixed output size; (1, 1) is a mean, as PyTorch computes it."""
    return _adaptive_avg(input, output_size, 2)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """Average into a fixed (depth, height, width) output size."""
    return _adaptive_avg(input, output_size, 3)


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max over `output_size` adaptive bins along the last dimension."""
    _check_1d(input, "adaptive_max_pool1d")
    size = (1, _tup(output_size, 1)[0])
    out = _as1d(nn_pool_adaptive.adaptive_max_pool(input.unsqueeze(-2), size))
    return out if return_indices else out[0]


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max over adaptive bins; with `return_indices`, also where each max came from."""
    out = nn_pool_adaptive.adaptive_max_pool(input, _out_size(input, output_size, 2))
    return out if return_indices else out[0]


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """Max over adaptive (depth, height, width) bins."""
    out = nn_pool_adaptive.adaptive_max_pool(input, _out_size(input, output_size, 3))
    return out if return_indices else out[0]


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any) -> Any:
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any) -> Any:
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any) -> Any:
    return adaptive_max_pool3d(input, output_size, True)


def _unpool_size(
    x: Tensor, k: tuple[int, ...], s: tuple[int, ...], p: tuple[int, ...], size: Any
) -> Any:
    """PyTorch's `_unpool_output_size`: the default, or a checked requested size."""
    nd = len(k)
    default = [(x.shape[-nd + i] - 1) * s[i] + k[i] - 2 * p[i] for i in range(nd)]
    if size is None:
        return default
    if len(size) == nd + 2:
        size = size[2:]
    if len(size) != nd:
        raise ValueError(
            f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has "
            f"a length of '{len(size)}'"
        )
    for i in range(nd):
        lo, hi = default[i] - s[i], default[i] + s[i]
        if not lo < size[i] < hi:
            raise ValueError(
                f'invalid output_size "{size}" (dim {i} must be between {lo} and {hi})'
            )
    return size


def _unpool_args(x: Tensor, nd: int, args: tuple[Any, ...]) -> Any:
    """args: (kernel_size, stride, padding, output_size)."""
    k = _tup(args[0], nd)
    s, p = (k if args[1] is None else _tup(args[1], nd)), _tup(args[2], nd)
    return _unpool_size(x, k, s, p, args[3])


def max_unpool1d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Invert max_pool1d: each value back at its index, zeros elsewhere."""
    size = _unpool_args(input, 1, (kernel_size, stride, padding, output_size))
    x, i = input.unsqueeze(-1), indices.unsqueeze(-1)
    out = nn_pool_adaptive.max_unpool(x, i, (int(size[0]), 1))
    return out.squeeze(-1)


def max_unpool2d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Invert max_pool2d: each value back at its index, zeros elsewhere."""
    size = _unpool_args(input, 2, (kernel_size, stride, padding, output_size))
    return nn_pool_adaptive.max_unpool(input, indices, tuple(int(v) for v in size))


def max_unpool3d(
    input: Tensor,
    indices: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    output_size: Any = None,
) -> Tensor:
    """Invert max_pool3d: each value back at its index, zeros elsewhere."""
    size = _unpool_args(input, 3, (kernel_size, stride, padding, output_size))
    return nn_pool_adaptive.max_unpool(input, indices, tuple(int(v) for v in size))


def _lp_pool(x: Tensor, norm_type: float, k: Any, stride: Any, ceil_mode: bool, nd: int) -> Tensor:
    """(sum of x^p over each window)^(1/p), as PyTorch composes it from avg_pool."""
    from engine.nn.functional.activation import relu

    kt = _tup(k, nd)
    pool = (avg_pool1d, avg_pool2d, avg_pool3d)[nd - 1]
    out = pool(x.pow(norm_type), k, stride, 0, ceil_mode)
    mag = out.sign() * relu(out.abs())
    prod = 1
    for v in kt:
        prod *= v
    return mag.mul(prod).pow(1.0 / norm_type)


def lp_pool1d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Power-average pooling along the last dimension."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Power-average pooling over (height, width) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(
    input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
) -> Tensor:
    """Power-average pooling over (depth, height, width) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _fractional(x: Tensor, k: Any, size: Any, ratio: Any, samples: Any, nd: int) -> Any:
    from engine._random import rand

    name = f"fractional_max_pool{nd}d"
    if size is None and ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if size is None:
        if len(ratio) > nd:
            raise ValueError(
                f"{name} requires output_ratio to either be a single Int or tuple of Ints."
            )
        r = ratio if len(ratio) == nd else tuple(ratio) * nd
        size = [int(x.shape[-nd + i] * r[i]) for i in range(nd)]
    if samples is None:
        if x.ndim < nd + 1:  # PyTorch reads input.size(-nd - 1) here
            m = max(x.ndim, 1)
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-m}, {m - 1}], but got "
                f"{-nd - 1})"
            )
        batch = 1 if x.ndim == nd + 1 else x.shape[0]
        samples = rand(batch, x.shape[-nd - 1], nd, dtype=x.dtype)
    return nn_pool_adaptive.fractional_max_pool(x, _tup(k, nd), _tup(size, nd), samples)


def fractional_max_pool2d(
    input: Tensor,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """Max over windows placed pseudo-randomly to reach a given output size or ratio."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 2)
    return out if return_indices else out[0]


def fractional_max_pool3d(
    input: Tensor,
    kernel_size: Any,
    output_size: Any = None,
    output_ratio: Any = None,
    return_indices: bool = False,
    _random_samples: Any = None,
) -> Any:
    """3d fractional max pooling."""
    out = _fractional(input, kernel_size, output_size, output_ratio, _random_samples, 3)
    return out if return_indices else out[0]


def fractional_max_pool2d_with_indices(input: Tensor, *args: Any, **kw: Any) -> Any:
    return fractional_max_pool2d(input, *args, **{**kw, "return_indices": True})


def fractional_max_pool3d_with_indices(input: Tensor, *args: Any, **kw: Any) -> Any:
    return fractional_max_pool3d(input, *args, **{**kw, "return_indices": True})
