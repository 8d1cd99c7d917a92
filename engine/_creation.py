"""Tensor factories: `tensor`, `zeros`, `arange`, random numbers, ..."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _device, _dtype, _layout
from engine._tensor import Tensor, init
from engine._warn import warn


def _finish(data: np.ndarray[Any, Any], requires_grad: bool, device: Any = None) -> Tensor:
    _device.check(device)
    t: Tensor = object.__new__(Tensor)
    init(t, data)
    if requires_grad:
        if _dtype.kind(data.dtype) not in "fc":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t.requires_grad = True
    return t


def _np_dtype(dtype: Any, default: _dtype.dtype | None = None) -> Any:
    if dtype is None:
        return (default or _dtype.get_default_dtype()).np
    if isinstance(dtype, _dtype.dtype):
        return dtype.np
    if dtype is float:
        return _dtype.float64.np
    if dtype is int:
        return _dtype.int64.np
    if dtype is bool:
        return _dtype.bool_.np
    return np.dtype(dtype)


def _infer_error(data: Any) -> Exception:
    """PyTorch's error for data it cannot make a tensor of (strings, None, dicts)."""
    leaves = _leaves(data)
    if isinstance(data, list | tuple) and data and isinstance(data[0], str):
        return ValueError("too many dimensions 'str'")
    if any(isinstance(x, str) for x in leaves):
        return TypeError("new(): invalid data type 'str'")
    bad = next((x for x in leaves if not isinstance(x, bool | int | float)), data)
    return RuntimeError(f"Could not infer dtype of {type(bad).__name__}")


def _leaves(data: Any) -> list[Any]:
    if isinstance(data, list | tuple):
        return [y for x in data for y in _leaves(x)]
    return [data]


def _infer_array(data: Any) -> np.ndarray[Any, Any]:
    if isinstance(data, Tensor):
        return data._d.copy()
    if isinstance(data, np.ndarray | np.generic):
        return np.array(data)  # a NumPy scalar keeps its dtype, as in PyTorch
    if isinstance(data, list | tuple) and data and isinstance(data[0], np.generic):
        return _infer_numpy_scalars(data)
    if isinstance(data, list | tuple) and any(isinstance(x, Tensor) for x in data):
        parts = [_infer_array(x) for x in data]
        return np.array(parts)
    try:
        arr = np.array(data)
    except ValueError:
        raise _ragged_error(data) from None
    if _dtype.kind(arr.dtype) == "f":
        arr = arr.astype(_dtype.get_default_dtype().np)
    elif (
        _dtype.kind(arr.dtype) == "c"
    ):  # Python complex numbers: complex64 (or complex128 by default)
        arr = arr.astype(_dtype.default_complex().np)
    elif _dtype.kind(arr.dtype) == "u":  # Python ints only come out unsigned past int64's range
        raise ValueError(_LONG_OVERFLOW)
    elif _dtype.kind(arr.dtype) == "i":
        arr = arr.astype(np.int64)
    elif _dtype.kind(arr.dtype) == "O" and any(_past_int64(x) for x in _leaves(data)):
        raise ValueError(_LONG_OVERFLOW)
    elif _dtype.kind(arr.dtype) == "O" or _dtype.kind(arr.dtype) in "US":
        raise _infer_error(data)
    return arr


# PyTorch reads every Python int as a C long long first
_LONG_OVERFLOW = "Overflow when unpacking long long"


def _past_int64(x: Any) -> bool:
    return isinstance(x, int) and not -(2**63) <= x < 2**63


def _overflow(data: Any, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """`data` (Python numbers) as `dtype` where NumPy refused a value: PyTorch's errors, and
    its uint8, which takes any negative int modulo 256."""
    ints = [x for x in _leaves(_unwrap(data)) if isinstance(x, int)]
    if dtype == np.uint64:  # Python's own conversion to an unsigned 64-bit int refuses
        if any(x < 0 for x in ints):
            raise OverflowError("can't convert negative int to unsigned")
        raise OverflowError("int too big to convert")
    if any(_past_int64(x) for x in ints):
        raise ValueError(_LONG_OVERFLOW)
    if dtype.kind == "u" and all(
        -int(np.iinfo(dtype).max) <= x <= np.iinfo(dtype).max for x in ints
    ):
        # c10's checked_convert lets a negative int through when its magnitude fits: it wraps
        return np.array(_unwrap(data), dtype=np.int64).astype(dtype)
    raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


def _infer_numpy_scalars(data: list[Any] | tuple[Any, ...]) -> np.ndarray[Any, Any]:
    """A flat list starting with NumPy scalars: their dtypes count, Python numbers take the
    defaults (float32 / int64), promoted as PyTorch promotes."""
    kinds = []
    for x in data:
        if isinstance(x, np.generic):
            kinds.append(x.dtype)
        elif isinstance(x, bool):
            kinds.append(np.dtype(np.bool_))
        elif isinstance(x, int):
            kinds.append(np.dtype(np.int64))
        elif isinstance(x, float):
            kinds.append(_dtype.get_default_dtype().np)
        else:
            return np.array(data)
    return np.array(
        [x.item() if isinstance(x, np.generic) else x for x in data], np.result_type(*kinds)
    )


def _ragged_error(data: Any) -> Exception:
    """PyTorch's error for nested lists of uneven lengths (sizes follow the first elements)."""
    sizes: list[int] = []
    seq = data
    while isinstance(seq, list | tuple):
        sizes.append(len(seq))
        if not seq:
            break
        seq = seq[0]
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        obj, dim = stack.pop()
        if dim == len(sizes):
            if isinstance(obj, list | tuple):
                return TypeError(
                    f"'{type(obj).__name__}' object cannot be interpreted as an integer"
                )
            continue
        if not isinstance(obj, list | tuple):
            return TypeError("not a sequence")
        if len(obj) != sizes[dim]:
            return ValueError(
                f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})"
            )
        stack.extend((o, dim + 1) for o in reversed(obj))
    return ValueError("could not build a tensor from ragged nested sequences")


