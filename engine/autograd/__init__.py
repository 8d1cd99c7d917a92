"""`torch.autograd`: backward, grad, Function, grad modes, graph inspection.

The package also holds bottom-layer modules (grad_mode, node, observer; see
tests/engine/test_layers.py), and importing one of them runs this file first. So it imports
only the bottom layer; the rest of `torch.autograd` (backward, Function, functional, ...) is
imported on first use, and `import engine` uses it all before a snippet runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from engine.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)

if TYPE_CHECKING:
    from engine._tensor import Tensor as Variable
    from engine.autograd import forward_ad, functional, graph, profiler
    from engine.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
    from engine.autograd.function import Function, FunctionCtx, once_differentiable
    from engine.autograd.gradcheck import gradcheck, gradgradcheck
    from engine.autograd.run_backward import backward, grad

# name -> the module that defines it ("" for a submodule of this package)
_LAZY = {
    "Variable": "engine._tensor",
    "forward_ad": "",
    "functional": "",
    "graph": "",
    "profiler": "",
    "detect_anomaly": "engine.autograd.anomaly_mode",
    "set_detect_anomaly": "engine.autograd.anomaly_mode",
    "backward": "engine.autograd.run_backward",
    "grad": "engine.autograd.run_backward",
    "Function": "engine.autograd.function",
    "FunctionCtx": "engine.autograd.function",
    "once_differentiable": "engine.autograd.function",
    # the functions, as in torch, while `import torch.autograd.gradcheck` finds the module
    "gradcheck": "engine.autograd.gradcheck",
    "gradgradcheck": "engine.autograd.gradcheck",
}
_ATTR = {"Variable": "Tensor"}


def _bind(name: str) -> object:
    where = _LAZY[name]
    if not where:
        value: object = importlib.import_module(f"{__name__}.{name}")
    else:
        value = getattr(importlib.import_module(where), _ATTR.get(name, name))
    globals()[name] = value  # also over a submodule of the same name (gradcheck)
    return value


if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """A name of `torch.autograd` above the bottom layer, imported on first use."""
        if name not in _LAZY:
            raise AttributeError(f"module 'torch.autograd' has no attribute '{name}'")
        return _bind(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def _bind_all() -> None:
    """Every lazy name bound now: `import engine` calls it once the layers above exist, so a
    later `import torch.autograd.gradcheck` leaves `torch.autograd.gradcheck` the function."""
    for name in _LAZY:
        _bind(name)


__all__ = [
    "Function",
    "FunctionCtx",
    "Variable",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "forward_ad",
    "functional",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "once_differentiable",
    "profiler",
    "set_detect_anomaly",
    "set_grad_enabled",
    "set_multithreading_enabled",
]
