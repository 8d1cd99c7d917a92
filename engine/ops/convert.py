"""Conversions: `to`, `float()`/`double()`/..., `type`, `type_as`, `view(dtype)`, `cpu`/`cuda`
and the `new_*` factories. A conversion that changes nothing returns `self`, as PyTorch does."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _device, _dtype, _layout
from engine._tensor import Tensor, make
from engine._warn import warn
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.shape import as_view
from engine.ops.table import Op

_LEGACY = {
    "torch.FloatTensor": _dtype.float32,
    "torch.DoubleTensor": _dtype.float64,
    "torch.HalfTensor": _dtype.float16,
    "torch.BFloat16Tensor": _dtype.bfloat16,
    "torch.LongTensor": _dtype.int64,
    "torch.IntTensor": _dtype.int32,
    "torch.ShortTensor": _dtype.int16,
    "torch.CharTensor": _dtype.int8,
    "torch.ByteTensor": _dtype.uint8,
    "torch.UInt16Tensor": _dtype.uint16,
    "torch.UInt32Tensor": _dtype.uint32,
    "torch.UInt64Tensor": _dtype.uint64,
    "torch.BoolTensor": _dtype.bool_,
    "torch.ComplexFloatTensor": _dtype.complex64,
    "torch.ComplexDoubleTensor": _dtype.complex128,
}
_NAMES = {d.name: n for n, d in _LEGACY.items()}


_NO_CUDA_LIB = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library."
)
_COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "tensor.new_tensor(sourceTensor)."
)


def _as_dtype(d: Any) -> _dtype.dtype:
    if isinstance(d, _dtype.dtype):
        return d
    if d is builtins.float:
        return _dtype.float64
    if d is builtins.int:
        return _dtype.int64
    if d is builtins.bool:
        return _dtype.bool_
    return _dtype.from_numpy(d)


_DISCARD_IMAG = (
    "Casting complex values to real discards the imaginary part (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)"
)


def _convert(self: Tensor, dt: _dtype.dtype | None, copy: builtins.bool, fmt: Any = None) -> Tensor:
    """The one conversion path: self when nothing changes, else ToCopyBackward0 (a new memory
    format is a change; the default keeps self's order of strides)."""
    if fmt is not None and fmt is not _layout.preserve_format:
        _layout.check_rank(fmt, self._d.ndim)
        if _layout.is_in(self._d, fmt):
            fmt = None
    if dt is None or dt.np == self._d.dtype:
        if not copy and (fmt is None or fmt is _layout.preserve_format):
            return self
        dt = self.dtype
    if _dtype.kind(self._d.dtype) == "c" and not dt.is_complex:
        if dt.is_floating_point:  # PyTorch warns only for floating targets
            warn(_DISCARD_IMAG, UserWarning)
        data = self._d.real.astype(dt.np)
    else:
        data = self._d.astype(dt.np)
    if fmt is not None and fmt is not _layout.preserve_format:
        data = _layout.laid_out(data, fmt)
    if not (dt.is_floating_point or dt.is_complex):
        return make(data, False, None, 0)
    keep = {"self_dtype": self.dtype}
    return record(ToCopyBackward0, data, (self,), shapes=(self._d.shape,), keep=keep)


class ToCopyBackward0(OpNode):
    __slots__ = ("self_dtype",)
    _name = "ToCopyBackward0"
    self_dtype: _dtype.dtype  # not a PyTorch saved value: kept off `_saved`

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        if _dtype.kind(g._d.dtype) == "c" and not self.self_dtype.is_complex:
            from engine.ops.complex_grad import real_grad

            g = real_grad(g)  # a real input takes the real part (PyTorch's _to_copy_backward)
        return [_convert(g, self.self_dtype, False)]


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """`to(dtype)`, `to(device)`, `to(device, dtype)`, `to(other)`; `copy=True` forces a copy."""
    copy = builtins.bool(kwargs.pop("copy", False))
    kwargs.pop("non_blocking", None)
    fmt = kwargs.pop("memory_format", None)
    dt: _dtype.dtype | None = None
    dev = kwargs.pop("device", None)
    if "dtype" in kwargs:
        dt = _as_dtype(kwargs.pop("dtype"))
    flags = [a for a in args if isinstance(a, builtins.bool)]
    if len(flags) > 1:  # to(dtype, non_blocking, copy)
        copy = flags[1]
    for a in args:
        if isinstance(a, Tensor):
            dt = a.dtype
        elif isinstance(a, _dtype.dtype) or a in (builtins.float, builtins.int, builtins.bool):
            dt = _as_dtype(a)
        elif isinstance(a, str | _device.device):
            dev = a
    _device.check(dev)
    return _convert(self, dt, copy, fmt)


def _caster(dt: _dtype.dtype) -> Callable[..., Tensor]:
    def cast(self: Tensor, memory_format: Any = None) -> Tensor:
        return _convert(self, dt, False)

    return cast


float = _caster(_dtype.float32)
double = _caster(_dtype.float64)
half = _caster(_dtype.float16)
bfloat16 = _caster(_dtype.bfloat16)
long = _caster(_dtype.int64)
int = _caster(_dtype.int32)
short = _caster(_dtype.int16)
char = _caster(_dtype.int8)
byte = _caster(_dtype.uint8)
bool = _caster(_dtype.bool_)


def type(self: Tensor, dtype: Any = None, non_blocking: Any = False, **kwargs: Any) -> Any:
    """With no argument the legacy type name (`'torch.FloatTensor'`), else a conversion."""
    if dtype is None:
        return _NAMES[self.dtype.name]
    if hasattr(dtype, "_np") and hasattr(dtype, "__name__"):  # x.type(torch.IntTensor)
        dtype = f"torch.{dtype.__name__}"
    if isinstance(dtype, str):
        if dtype not in _LEGACY:
            if dtype.startswith("torch.cuda."):
                raise RuntimeError(_NO_CUDA_LIB)
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = _LEGACY[dtype]
    return _convert(self, _as_dtype(dtype), False)


def type_as(self: Tensor, other: Tensor) -> Tensor:
    return _convert(self, other.dtype, False)


def cpu(self: Tensor, memory_format: Any = None) -> Tensor:
    return self


def cuda(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    raise AssertionError("Torch not compiled with CUDA enabled")


def view_dtype(self: Tensor, dtype: Any) -> Tensor:
    """Reinterpret the bytes as another dtype (not differentiable)."""
    dt = _as_dtype(dtype)
    src, dst = self._d.itemsize, dt.itemsize
    if src != dst and self._d.ndim and self._d.shape[-1] * src % dst:
        raise RuntimeError(
            f"self.size(-1) must be divisible by {dst // src if dst > src else 1} to view "
            f"{_NAMES[self.dtype.name][6:-6]} as {_NAMES[dt.name][6:-6]} (different element "
            f"sizes), but got {self._d.shape[-1]}"
        )
    data = self._d.view(dt.np)
    out = make(data, False, None, 0)
    return as_view(out, self, lambda a: a.view(dt.np))


# -- new_* factories: same dtype (and device) as self unless given ---------------------
def _new(self: Tensor, data: np.ndarray[Any, Any], dtype: Any, requires_grad: Any) -> Tensor:
    from engine._from_data import _finish

    dt = self._d.dtype if dtype is None else _as_dtype(dtype).np
    return _finish(data.astype(dt, copy=False), requires_grad)


def _size(size: tuple[Any, ...]) -> tuple[Any, ...]:  # `int` is the Tensor.int caster here
    from engine._creation import _size as checked  # PyTorch's message for a negative size

    return checked(size)


def new_zeros(
    self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: Any = False
) -> Tensor:
    _device.check(device)
    return _new(self, np.zeros(_size(size)), dtype, requires_grad)


def new_ones(
    self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: Any = False
) -> Tensor:
    _device.check(device)
    return _new(self, np.ones(_size(size)), dtype, requires_grad)


def new_empty(
    self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: Any = False
) -> Tensor:
    _device.check(device)
    return _new(self, np.zeros(_size(size)), dtype, requires_grad)


def new_full(
    self: Tensor,
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: Any = False,
) -> Tensor:
    _device.check(device)
    return _new(self, np.full(_size((size,)), fill_value), dtype, requires_grad)


def new_tensor(
    self: Tensor, data: Any, *, dtype: Any = None, device: Any = None, requires_grad: Any = False
) -> Tensor:
    _device.check(device)
    from engine._from_data import _unwrap

    if isinstance(data, Tensor):
        warn(_COPY_CONSTRUCT, UserWarning)
    return _new(self, np.array(_unwrap(data)), dtype, requires_grad)


OPS = [
    Op("to", to, function=False),
    Op("float", float, function=False),
    Op("double", double, function=False),
    Op("half", half, function=False),
    Op("bfloat16", bfloat16, function=False),
    Op("long", long, function=False),
    Op("int", int, function=False),
    Op("short", short, function=False),
    Op("char", char, function=False),
    Op("byte", byte, function=False),
    Op("bool", bool, function=False),
    Op("type", type, function=False),
    Op("type_as", type_as, function=False),
    Op("cpu", cpu, function=False),
    Op("cuda", cuda, function=False),
    Op("new_zeros", new_zeros, function=False),
    Op("new_ones", new_ones, function=False),
    Op("new_empty", new_empty, function=False),
    Op("new_full", new_full, function=False),
    Op("new_tensor", new_tensor, function=False),
]
