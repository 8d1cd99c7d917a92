"""Reflection and replication padding layers in 1, 2 and 3 dims (`F.pad` reflect/replicate)."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn.modules.extra import _pad_tuple
from engine.nn.modules.module import Module


class _PadNd(Module):
    _dims = 1
    _mode = "reflect"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _pad_tuple(padding, self._dims)

    def forward(self, input: Tensor) -> Tensor:
        n = self._dims
        if self._mode == "circular" and input.ndim not in (n + 1, n + 2):  # only these check
            raise ValueError(f"expected {n + 1}D or {n + 2}D input (got {input.ndim}D input)")
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    _dims, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    _dims, _mode = 2, "reflect"


class ReplicationPad1d(_PadNd):
    _dims, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    _dims, _mode = 2, "replicate"


class CircularPad1d(_PadNd):
    _dims, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    _dims, _mode = 2, "circular"


class CircularPad3d(_PadNd):
    _dims, _mode = 3, "circular"


class ReflectionPad3d(_PadNd):
    _dims, _mode = 3, "reflect"


class ReplicationPad3d(_PadNd):
    _dims, _mode = 3, "replicate"


__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ReflectionPad1d", "ReflectionPad2d",
    "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
]  # fmt: skip
