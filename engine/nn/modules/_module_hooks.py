"""Module hook registration (bound onto Module as methods)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.autograd.graph import HookDict, RemovableHandle, add_hook

if TYPE_CHECKING:
    from engine.nn.modules.module import Module


def _add(
    store: HookDict, hook: Callable[..., Any], kind: str, target: Any, prepend: bool
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
    return handle


def register_full_backward_hook(
    self: Module, hook: Callable[..., Any], prepend: bool = False
) -> RemovableHandle:
    """`hook(module, grad_input, grad_output)` runs once the inputs' gradients are known."""
    return _add(self._backward_hooks, hook, "module_backward", self, prepend)


def register_full_backward_pre_hook(
    self: Module, hook: Callable[..., Any], prepend: bool = False
) -> RemovableHandle:
    """`hook(module, grad_output)` runs when the outputs' gradients arrive; may replace them."""
    return _add(self._backward_pre_hooks, hook, "module_backward_pre", self, prepend)
