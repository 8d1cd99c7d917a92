"""Reflection and replication padding layers (`F.pad` with mode 'reflect' / 'replicate')."""

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


__all__ = ["ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d"]
