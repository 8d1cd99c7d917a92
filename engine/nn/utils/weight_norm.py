"""`torch.nn.utils.weight_norm` / `remove_weight_norm`: the deprecated hook-based weight norm
(parameters `<name>_g` and `<name>_v`; the weight recomputed by a forward pre-hook)."""

from __future__ import annotations

import warnings
from typing import Any

from engine._tensor import Tensor
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter
from engine.ops.nn_weight_norm import _weight_norm, norm_except_dim


class WeightNorm:
    """The forward pre-hook that recomputes `module.<name>` from g and v."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, module: Module) -> Tensor:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: Any) -> WeightNorm:
        warnings.warn(
            "`torch.nn.utils.weight_norm` is deprecated in favor of "
            "`torch.nn.utils.parametrizations.weight_norm`.",
            FutureWarning,
            stacklevel=2,  # inside weight_norm, as PyTorch reports it (so shown once)
        )
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, -1 if dim is None else dim)
        weight: Any = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight: Any = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: Any = 0) -> Module:
    """Split `module.<name>` into magnitude `<name>_g` and direction `<name>_v` (deprecated)."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Undo `weight_norm`: `<name>` becomes one parameter again."""
    hooks = module._forward_pre_hooks
    for k, hook in hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
