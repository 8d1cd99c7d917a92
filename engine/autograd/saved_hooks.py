"""`saved_tensors_hooks`, `save_on_cpu`, `disable_saved_tensors_hooks`.

The engine's `SavedTensor` calls the innermost (pack, unpack) pair on `observer.SAVED_HOOKS`
when a tensor is saved for backward; these context managers push and pop that stack.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from engine.autograd import observer

_DISABLED: list[str | None] = [None]


class saved_tensors_hooks:
    """Pack tensors as they are saved for backward, unpack them when backward reads them.

    >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda p: p):
    ...     y = x.pow(2)
    """

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _DISABLED[0] is not None:
            raise RuntimeError(_DISABLED[0])
        observer.SAVED_HOOKS.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args: object) -> None:
        observer.SAVED_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors on the CPU: every engine tensor already lives there (a no-op move)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor: Any) -> tuple[Any, Any]:
            return (tensor.device, tensor)

        def unpack_from_cpu(packed: tuple[Any, Any]) -> Any:
            return packed[1]

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Entering `saved_tensors_hooks` inside raises RuntimeError(error_message)."""
    prev = _DISABLED[0]
    _DISABLED[0] = error_message
    try:
        if observer.SAVED_HOOKS:  # PyTorch refuses to disable hooks that are already on
            raise RuntimeError(error_message)
        yield
    finally:
        _DISABLED[0] = prev


class _Handle:
    """What the mutation-safe pack hook stores in place of a saved tensor."""

    __slots__ = ("__weakref__",)


class _AllowMutationOnSavedContext:
    """The state of one `allow_mutation_on_saved_tensors` block (PyTorch's debugging view:
    `original` holds saved tensors, `cloned` the copies that backward reads after a mutation).
    """

    def __init__(self) -> None:
        self.cloned: weakref.WeakKeyDictionary[_Handle, Any] = weakref.WeakKeyDictionary()
        self.original: weakref.WeakKeyDictionary[_Handle, Any] = weakref.WeakKeyDictionary()
        # the saved values as they were packed, and the version they were packed at
        self.kept: weakref.WeakKeyDictionary[_Handle, tuple[Any, int]] = weakref.WeakKeyDictionary()

    def clear(self) -> None:
        self.cloned.clear()
        self.original.clear()
        self.kept.clear()


_MUTATION_ON: list[bool] = [False]
_OUTSIDE = (
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which the "
    "graph was originally recorded."
)


def _mutation_hooks(ctx: _AllowMutationOnSavedContext) -> saved_tensors_hooks:
    """PyTorch clones a saved tensor just before its first in-place change; the engine keeps a
    copy as it packs (the same values reach backward) and hands it out once the tensor's
    version has moved."""
    from engine._tensor import make

    def pack(tensor: Any) -> _Handle:
        handle = _Handle()
        ctx.original[handle] = tensor
        ctx.kept[handle] = (make(tensor._d.copy(), False, None, 0), tensor._ver[0])
        return handle

    def unpack(handle: _Handle) -> Any:
        if not _MUTATION_ON[0] or handle not in ctx.kept:
            raise AssertionError(_OUTSIDE)
        if handle in ctx.cloned:
            return ctx.cloned[handle]
        original = ctx.original[handle]
        copy, version = ctx.kept[handle]
        if original._ver[0] == version:
            return original
        ctx.cloned[handle] = copy
        del ctx.original[handle]
        return copy

    return saved_tensors_hooks(pack, unpack)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Tensors saved for backward may be modified in place inside: backward sees the values
    they had when saved.

    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     b = a.clone(); out = (b**2).sum(); b.sin_(); out.backward()
    """
    ctx = _AllowMutationOnSavedContext()
    with _mutation_hooks(ctx):
        try:
            if _MUTATION_ON[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _MUTATION_ON[0] = True
            yield ctx
        finally:
            # as PyTorch: leaving (even a refused nested block) switches the mode off
            ctx.clear()
            _MUTATION_ON[0] = False


def increment_version(tensor: Any) -> None:
    """Bump the version counter of a tensor (or of each tensor in an iterable), as an in-place
    write that autograd did not see would.

    >>> torch.autograd.graph.increment_version(y)
    """
    from engine._tensor import Tensor, writing

    tensors = (tensor,) if isinstance(tensor, Tensor) else tensor
    try:
        items = list(tensors)
    except TypeError:
        raise RuntimeError("increment_version expect a Iterable[Tensor] as input") from None
    for t in items:
        if not isinstance(t, Tensor):
            raise RuntimeError("increment_version expect a Iterable[Tensor] as input")
        if not t._inference:  # inference tensors have no version counter
            with writing(t):  # the version alone moves
                pass
