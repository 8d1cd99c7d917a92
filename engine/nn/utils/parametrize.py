"""`torch.nn.utils.parametrize`: a module's tensor computed from parameters on every access.

As PyTorch, the module's class is swapped for a new `Parametrized<Name>` subclass (one per
module, so `type(m).__name__` and printed models match) and swapped back when the last
parametrization goes. Unlike PyTorch, the subclass has no property per tensor:
`Module.__getattr__` asks this module for parametrized names (the original parameter is
removed, so lookups reach it).

>>> P.register_parametrization(layer, "weight", Symmetric())
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine._tensor import Tensor
from engine.autograd.grad_mode import no_grad
from engine.nn.modules.container import ModuleDict
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

_CACHE: dict[tuple[int, str], Tensor] | None = None


class ParametrizationList(Module):
    """The chain of parametrizations of one tensor, holding `original` (or original0, ...)."""

    def __init__(self, modules: list[Module], original: Any, unsafe: bool = False) -> None:
        super().__init__()
        self.unsafe = unsafe
        for i, m in enumerate(modules):
            self.add_module(str(i), m)
        first = modules[0]
        with no_grad():
            new = original
            if hasattr(first, "right_inverse"):
                # one that raises NotImplementedError counts as the identity, as in PyTorch
                with contextlib.suppress(NotImplementedError):
                    new = first.right_inverse(original)
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            _store(self, "original", original, new)
        else:
            for i, t in enumerate(new):
                _store(self, f"original{i}", original, t)

    def __getitem__(self, i: int) -> Module:
        return list(self._modules.values())[i]  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())  # type: ignore[arg-type]

    def append(self, module: Module) -> None:
        self.add_module(str(len(self)), module)

    def forward(self) -> Tensor:
        mods = list(self)
        if self.is_tensor:
            x = mods[0](self.original)
        else:
            x = mods[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for m in mods[1:]:
            x = m(x)
        return x  # type: ignore[no-any-return]

    def right_inverse(self, value: Tensor) -> None:
        """Set the originals so that the chain yields `value` (`module.weight = value`)."""
        with no_grad():
            for m in reversed(list(self)):
                if hasattr(m, "right_inverse"):
                    value = m.right_inverse(value)
                elif not self.unsafe:
                    raise RuntimeError(
                        f"parametrization {type(m).__name__} does not implement right_inverse."
                    )
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, t in enumerate(value):
                    getattr(self, f"original{i}").copy_(t)


def _store(plist: Module, name: str, original: Any, value: Tensor) -> None:
    """Keep `value` as a Parameter if the original was one (a buffer otherwise)."""
    if isinstance(original, Parameter):
        if value is original:
            plist.register_parameter(name, original)
        else:
            plist.register_parameter(name, Parameter(value, original.requires_grad))
    else:
        plist.register_buffer(name, value)


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Make `module.<tensor_name>` the output of `parametrization` applied to the original."""
    if is_parametrized(module, tensor_name):
        module.parametrizations[tensor_name].append(parametrization)
        return module
    if tensor_name in module._parameters:
        original: Any = module._parameters.pop(tensor_name)
    elif tensor_name in module._buffers:
        original = module._buffers.pop(tensor_name)
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a parametrized element "
            f"with name '{tensor_name}'"
        )
    plist = ParametrizationList([parametrization], original, unsafe=unsafe)
    if "parametrizations" not in module._modules:
        module.parametrizations = ModuleDict()
        module.__dict__["_parametrized_name"] = "Parametrized" + type(module).__name__
        _inject_class(module)
    module.parametrizations[tensor_name] = plist
    if not unsafe:  # PyTorch evaluates it once to check it (spectral_norm iterates here)
        _check(original, plist())
    return module


_NO_PICKLE = (
    "Serialization of parametrized modules is only supported through state_dict(). See:\n"
    "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
    "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
)


def _inject_class(module: Module) -> None:
    """PyTorch's `_inject_new_class`: a fresh `Parametrized<Name>` subclass for this module,
    which refuses pickling (a generated class has no importable name) but deep-copies."""
    cls = type(module)

    def getstate(self: Module) -> dict[str, Any]:
        raise RuntimeError(_NO_PICKLE)

    body: dict[str, Any] = {"__getstate__": getstate, "__module__": "torch.nn.utils.parametrize"}
    if not hasattr(cls, "__deepcopy__"):
        body["__deepcopy__"] = _deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), body)


def _deepcopy(self: Module, memo: dict[int, Any]) -> Module:
    """A standard deep copy, which `__getstate__` would refuse."""
    found: Module | None = memo.get(id(self))
    if found is not None:
        return found
    replica = self.__new__(type(self))
    memo[id(self)] = replica
    replica.__dict__ = copy.deepcopy(self.__dict__, memo)
    return replica


def _check(original: Tensor, value: Any) -> None:
    if not isinstance(value, Tensor):
        raise ValueError(
            "A parametrization must return a tensor. Got " + type(value).__name__ + "."
        )
    if value.dtype != original.dtype:
        raise ValueError(
            "Registering a parametrization may not change the dtype of the tensor, unless "
            "`unsafe` flag is enabled.\n"
            f"unparametrized dtype: {original.dtype}\n"
            f"parametrized dtype: {value.dtype}"
        )
    if value.shape != original.shape:
        raise ValueError(
            "Registering a parametrization may not change the shape of the tensor, unless "
            "`unsafe` flag is enabled.\n"
            f"unparametrized shape: {original.shape}\n"
            f"parametrized shape: {value.shape}"
        )


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """True when `module` (or its `tensor_name`) has a parametrization."""
    plists = module._modules.get("parametrizations")
    if not isinstance(plists, ModuleDict):
        return False
    return tensor_name is None or tensor_name in plists


def parametrized_value(module: Module, name: str) -> Any:
    """The value of a parametrized tensor (read through `Module.__getattr__`)."""
    key = (id(module), name)
    if _CACHE is not None and key in _CACHE:
        return _CACHE[key]
    out = module._modules["parametrizations"][name]()  # type: ignore[index]
    if _CACHE is not None:
        _CACHE[key] = out
    return out


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Undo `register_parametrization`, keeping the current value (or the original)."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plists: Any = module.parametrizations
    plist = plists[tensor_name]
    if not leave_parametrized and not plist.is_tensor:
        raise ValueError(
            "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
            "parametrized in terms of a sequence of tensors."
        )
    with no_grad():
        value = parametrized_value(module, tensor_name) if leave_parametrized else None
    orig = plist.original if plist.is_tensor else None
    del plists[tensor_name]
    if len(plists) == 0:
        del module._modules["parametrizations"]
        module.__dict__.pop("_parametrized_name", None)
        module.__class__ = type(module).__bases__[0]
    if value is not None:
        value = value.detach()
        if plist.is_tensor and not isinstance(orig, Parameter):
            module.register_buffer(tensor_name, value)
        else:
            module.register_parameter(tensor_name, Parameter(value))
    elif isinstance(orig, Parameter):
        module.register_parameter(tensor_name, orig)
    else:
        module.register_buffer(tensor_name, orig)
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before its `Parametrized<Name>` subclass was made."""
    return type(module).__bases__[0] if is_parametrized(module) else type(module)


@contextmanager
def cached() -> Iterator[None]:
    """Compute each parametrized tensor once inside the block."""
    global _CACHE
    outer = _CACHE
    if outer is None:
        _CACHE = {}
    try:
        yield
    finally:
        _CACHE = outer
