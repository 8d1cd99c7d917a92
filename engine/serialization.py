"""`torch.save` / `torch.load`: pickle with tensors stored as NumPy arrays.

>>> buf = io.BytesIO(); torch.save({"w": torch.ones(2)}, buf); _ = buf.seek(0)
>>> torch.load(buf)
{'w': tensor([1., 1.])}
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from collections.abc import Iterator
from typing import IO, Any

_SAFE_MODULES = (
    "engine._tensor",
    "engine.nn.parameter",
    "engine._size",
    "engine._dtype",
    "engine._device",
)
_SAFE_BUILTINS = {"set", "frozenset", "slice", "complex", "bytearray", "list", "dict", "tuple"}
_user_safe: list[Any] = []

_ERROR = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n"
    "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if "
    "you got the file from a trusted source.\n"
    "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in "
    "the following error message.\n"
    "\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not an allowed global by "
    "default. Please use `torch.serialization.add_safe_globals([{name}])` or the "
    "`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if "
    "you trust this class/function.\n\n"
    "Check the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)


def _public(module: str) -> str:
    return "torch" + module[len("engine") :] if module.split(".")[0] == "engine" else module


class _Unpickler(pickle.Unpickler):
    """Classes saved under PyTorch's paths load as the engine's even where `torch` is not us."""

    def find_class(self, module: str, name: str) -> Any:
        from engine._public import find

        found = find(module, name) if module.split(".")[0] == "torch" else None
        return found if found is not None else super().find_class(module, name)


class _WeightsUnpickler(_Unpickler):
    """Only tensors, parameters, containers and plain values, as `weights_only=True` allows."""

    def find_class(self, module: str, name: str) -> Any:
        from engine._device import device
        from engine._dtype import dtype
        from engine._size import Size

        found = super().find_class(module, name)
        if found in (Size, device) or isinstance(found, dtype):
            return found
        if module == "builtins" and name in _SAFE_BUILTINS:
            return found
        if module.split(".")[0] in ("numpy", "collections", "_codecs"):
            return found
        if module in _SAFE_MODULES or any(found is s for s in _user_safe):
            return found
        raise pickle.UnpicklingError(_ERROR.format(name=f"{_public(module)}.{name}"))


def save(
    obj: object,
    f: str | os.PathLike[str] | IO[bytes],
    pickle_module: Any = pickle,
    pickle_protocol: int = 2,
    _use_new_zipfile_serialization: bool = True,
    _disable_byteorder_record: bool = False,
) -> None:
    """Pickle `obj` (tensors, state dicts, modules) to a path or a binary file object."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            _dump(obj, fh, pickle_module, pickle_protocol)
    else:
        _dump(obj, f, pickle_module, pickle_protocol)


def _dump(obj: object, fh: IO[bytes], pickle_module: Any, protocol: int) -> None:
    if pickle_module is pickle and sys.modules.get("torch") is not sys.modules["engine"]:
        _Pickler(fh, protocol=protocol).dump(obj)  # `torch.*` paths would not import here
    else:
        pickle_module.dump(obj, fh, protocol=protocol)


class _Pickler(pickle.Pickler):
    """Saves classes named `torch.*` (and dtypes) by lookup, where `import torch` is not us."""

    def reducer_override(self, obj: Any) -> Any:
        from engine._dtype import dtype
        from engine._public import find

        if isinstance(obj, dtype):
            return (find, ("torch", str(obj).split(".")[1]))
        if isinstance(obj, type) and obj.__module__.split(".")[0] == "torch":
            return (find, (obj.__module__, obj.__qualname__))
        return NotImplemented


def load(
    f: str | os.PathLike[str] | IO[bytes],
    map_location: Any = None,
    pickle_module: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **pickle_load_args: Any,
) -> Any:
    """Unpickle what `save` wrote; `weights_only` (the default since 2.6) refuses other classes."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, weights_only is not False)
    return _load(f, weights_only is not False)


def _load(fh: IO[bytes], weights_only: bool) -> Any:
    if weights_only:
        return _WeightsUnpickler(fh).load()
    return _Unpickler(fh).load()


def add_safe_globals(safe_globals: list[Any]) -> None:
    """Allow these classes/functions when loading with `weights_only=True`."""
    _user_safe.extend(safe_globals)


def get_safe_globals() -> list[Any]:
    return list(_user_safe)


def clear_safe_globals() -> None:
    _user_safe.clear()


@contextlib.contextmanager
def safe_globals(safe: list[Any]) -> Iterator[None]:
    """Context manager form of `add_safe_globals`."""
    n = len(_user_safe)
    _user_safe.extend(safe)
    try:
        yield
    finally:
        del _user_safe[n:]
