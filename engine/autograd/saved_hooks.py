"""`saved_tensors_hooks`, `save_on_cpu`, `disable_saved_tensors_hooks`.

The engine's `SavedTensor` calls the innermost (pack, unpack) pair on `observer.SAVED_HOOKS`
when a tensor is saved for backward; these context managers push and pop that stack.
"""

from __future__ import annotations

import contextlib
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
        yield
    finally:
        _DISABLED[0] = prev
