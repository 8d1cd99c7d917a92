"""Tensor factories: `zeros`, `ones`, `full`, `empty` and their `_like`s, `arange`, `linspace`,
`eye`, and the legacy constructors (`torch.FloatTensor`); a tensor from data (`tensor`,
`as_tensor`, `from_numpy`) is made in engine/_from_data.py."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, _layout
from engine._from_data import _finish, _np_dtype, _unwrap
from engine._from_data import as_tensor as as_tensor
from engine._from_data import from_numpy as from_numpy
from engine._from_data import tensor as tensor
from engine._tensor import Tensor, init, writing
from engine._warn import warn


def _size(size: tuple[Any, ...], op: str = "") -> tuple[int, ...]:
    """The requested shape, refused with PyTorch's message when a size is negative."""
    if len(size) == 1 and isinstance(size[0], list | tuple):
        size = tuple(size[0])
    out = tuple(int(s) for s in size)
    bad = next((s for s in out if s < 0), None)
    if bad is not None:
        if op == "zeros":  # torch.zeros checks first, with a message of its own
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {list(out)}")
    return out


def _filled(
    fill: Any,
    size: tuple[Any, ...],
    dtype: Any,
    requires_grad: bool,
    device: Any,
    default: _dtype.dtype | None = None,
    op: str = "",
) -> Tensor:
    np_dt = _np_dtype(dtype, default)
    shape = _size(size, op)
    _dtype.check_scalar_fits(fill, np_dt)
    return _finish(np.full(shape, fill, dtype=np_dt), requires_grad, device)


def out_dtype(dtype: Any, out: Tensor | None) -> Any:
    """A factory's dtype under `out=`: out's own; asking for another is PyTorch's error."""
    if out is None:
        return dtype
    if dtype is not None and np.dtype(_np_dtype(dtype)) != out._d.dtype:
        asked, has = np.dtype(_np_dtype(dtype)).name, out._d.dtype.name
        raise RuntimeError(
            f"dtype {_dtype.scalar_type_name(asked)} does not match dtype of out parameter "
            f"({_dtype.scalar_type_name(has)})"
        )
    return out.dtype


def into(out: Tensor | None, t: Tensor, resize_warns: bool = False) -> Tensor:
    """`out=` of a factory: ATen resizes `out` to the result silently and writes it (arange
    keeps out's shape when the element count agrees, and warns when it does not)."""
    if out is None:
        return t
    same = out._d.shape == t._d.shape or (resize_warns and out._d.size == t._d.size)
    if resize_warns and not same and out._d.size:
        warn(
            f"The number of elements in the out tensor of shape {list(out._d.shape)} is "
            f"{out._d.size} which does not match the computed number of elements {t._d.size}. "
            "Note that this may occur as a result of rounding error. The out tensor will be "
            f"resized to a tensor of shape ({t._d.size},). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)"
        )
    with writing(out):
        if same:
            np.copyto(out._d, t._d.reshape(out._d.shape), casting="unsafe")
        else:  # resized: the new memory
            out._d = t._d.astype(out._d.dtype)
    if t.requires_grad:
        out.requires_grad_(True)
    return out


NO_SIZE: Any = object()  # `size=` not given
_RAND_SIGS = "".join(
    f" * (tuple of ints size, *,{g} Tensor out = None, torch.dtype dtype = None, torch.layout "
    "layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = "
    "False)\n"
    for g in (" torch.Generator generator,", "")
)


def sized(name: str, size: tuple[Any, ...], kw: Any) -> tuple[Any, ...]:
    """A factory's sizes, given as arguments or as `size=` (PyTorch's TypeErrors for both or
    neither: rand and randn list their overloads)."""
    if (kw is NO_SIZE) == bool(size):
        return size if kw is NO_SIZE else (kw,)
    if name in ("rand", "randn"):
        got = [type(s).__name__ for s in size] + (
            [] if kw is NO_SIZE else ["size=" + type(kw).__name__]
        )
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got ({', '.join(got)}), "
            f"but expected one of:\n{_RAND_SIGS}"
        )
    if size:
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    raise TypeError(f'{name}() missing 1 required positional arguments: "size"')


def zeros(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
    layout: Any = None,
) -> Tensor:
    size = sized("zeros", sizes, size)
    dtype = out_dtype(dtype, out)
    return into(out, _filled(0, size, dtype, requires_grad, device, op="zeros"))


