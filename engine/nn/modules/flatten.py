"""Flatten and Unflatten."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.nn.modules.module import Module


class Flatten(Module):
    """Flatten dimensions start_dim..end_dim into one."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension `dim` into `unflattened_size`."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        d = self.dim % len(shape)
        new = shape[:d] + list(self.unflattened_size) + shape[d + 1 :]
        return input.view(*new)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


__all__ = [
    "Flatten",
    "Unflatten",
]