def tensor(
    data: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A new tensor holding a copy of `data`.

    >>> torch.tensor([1., 2.], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    """
    if isinstance(data, Tensor):
        warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
            "rather than torch.tensor(sourceTensor).",
            UserWarning,
        )
    if dtype is not None and not isinstance(data, Tensor | np.ndarray):
        # convert once: going through the default float32 first would lose float64 digits
        try:
            arr = np.array(_unwrap(data), dtype=_np_dtype(dtype))
        except ValueError:
            raise _ragged_error(data) from None
        except OverflowError:
            arr = _overflow(data, np.dtype(_np_dtype(dtype)))
        except TypeError:
            if not any(isinstance(x, complex) for x in _leaves(data)):
                raise
            # a complex number into a real dtype: PyTorch's messages (bool takes it)
            if _dtype.kind(np.dtype(_np_dtype(dtype))) == "f":
                raise TypeError("must be real number, not complex") from None
            raise TypeError("'complex' object cannot be interpreted as an integer") from None
    else:
        arr = _infer_array(data)
        if dtype is not None:
            arr = arr.astype(_np_dtype(dtype))
    # np.ascontiguousarray would turn a 0-dim array into shape (1,)
    return _finish(np.asarray(arr, order="C"), requires_grad, device)


def _unwrap(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data._d
    if isinstance(data, list | tuple):
        return [_unwrap(x) for x in data]
    return data


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype):
        return data
    if isinstance(data, np.ndarray) and dtype is None:
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(arr: np.ndarray[Any, Any]) -> Tensor:
    """A tensor sharing memory with `arr`."""
    _dtype.from_numpy(arr.dtype)
    return _finish(arr, False)


def _size(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], list | tuple):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _filled(
    fill: Any,
    size: tuple[Any, ...],
    dtype: Any,
    requires_grad: bool,
    device: Any,
    default: _dtype.dtype | None = None,
) -> Tensor:
    np_dt = _np_dtype(dtype, default)
    _dtype.check_scalar_fits(fill, np_dt)
    return _finish(np.full(_size(size), fill, dtype=np_dt), requires_grad, device)


def zeros(
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
    layout: Any = None,
) -> Tensor:
    return _filled(0, size, dtype, requires_grad, device)


def ones(
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
    layout: Any = None,
) -> Tensor:
    return _filled(1, size, dtype, requires_grad, device)


def empty(
    *size: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
    layout: Any = None,
) -> Tensor:
    return _in_format(_filled(0, size, dtype, requires_grad, device), memory_format)


def full(
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    default = _dtype.scalar_dtype(fill_value) if dtype is None else None
    return _filled(fill_value, (size,), dtype, requires_grad, device, default)


def _in_format(t: Tensor, fmt: Any) -> Tensor:
    """A new tensor laid out in `fmt` (its values are the same, only its strides move)."""
    if fmt is not None and fmt is not _layout.preserve_format:
        _layout.check_rank(fmt, t._d.ndim)
        if not _layout.is_in(t._d, fmt):
            t._d = _layout.laid_out(t._d, fmt)
    return t


def _like_format(like: Tensor, t: Tensor, fmt: Any) -> Tensor:
    """`*_like`'s default `preserve_format`: the new tensor takes `like`'s strides."""
    if fmt is None or fmt is _layout.preserve_format:
        if not like._d.flags.c_contiguous:
            data = np.empty_like(like._d, dtype=t._d.dtype)  # order "K": like's strides
            np.copyto(data, t._d)
            t._d = data
        return t
    return _in_format(t, fmt)


def _like(t: Tensor, dtype: Any) -> Any:
    return t.dtype if dtype is None else dtype


def zeros_like(
    t: Tensor,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    return _like_format(
        t, _filled(0, (t.shape,), _like(t, dtype), requires_grad, device), memory_format
    )


def ones_like(
    t: Tensor,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    return _like_format(
        t, _filled(1, (t.shape,), _like(t, dtype), requires_grad, device), memory_format
    )


def empty_like(
    t: Tensor,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    return _like_format(
        t, _filled(0, (t.shape,), _like(t, dtype), requires_grad, device), memory_format
    )


def full_like(
    t: Tensor,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    out = _filled(fill_value, (t.shape,), _like(t, dtype), requires_grad, device)
    return _like_format(t, out, memory_format)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    is_float = any(isinstance(v, float) for v in vals)
    default = _dtype.get_default_dtype() if is_float else _dtype.int64
    npdt = _np_dtype(dtype, default)
    _dtype.refuse_barely(np.dtype(npdt), "arange_cpu")
    if vals[2] == 0:
        raise RuntimeError("step must be nonzero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = max(0, int(np.ceil((vals[1] - vals[0]) / vals[2])))
    data = (vals[0] + np.arange(n, dtype=np.float64) * vals[2]).astype(npdt)
    return _finish(data, requires_grad, device)


def linspace(
    start: Any,
    end: Any,
    steps: int,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _finish(_linspace(start, end, int(steps), _np_dtype(dtype)), requires_grad, device)


def _linspace(start: Any, end: Any, steps: int, dt: Any) -> np.ndarray[Any, Any]:
    """PyTorch's kernel: computed in the output's float type, the first half counted up from
    `start` and the second half down from `end` (so -10..10 in 7 steps gives 2.3842e-07)."""
    ct = np.dtype(dt).type if _dtype.kind(np.dtype(dt)) == "f" else np.float64
    if steps <= 1:
        return np.full(steps, start, dtype=ct).astype(dt)
    s, e = ct(float(start)), ct(float(end))
    step = (e - s) / ct(steps - 1)
    idx = np.arange(steps)
    # the kernel's multiply-add is fused: one rounding, emulated in float64 for float32
    wide = np.float64 if ct is np.float32 else ct
    low = wide(s) + wide(step) * idx.astype(wide)
    high = wide(e) - wide(step) * (steps - idx - 1).astype(wide)
    return np.where(idx < steps // 2, low, high).astype(dt)


def logspace(
    start: Any,
    end: Any,
    steps: int,
    base: float = 10.0,
    *,
    dtype: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    data = np.logspace(float(start), float(end), int(steps), base=base).astype(_np_dtype(dtype))
    return _finish(data, requires_grad)


def eye(
    n: int,
    m: int | None = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _finish(np.eye(n, m, dtype=_np_dtype(dtype)), requires_grad, device)


class _LegacyType:
    """`torch.FloatTensor` & co: legacy constructors that also answer `isinstance` by dtype.

    Not classes: `isinstance(x, torch.FloatTensor)` asks `type(FloatTensor).__instancecheck__`,
    so a plain object with that method gives PyTorch's answer (True for any float32 tensor)
    without a metaclass.
    """

    def __init__(self, name: str, np_type: Any) -> None:
        self.__name__ = self.__qualname__ = name
        self.__module__ = "torch"
        self._np = np_type

    def __call__(self, *args: Any) -> Tensor:
        t: Tensor = object.__new__(Tensor)
        if len(args) == 1 and not isinstance(args[0], int):
            data = np.array(_unwrap(args[0]), dtype=self._np)
        else:
            data = np.zeros(tuple(int(a) for a in args) or (0,), dtype=self._np)
        init(t, data)
        return t

    def __instancecheck__(self, obj: object) -> bool:
        return isinstance(obj, Tensor) and obj._d.dtype == self._np

    def __repr__(self) -> str:
        return f"<class '{self.__module__}.{self.__name__}'>"

    @property
    def dtype(self) -> Any:
        from engine import _dtype

        return _dtype.from_numpy(np.dtype(self._np))


FloatTensor = _LegacyType("FloatTensor", np.float32)
DoubleTensor = _LegacyType("DoubleTensor", np.float64)
LongTensor = _LegacyType("LongTensor", np.int64)
IntTensor = _LegacyType("IntTensor", np.int32)
BoolTensor = _LegacyType("BoolTensor", np.bool_)
ByteTensor = _LegacyType("ByteTensor", np.uint8)
CharTensor = _LegacyType("CharTensor", np.int8)
ShortTensor = _LegacyType("ShortTensor", np.int16)
HalfTensor = _LegacyType("HalfTensor", np.float16)
BFloat16Tensor = _LegacyType("BFloat16Tensor", _dtype.bfloat16.np)
