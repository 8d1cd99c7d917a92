"""`torch.finfo` / `torch.iinfo`: machine limits of a dtype, printed as PyTorch prints them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

from engine import _dtype

# NumPy's finfo knows no bfloat16; ml_dtypes' does (untyped: called through a typed name)
_bf16_finfo: Callable[[Any], Any] = ml_dtypes.finfo


class finfo:
    """Limits of a floating dtype (the default dtype when none is given)."""

    def __init__(self, type: Any = None) -> None:
        d = _dtype.get_default_dtype() if type is None else type
        if isinstance(d, _dtype.dtype) and d.is_complex:  # the limits of its real parts
            d = d.to_real()
        if not isinstance(d, _dtype.dtype) or not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")  # fmt: skip
        f = _bf16_finfo(d.np) if d is _dtype.bfloat16 else np.finfo(d.np)
        self.bits = int(f.bits)
        self.eps = float(f.eps)
        self.max = float(f.max)
        self.min = float(f.min)
        self.tiny = self.smallest_normal = float(f.smallest_normal)
        self.resolution = 10.0 ** -int(f.precision)
        self.dtype = d.name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


class iinfo:
    """Limits of an integer dtype."""

    def __init__(self, type: Any) -> None:
        if not isinstance(type, _dtype.dtype) or type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")  # fmt: skip
        i = np.iinfo(type.np) if type.category else np.iinfo(np.uint8)
        self.bits = int(i.bits)
        self.max = int(i.max) if type.category else 1
        self.min = int(i.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def can_cast(from_: Any, to: Any) -> bool:
    """False when the cast would lower the category (float to int, int to bool), as PyTorch."""
    f: _dtype.dtype = from_
    t: _dtype.dtype = to
    return bool(f.category <= t.category)
