"""`torch.nn.utils.memory_format`: lay out the weights of convolutions in a memory format."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]

_M = TypeVar("_M")


def _convert(module: Any, kinds: tuple[type[Any], ...], memory_format: Any) -> None:
    if isinstance(module, kinds):
        module.weight.data = module.weight.detach().clone(memory_format=memory_format)
    for child in module.children():
        _convert(child, kinds, memory_format)


def convert_conv2d_weight_memory_format(module: _M, memory_format: Any) -> _M:
    """Re-lay the weights of every Conv2d/ConvTranspose2d in `module` (recursively) in
    `memory_format`; the values and the module itself are unchanged."""
    _convert(module, (torch.nn.Conv2d, torch.nn.ConvTranspose2d), memory_format)
    return module


def convert_conv3d_weight_memory_format(module: _M, memory_format: Any) -> _M:
    """`convert_conv2d_weight_memory_format` for Conv3d/ConvTranspose3d."""
    _convert(module, (torch.nn.Conv3d, torch.nn.ConvTranspose3d), memory_format)
    return module
