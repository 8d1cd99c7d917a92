"""`torch.autograd`: backward, grad, Function, grad modes, graph inspection."""

from __future__ import annotations

from engine.autograd import graph
from engine.autograd.engine import backward, grad
from engine.autograd.function import Function, FunctionCtx, once_differentiable
from engine.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

Variable = None  # replaced by the Tensor class in engine/__init__.py

__all__ = [
    "Function",
    "FunctionCtx",
    "Variable",
    "backward",
    "enable_grad",
    "grad",
    "graph",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
    "no_grad",
    "once_differentiable",
    "set_grad_enabled",
]
