"""Tensor methods with no op of their own: truth value (`is_nonzero`), membership,
reversal, device and dtype facts, `x.where(c, y)`'s argument order and `apply_(callable)`;
plus the in-place `tril_`/`triu_` bindings of tensor_shape's ops."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, write
from engine.ops import pointwise as pw
from engine.ops._core import as_tensor
from engine.ops.table import Op
from engine.ops.tensor_shape import tril, triu


def is_nonzero(self: Tensor) -> bool:
    n = self._d.size
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self._d.reshape(()))


def __contains__(self: Tensor, element: Any) -> bool:
    if not isinstance(element, Tensor | int | float | bool):
        raise RuntimeError(
            "Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
            f"{type(element)}."
        )
    return bool(np.any(self._d == as_tensor(element)._d))


def __reversed__(self: Tensor) -> Any:
    from engine.ops.tensor_shape import flip

    if self._d.ndim == 0:
        return self
    return flip(self, [0])


def get_device(self: Tensor) -> int:
    return -1


def is_signed(self: Tensor) -> bool:
    return bool(self.dtype.is_signed)


itemsize = property(lambda self: self._d.itemsize)
nbytes = property(lambda self: self._d.nbytes)


def where(self: Tensor, condition: Any, y: Any) -> Tensor:
    """`x.where(condition, y)`: the Tensor method puts `self` second (torch.where(c, x, y))."""
    out: Tensor = pw.where(condition, self, y)
    return out


def apply_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Replace each element by `callable(element)` (a Python number), in the tensor's logical
    order, as PyTorch's CPU-only `apply_` does: refused on a tensor that requires grad, and
    (like PyTorch, which writes through the raw pointer) the version counter does not move."""
    if kwargs:
        raise TypeError("TensorBase.apply_() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"TensorBase.apply_() takes exactly one argument ({len(args)} given)")
    fn = args[0]
    if self._rg:
        raise RuntimeError(
            "Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead."
        )
    d = self._d
    store = _STORE[_dtype.kind(d.dtype)]
    values = [store(fn(v)) for v in d.reshape(-1).tolist()]
    # (the observer is still told: the values shown are the ones written, at the same version)
    new = np.asarray(values, dtype=object).reshape(d.shape).astype(d.dtype) if values else d
    write(self, new, counted=False)
    return self


def _store_int(v: Any) -> int:
    """ATen's store into an integer tensor: ints (and bools, floats truncated), else the
    error of `operator.index`."""
    if isinstance(v, float):
        v = int(v)
    if not isinstance(v, int):
        raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer")
    if not -(2**63) <= v < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return int(v)


def _store_float(v: Any) -> float:
    if not isinstance(v, int | float):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(v)


def _store_complex(v: Any) -> complex:
    if not isinstance(v, int | float | complex):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return complex(v)


_STORE: dict[str, Any] = {
    "b": bool,
    "i": _store_int,
    "u": _store_int,
    "f": _store_float,
    "c": _store_complex,
}


def is_same_size(self: Tensor, other: Tensor) -> bool:
    return bool(self._d.shape == other._d.shape)


def share_memory_(self: Tensor) -> Tensor:
    """A no-op here: one process's tensors (PyTorch moves the storage to shared memory)."""
    return self


def to_dense(self: Tensor, dtype: Any = None, *, masked_grad: Any = None) -> Tensor:
    """A dense tensor is its own dense form (a new dtype converts)."""
    return self if dtype is None else self.to(dtype)


# what this engine's tensors are: dense, strided, on the CPU, unquantized, in one process
is_cpu = property(lambda self: True, doc="True: every tensor here is on the CPU.")
_NOT = property(lambda self: False)
_NOT_KINDS = (
    "is_sparse", "is_sparse_csr", "is_quantized", "is_meta", "is_nested", "is_mkldnn",
    "is_xla", "is_xpu", "is_mps", "is_ipu", "is_vulkan", "is_maia", "is_mtia",
)  # fmt: skip


def is_pinned(self: Tensor, device: Any = None) -> bool:
    return False


def is_shared(self: Tensor) -> bool:
    return False


OPS = [
    Op("is_cpu", is_cpu, function=False),
    *(Op(name, _NOT, function=False) for name in _NOT_KINDS),
    Op("is_pinned", is_pinned, function=False),
    Op("is_shared", is_shared, function=False),
    Op("is_same_size", is_same_size, function=False),
    Op("share_memory_", share_memory_, function=False),
    Op("to_dense", to_dense, function=False),
    Op("is_nonzero", is_nonzero),
    Op("where", where, function=False),
    Op("__contains__", __contains__, function=False),
    Op("__reversed__", __reversed__, function=False),
    Op("get_device", get_device, function=False),
    Op("is_signed", is_signed, function=False),
    Op("itemsize", itemsize, function=False),
    Op("nbytes", nbytes, function=False),
    Op("apply_", apply_, function=False),
    Op("tril", tril, method=False, function=False, inplace=True),
    Op("triu", triu, method=False, function=False, inplace=True),
]
