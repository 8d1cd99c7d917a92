"""`torch.autograd`: backward, grad, Function, grad modes, graph inspection."""

from __future__ import annotations

from engine.autograd import forward_ad, functional, graph, profiler
from engine.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
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

# bound after the submodule import so `torch.autograd.gradcheck` is the function, as in torch,
# while `import torch.autograd.gradcheck` still finds the module
from engine.autograd.gradcheck import gradcheck, gradgradcheck

Variable = None  # replaced by the Tensor class in engine/__init__.py

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
]
