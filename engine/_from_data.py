"""A tensor from Python data: `torch.tensor`, `as_tensor`, `from_numpy`, with PyTorch's dtype
inference (nested lists, NumPy scalars, int64 overflow) and its refusals of ragged or mixed data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _device, _dtype
from engine._tensor import TO_SCALAR, Tensor, init
from engine._warn import warn, warn_once
from engine.autograd.grad_mode import STATE


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


def _element(x: Tensor) -> np.ndarray[Any, Any]:
    """A tensor inside a list: read as PyTorch reads it, as one Python number (warning, once,
    when it is a float that requires grad, as `float(x)` does)."""
    if x._d.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    if x._rg and STATE.enabled and _dtype.kind(x._d.dtype) in "fc":
        warn_once(TO_SCALAR)
    return x._d.reshape(())


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
        parts = [_element(x) if isinstance(x, Tensor) else _infer_array(x) for x in data]
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


_NOT_WRITABLE = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
    "means you can write to the underlying (supposedly non-writable) buffer using the tensor. "
    "You may want to copy the buffer to protect its data or make it writable before converting "
    "it to a tensor. This type of warning will be suppressed for the rest of this program. "
    "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1556.)"
)


def frombuffer(
    buffer: Any, *, dtype: Any, count: int = -1, offset: int = 0, requires_grad: bool = False
) -> Tensor:
    """`torch.frombuffer`: a 1-D tensor sharing an object's buffer (`bytearray`, `array`, ...);
    writes through the tensor change the buffer."""
    from engine._warn import warn_once

    np_dt = np.dtype(_np_dtype(dtype))
    view = memoryview(buffer)
    length, size = view.nbytes, np_dt.itemsize
    if length <= 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({length} bytes) minus 1"
        )
    if count < 0 and (length - offset) % size:
        raise ValueError(
            f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
            f"multiple of element size ({size})"
        )
    if count > 0 and count * size > length - offset:
        raise ValueError(
            f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) must "
            f"not be greater than actual buffer length ({length} bytes)"
        )
    if view.readonly:
        warn_once(_NOT_WRITABLE)
    data = np.frombuffer(view.cast("B"), np_dt, count, offset)
    if view.readonly:  # PyTorch hands out a writable tensor over it anyway
        data = data.copy()
    return _finish(data, requires_grad)
