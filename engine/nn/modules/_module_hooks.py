"""Module hook registration (bound onto Module as methods)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.autograd.graph import HookDict, RemovableHandle, add_hook

if TYPE_CHECKING:
    from engine.nn.modules.module import Module
    from protocol.vocab import HookKind


def _add(
    store: HookDict, hook: Callable[..., Any], kind: HookKind, target: Any, prepend: bool
) -> RemovableHandle:
    handle = add_hook(store, hook, kind, target)
    if prepend:
        items = list(store.items())
        store.clear()
        store[handle.id] = hook
        store.update((k, v) for k, v in items if k != handle.id)
    return handle


def register_forward_pre_hook(
    self: Module, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
) -> RemovableHandle:
    """`hook(module, args)` runs before forward; may return new args."""
    handle = _add(self._forward_pre_hooks, hook, "module_forward_pre", self, prepend)
    if with_kwargs:
        self.__dict__.setdefault("_forward_pre_hooks_with_kwargs", set()).add(handle.id)
    return handle


def register_forward_hook(
    self: Module,
    hook: Callable[..., Any],
    *,
    prepend: bool = False,
    with_kwargs: bool = False,
    always_call: bool = False,
) -> RemovableHandle:
    """`hook(module, args, output)` runs after forward; may return a new output."""
    handle = _add(self._forward_hooks, hook, "module_forward", self, prepend)
    if with_kwargs:
        self.__dict__.setdefault("_forward_hooks_with_kwargs", set()).add(handle.id)
    if always_call:
        self.__dict__.setdefault("_forward_hooks_always_called", set()).add(handle.id)
    return handle


_MIXED = (
    "Cannot use both regular backward hooks and full backward hooks on a single Module. "
    "Please use only one of them."
)
_MIXED_GLOBAL = (
    "Cannot use both regular backward hooks and full backward hooks as a global Module hook. "
    "Please use only one of them."
)


def register_full_backward_hook(
    self: Module, hook: Callable[..., Any], prepend: bool = False
) -> RemovableHandle:
    """`hook(module, grad_input, grad_output)` runs once the inputs' gradients are known."""
    if self.__dict__.get("_is_full_backward_hook") is False:
        raise RuntimeError(_MIXED)
    self.__dict__["_is_full_backward_hook"] = True
    return _add(self._backward_hooks, hook, "module_backward", self, prepend)


def register_backward_hook(self: Module, hook: Callable[..., Any]) -> RemovableHandle:
    """The deprecated hook: `hook(module, grad_input, grad_output)` on the grad_fn of the
    module's (first) output, so it sees that one node's gradients, as PyTorch's does."""
    if self.__dict__.get("_is_full_backward_hook") is True:
        raise RuntimeError(_MIXED)
    self.__dict__["_is_full_backward_hook"] = False
    return _quiet_hook(self._backward_hooks, hook)


def register_full_backward_pre_hook(
    self: Module, hook: Callable[..., Any], prepend: bool = False
) -> RemovableHandle:
    """`hook(module, grad_output)` runs when the outputs' gradients arrive; may replace them."""
    return _add(self._backward_pre_hooks, hook, "module_backward_pre", self, prepend)


# -- global hooks: every module's call runs them before its own (PyTorch's `_global_*`) -------
class GlobalHooks:
    """The process-wide module hooks of `torch.nn.modules.module.register_module_*_hook`."""

    def __init__(self) -> None:
        self.forward_pre = HookDict()
        self.forward = HookDict()
        self.backward_pre = HookDict()
        self.backward = HookDict()
        # None until a global backward hook is registered; then full (True) or legacy (False)
        self.backward_is_full: bool | None = None
        self.forward_with_kwargs: set[int] = set()
        self.forward_always_called: set[int] = set()
        self.buffer = HookDict()
        self.module = HookDict()
        self.parameter = HookDict()

    def any_call_hook(self) -> bool:
        return bool(self.forward_pre or self.forward or self.backward_pre or self.backward)


GLOBAL = GlobalHooks()


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, args)` runs before every module's forward (and its own pre hooks).

    >>> torch.nn.modules.module.register_module_forward_pre_hook(lambda m, a: print(m))
    """
    return add_hook(GLOBAL.forward_pre, hook, "module_forward_pre", None)


def register_module_forward_hook(
    hook: Callable[..., Any], *, with_kwargs: bool = False, always_call: bool = False
) -> RemovableHandle:
    """`hook(module, args, output)` runs after every module's forward; may replace the output."""
    handle = add_hook(GLOBAL.forward, hook, "module_forward", None)
    if with_kwargs:
        GLOBAL.forward_with_kwargs.add(handle.id)
    if always_call:
        GLOBAL.forward_always_called.add(handle.id)
    return handle


def register_module_full_backward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, grad_output)` runs for every module when its outputs' gradients arrive."""
    return add_hook(GLOBAL.backward_pre, hook, "module_backward_pre", None)


def register_module_full_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, grad_input, grad_output)` runs for every module once its inputs' gradients
    are known."""
    if GLOBAL.backward_is_full is False:
        raise RuntimeError(_MIXED_GLOBAL)
    GLOBAL.backward_is_full = True
    return add_hook(GLOBAL.backward, hook, "module_backward", None)


def register_module_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """The deprecated global form of `Module.register_backward_hook`."""
    if GLOBAL.backward_is_full is True:
        raise RuntimeError(_MIXED_GLOBAL)
    GLOBAL.backward_is_full = False
    return _quiet_hook(GLOBAL.backward, hook)


def backward_hooks(mod: Module) -> tuple[list[Any], list[Callable[..., Any]]]:
    """(full, legacy) backward hooks of a call: the global ones first (PyTorch's
    `_get_backward_hooks`); full ones as (id, hook) pairs, legacy ones as hooks."""
    full: list[Any] = []
    legacy: list[Callable[..., Any]] = []
    if GLOBAL.backward_is_full is True:
        full += GLOBAL.backward.items()
    elif GLOBAL.backward_is_full is False:
        legacy += GLOBAL.backward.values()
    own = mod.__dict__.get("_is_full_backward_hook")
    if own is True:
        full += mod._backward_hooks.items()
    elif own is False:
        legacy += mod._backward_hooks.values()
    return full, legacy


def register_module_buffer_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, name, buffer)` runs when any module registers a buffer; may replace it."""
    return _quiet_hook(GLOBAL.buffer, hook)


def register_module_module_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, name, submodule)` runs when any module registers a submodule."""
    return _quiet_hook(GLOBAL.module, hook)


def register_module_parameter_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """`hook(module, name, param)` runs when any module registers a parameter."""
    return _quiet_hook(GLOBAL.parameter, hook)


def _quiet_hook(store: HookDict, hook: Callable[..., Any]) -> RemovableHandle:
    """A registration hook: not a graph hook, so the tracer is not told (no wire kind)."""
    handle = RemovableHandle(store)
    store[handle.id] = hook
    return handle


def registered(store: HookDict, module: Module, name: str, value: Any) -> Any:
    """`value` after the global registration hooks of `store` (each may replace it)."""
    for hook in list(store.values()):
        out = hook(module, name, value)
        if out is not None:
            value = out
    return value