def ones(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
    layout: Any = None,
) -> Tensor:
    size = sized("ones", sizes, size)
    dtype = out_dtype(dtype, out)
    return into(out, _filled(1, size, dtype, requires_grad, device))


def empty(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
    layout: Any = None,
    out: Any = None,
) -> Tensor:
    size = sized("empty", sizes, size)
    dtype = out_dtype(dtype, out)
    t = _in_format(_filled(0, size, dtype, requires_grad, device), memory_format)
    if isinstance(out, Tensor) and out._d.shape == t._d.shape:
        return out  # empty's values are whatever was there
    return into(out, t)


def empty_strided(
    size: Any,
    stride: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    layout: Any = None,
    pin_memory: bool = False,
) -> Tensor:
    """`torch.empty_strided`: a tensor of `size` laid out with `stride` (in elements) over
    the smallest storage that holds it."""
    shape, steps = _size((size,)), tuple(int(s) for s in stride)
    if len(shape) != len(steps):
        raise RuntimeError(
            f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
            f"({len(steps)})"
        )
    np_dt = np.dtype(_np_dtype(dtype))
    extent = 1 + sum((n - 1) * s for n, s in zip(shape, steps, strict=True)) if all(shape) else 0
    storage = np.zeros(extent, np_dt)
    data = np.lib.stride_tricks.as_strided(
        storage, shape, tuple(s * np_dt.itemsize for s in steps), writeable=True
    )
    return _finish(data, requires_grad, device)


def full(
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    dtype = out_dtype(dtype, out)
    default = _dtype.scalar_dtype(fill_value) if dtype is None else None
    return into(out, _filled(fill_value, (size,), dtype, requires_grad, device, default))


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
    out: Any = None,
) -> Tensor:
    dtype = out_dtype(dtype, out)
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    is_float = any(isinstance(v, float) for v in vals)
    default = _dtype.get_default_dtype() if is_float else _dtype.int64
    npdt = _np_dtype(dtype, default)
    _dtype.refuse_barely(np.dtype(npdt), "arange_cpu")
    data = _stepped(vals, npdt, lambda span: max(0, int(np.ceil(span))))
    return into(out, _finish(data, requires_grad, device), resize_warns=True)


def _stepped(vals: list[Any], npdt: Any, count: Any) -> np.ndarray[Any, Any]:
    """start, start + step, ... for [start, end, step], `count(span / step)` values of them."""
    if vals[2] == 0:
        raise RuntimeError("step must be nonzero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n: int = count((vals[1] - vals[0]) / vals[2])
    values: np.ndarray[Any, Any] = vals[0] + np.arange(n, dtype=np.float64) * vals[2]
    return values.astype(npdt)


def deprecated_range(
    start: Any,
    end: Any,
    step: Any = 1,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    """`torch.range` (deprecated, with PyTorch's warning): `end` included, floats by default."""
    warn(_RANGE_DEPRECATED)
    dtype = out_dtype(dtype, out)
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    npdt = _np_dtype(dtype, _dtype.get_default_dtype())
    data = _stepped(vals, npdt, lambda span: int(np.floor(span)) + 1)  # the end included
    return into(out, _finish(data, requires_grad, device), resize_warns=True)


_RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
    "values in [start, end)."
)


def linspace(
    start: Any,
    end: Any,
    steps: int,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    dtype = out_dtype(dtype, out)
    data = _linspace(start, end, int(steps), _np_dtype(dtype))
    return into(out, _finish(data, requires_grad, device))


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


def set_default_tensor_type(t: Any) -> None:
    """`torch.set_default_tensor_type` (deprecated, warned once): a legacy type or its name
    (`torch.DoubleTensor`, "torch.FloatTensor") sets the default floating dtype."""
    from engine._warn import warn_once

    warn_once(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives. (Triggered "
        "internally at /__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)"
    )
    name = t if isinstance(t, str) else f"torch.{getattr(t, '__name__', t)}"
    legacy = globals().get(name.removeprefix("torch."))
    if not name.startswith("torch.") or not isinstance(legacy, _LegacyType):
        if name.startswith("torch.cuda."):
            raise TypeError(f"type {name} not available. Torch not compiled with CUDA enabled.")
        raise TypeError(f"invalid type: '{name}'")
    if not legacy.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_dtype(legacy.dtype)
