"""`torch.storage`: the memory under tensors. A storage here is the root NumPy array every view
of it shares (`.base` followed to the end): its address, its size and its values.

>>> x = engine.arange(6)
>>> x[2:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._warn import warn

_TYPED_REMOVAL = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
    "only storage class. This should only matter to you if you are using storages directly.  To "
    "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()"
)
_WARNED: list[bool] = []

# PyTorch's legacy storage type names, by dtype
_LEGACY = {
    "float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
    "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
    "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
}  # fmt: skip


def root(data: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The array that owns `data`'s memory (the storage every view of it shares)."""
    while isinstance(data.base, np.ndarray):
        data = data.base
    return data


class UntypedStorage:
    """A tensor's memory as bytes (`tensor.untyped_storage()`)."""

    def __init__(self, base: np.ndarray[Any, Any]) -> None:
        self._base = base

    def _bytes(self) -> np.ndarray[Any, Any]:
        return np.ascontiguousarray(self._base).reshape(-1).view(np.uint8)

    def data_ptr(self) -> int:
        return int(self._base.__array_interface__["data"][0])

    def nbytes(self) -> int:
        return int(self._base.nbytes)

    def size(self) -> int:
        return int(self._base.nbytes)

    def __len__(self) -> int:
        return int(self._base.nbytes)

    def __getitem__(self, i: int) -> int:
        return int(self._bytes()[i])

    def tolist(self) -> list[int]:
        return [int(b) for b in self._bytes()]

    @property
    def device(self) -> Any:
        from engine._device import device

        return device("cpu")

    def is_shared(self) -> bool:
        return False

    def __str__(self) -> str:
        info = f"[torch.storage.UntypedStorage(device=cpu) of size {len(self)}]"
        return " " + "\n ".join(str(b) for b in self.tolist()) + "\n" + info

    __repr__ = __str__


class TypedStorage:
    """A tensor's memory as elements of its dtype (`tensor.storage()`, deprecated in PyTorch:
    the first one made warns)."""

    def __init__(self, base: np.ndarray[Any, Any]) -> None:
        if not _WARNED:
            _WARNED.append(True)
            warn(_TYPED_REMOVAL, UserWarning)
        self._base = base

    def _flat(self) -> np.ndarray[Any, Any]:
        return self._base.reshape(-1, order="A")  # a view: the owner is contiguous

    @property
    def dtype(self) -> Any:
        return _dtype.from_numpy(self._base.dtype)

    @property
    def device(self) -> Any:
        from engine._device import device

        return device("cpu")

    def data_ptr(self) -> int:
        return int(self._base.__array_interface__["data"][0])

    def size(self) -> int:
        return int(self._base.size)

    def __len__(self) -> int:
        return int(self._base.size)

    def nbytes(self) -> int:
        return int(self._base.nbytes)

    def element_size(self) -> int:
        return int(self._base.itemsize)

    def __getitem__(self, i: int) -> Any:
        return self._flat()[i].item()

    def __setitem__(self, i: int, value: Any) -> None:
        self._flat()[i] = value  # the tensors on this storage see it, as PyTorch's do

    def tolist(self) -> list[Any]:
        return list(self._flat().tolist())

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._base)

    def cpu(self) -> TypedStorage:
        return self

    def is_shared(self) -> bool:
        return False

    def type(self) -> str:
        return f"torch.{_LEGACY.get(self._base.dtype.name, 'Float')}Storage"

    def __str__(self) -> str:
        info = f"[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {len(self)}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __repr__ = __str__
