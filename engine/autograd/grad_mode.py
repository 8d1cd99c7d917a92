"""Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`."""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _ThreadModes(threading.local):
    """Grad and inference mode, per thread as in PyTorch: a new thread starts recording.

    (`threading.local` runs `__init__` again in each thread that first reads the object.)
    """

    def __init__(self) -> None:
        self.enabled = True  # ops record: grad mode on and inference mode off
        self.grad = True  # PyTorch's GradMode (what `is_grad_enabled()` reads in inference mode)
        self.inference = False
        # inside `vmap`: how deep, and the ids of the inputs it does not map (in_dims None)
        self.vmap_level = 0
        self.vmap_unmapped: set[int] = set()
        self.vmap_randomness = "error"  # the innermost vmap's: random ops raise under "error"
        # inside any torch.func transform, and inside one that batches (vmap, and jacfwd, which
        # PyTorch runs as vmap over jvp): a custom autograd.Function checks both
        self.func_level = 0
        self.batch_level = 0


class _Anomaly:
    """Anomaly mode is process-wide in PyTorch (a static flag), unlike grad mode."""

    __slots__ = ("anomaly", "anomaly_nan")

    def __init__(self) -> None:
        self.anomaly = False
        self.anomaly_nan = True


STATE = _ThreadModes()
ANOMALY = _Anomaly()


@contextlib.contextmanager
def func_transform(batching: bool = False) -> Iterator[None]:
    """Mark the extent of one torch.func transform (vmap and jacfwd batch)."""
    STATE.func_level += 1
    STATE.batch_level += batching
    try:
        yield
    finally:
        STATE.func_level -= 1
        STATE.batch_level -= batching


def is_grad_enabled() -> bool:
    """PyTorch's grad mode (ops record when it is on, outside inference mode)."""
    return STATE.grad if STATE.inference else STATE.enabled


def _set_grad(mode: bool) -> tuple[bool, bool]:
    """Set grad mode; ops record only outside inference mode (`enable_grad()` inside
    `inference_mode()` turns grad mode on and still records nothing, as in PyTorch).
    Returns the previous (enabled, grad) to restore with `_restore`."""
    prev = (STATE.enabled, STATE.grad)
    STATE.grad = mode
    STATE.enabled = mode and not STATE.inference
    return prev


def _restore(prev: tuple[bool, bool]) -> None:
    STATE.enabled, STATE.grad = prev


def is_inference_mode_enabled() -> bool:
    """True inside `inference_mode()`."""
    return STATE.inference


class _DecoratorContextManager:
    """A context manager that also works as a decorator (`@torch.no_grad()`)."""

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def clone(self) -> _DecoratorContextManager:
        return self.__class__()

    def __enter__(self) -> None:
        raise NotImplementedError

    def __exit__(self, *exc: object) -> None:
        raise NotImplementedError


class no_grad(_DecoratorContextManager):
    """Ops inside do not record the graph.

    >>> with torch.no_grad():
    ...     y = x * 2  # y.requires_grad is False
    """

    def __init__(self) -> None:
        self.prev = (True, True)

    def __enter__(self) -> None:
        self.prev = _set_grad(False)

    def __exit__(self, *exc: object) -> None:
        _restore(self.prev)


class enable_grad(_DecoratorContextManager):
    """Ops inside record the graph, even within `no_grad`."""

    def __init__(self) -> None:
        self.prev = (True, True)

    def __enter__(self) -> None:
        self.prev = _set_grad(True)

    def __exit__(self, *exc: object) -> None:
        _restore(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Turn recording on or off; takes effect at once, and as a context manager restores on exit."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self.prev = _set_grad(self.mode)

    def __call__(self, func: F) -> F:
        # as a decorator, construction must not change the mode (PyTorch restores it here)
        _restore(self.prev)
        return super().__call__(func)

    def __enter__(self) -> None:
        _set_grad(self.mode)

    def __exit__(self, *exc: object) -> None:
        _restore(self.prev)

    def clone(self) -> set_grad_enabled:
        prev = (STATE.enabled, STATE.grad)
        clone = self.__class__(self.mode)
        _restore(prev)
        clone.prev = prev
        return clone


class inference_mode(_DecoratorContextManager):
    """Like `no_grad`, and tensors made inside are inference tensors autograd later refuses."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self.prev = (True, True, False)

    def __call__(self, func: F) -> F:
        if isinstance(func, bool):  # `@inference_mode(False)` is spelled through __init__
            return self.__class__(func)
        return super().__call__(func)

    def __enter__(self) -> None:
        self.prev = (STATE.enabled, STATE.grad, STATE.inference)
        # PyTorch's InferenceMode(enabled) sets grad mode to `not enabled`: `mode=False` turns
        # recording back on, even inside no_grad
        STATE.inference = self.mode
        _set_grad(not self.mode)

    def __exit__(self, *exc: object) -> None:
        STATE.enabled, STATE.grad, STATE.inference = self.prev

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)


_MULTITHREADING = [True]


class set_multithreading_enabled(_DecoratorContextManager):
    """Whether backward may use worker threads; the engine's backward runs in the calling
    thread either way, so this only keeps PyTorch's flag (set at construction, as there)."""

    def __init__(self, mode: bool) -> None:
        self.prev = _MULTITHREADING[0]
        _MULTITHREADING[0] = self.mode = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _MULTITHREADING[0] = self.prev

    def clone(self) -> set_multithreading_enabled:
        return self.__class__(self.mode)
