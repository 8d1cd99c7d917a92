"""`torch.nn.utils.init`: `skip_init`, a module built without running its initialisation."""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")

__all__ = ["skip_init"]


def skip_init(module_cls: Any, *args: Any, **kwargs: Any) -> Any:
    """Instantiate `module_cls` with uninitialised parameters and buffers. PyTorch builds it
    on the meta device (so the CPU generator is untouched) and then `to_empty`s it; the engine
    has no meta tensors, so it builds it with the generator's state restored afterwards and
    gives every parameter and buffer fresh (uninitialised) storage."""
    if not issubclass(module_cls, torch.nn.Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    kwargs.pop("device", "cpu")
    with torch.random.fork_rng():
        module = module_cls(*args, **kwargs)
    return module._apply_tensors(torch.empty_like)
