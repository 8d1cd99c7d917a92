"""What a node shows of itself as PyTorch's does: its saved values as `_saved_<name>` (arrays as
tensors, int64 arguments as unsigned) and `_raw_saved_<name>` (PyTorch's SavedTensor), and the
names `dir()` lists.

Part of the engine's bottom layer (tests/engine/test_layers.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.autograd.saved_tensor import SavedTensor, wrapped_saved

if TYPE_CHECKING:
    from engine.autograd.node import Node


_OPERANDS = frozenset(("self", "other", "result"))


def _is_wrapped_number(key: str, value: Any) -> bool:
    """A Python number (or nothing) saved as an operand: PyTorch keeps a SavedVariable there,
    the number wrapped as a 0-dim tensor."""
    return key in _OPERANDS and (value is None or isinstance(value, int | float | complex))


def is_raw(cls: type[Node], key: str, value: Any) -> bool:
    """True when PyTorch keeps this saved value as a SavedVariable (`_raw_saved_<key>`): a
    tensor, an array the engine keeps bare, an optional tensor the node declares (present
    even as None), a list of tensors, or a number wrapped as an operand, unless the node's
    overload takes it as a Scalar (`MulBackward1.other`)."""
    if _is_tensor_like(value) or key in cls._tensors:
        return True
    if isinstance(value, tuple | list) and value and all(_is_tensor_like(v) for v in value):
        return True
    return _is_wrapped_number(key, value) and key not in cls._scalars


def _is_tensor_like(value: Any) -> bool:
    import numpy as np

    from engine._tensor import Tensor

    return type(value) is SavedTensor or isinstance(value, np.ndarray | Tensor)


def raw_saved(value: Any) -> Any:
    """A saved value read raw: PyTorch's SavedTensor (a list of them for a tensor list)."""
    import numpy as np

    from engine._tensor import Tensor, make

    if type(value) is SavedTensor:
        return value
    if isinstance(value, tuple | list):
        return [raw_saved(v) for v in value]
    if isinstance(value, np.ndarray):
        value = make(value, False, None, 0)
    if isinstance(value, Tensor):
        return SavedTensor(value, False)
    return wrapped_saved(value)


# what `dir()` of a built-in PyTorch node lists besides object's own names and saved values
NODE_SURFACE = (
    "_input_metadata",
    "_register_hook_dict",
    "_sequence_nr",
    "_set_sequence_nr",
    "metadata",
    "name",
    "next_functions",
    "register_hook",
    "register_prehook",
    "requires_grad",
    "variable",
)
# the private names `dir()` of a custom Function's PyTorch node lists (and the engine has)
FUNCTION_PRIVATE = frozenset(
    (
        "_forward_cls",
        "_input_metadata",
        "_raw_saved_tensors",
        "_register_hook_dict",
        "_sequence_nr",
        "_set_sequence_nr",
    )
)
ENGINE_ONLY = frozenset(("_saved", "_default_saved", "saved", "release", "needs"))


# saved int64 arguments: PyTorch hands them to Python as unsigned (`dim=-1` reads
# 18446744073709551615); Scalars such as `alpha` stay signed
_INT64_KEYS = frozenset(
    (
        *("dim", "dim0", "dim1", "dim2", "dims", "offset", "diagonal", "ignore_index"),
        *("padding_idx", "shifts", "start", "length", "split_size", "index", "step", "source"),
        *("destination", "end"),
    )
)


def as_shown(key: str, value: Any) -> Any:
    """A saved value as PyTorch's node attribute shows it: arrays as tensors, int lists as
    tuples, negative int64 arguments as unsigned."""
    import numpy as np

    if isinstance(value, np.ndarray):
        from engine._tensor import make

        return make(value, False, None, 0)
    if type(value) is list and all(type(v) is int for v in value):
        value = tuple(value)
    if key in _INT64_KEYS:
        if type(value) is int and value < 0:
            return value + (1 << 64)
        if type(value) is tuple:
            return tuple(v + (1 << 64) if type(v) is int and v < 0 else v for v in value)
    return value


def is_freed(key: str, value: Any) -> bool:
    # tensors are freed; so is a Python number saved as `self`/`other` (a wrapped tensor in
    # PyTorch); plain values such as `dim` or `alpha` stay readable
    return type(value) is SavedTensor or key in _OPERANDS
