"""Hooks' storage and handles: the one place a hook is added (`add_hook`), the dict that holds
a node's or tensor's hooks, and PyTorch's `RemovableHandle` that unregisters one.

Part of the engine's bottom layer (tests/engine/test_layers.py).
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.autograd import observer

if TYPE_CHECKING:
    from protocol.vocab import HookKind


class RemovableHandle:
    """Returned by every `register_*hook`; `.remove()` unregisters (idempotent)."""

    __slots__ = ("_store", "id")
    _ids = itertools.count()

    def __init__(self, store: dict[int, Any]) -> None:
        self.id = next(RemovableHandle._ids)
        self._store = weakref.ref(store) if hasattr(store, "__weakref__") else (lambda: store)

    def remove(self) -> None:
        store = self._store()
        if store is not None:
            store.pop(self.id, None)
            if (tracer := observer.tracer()) is not None:
                tracer.hook_removed(self.id)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


# printed as PyTorch's class: `<torch.utils.hooks.RemovableHandle object at ...>`
RemovableHandle.__module__ = "torch.utils.hooks"


class HookDict(dict[int, Callable[..., Any]]):
    """A dict that can be weakly referenced by handles."""

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:  # PyTorch keeps hooks in OrderedDicts, and users print them
        return f"OrderedDict({list(self.items())!r})" if self else "OrderedDict()"


def add_hook(
    store: HookDict, fn: Callable[..., Any], kind: HookKind, target: object
) -> RemovableHandle:
    """Register `fn` in `store` and tell the tracer; the one place hooks are added."""
    handle = RemovableHandle(store)
    store[handle.id] = fn
    if (tracer := observer.tracer()) is not None:
        tracer.hook_registered(handle.id, kind, target, fn)
    return handle
