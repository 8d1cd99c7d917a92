"""Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _ThreadModes(threading.local):
    """Grad and inference mode, per thread as in PyTorch: a new thread starts recording.

    (`threading.local` runs `__init__` again in each thread that first reads the object.)
    """

    def __init__(self) -> None:
        self.enabled = True
        self.inference = False
        # inside `vmap`: how deep, and the ids of the inputs it does not map (in_dims None)
        self.vmap_level = 0
        self.vmap_unmapped: set[int] = set()


class _Anomaly:
    """Anomaly mode is process-wide in PyTorch (a static flag), unlike grad mode."""

    __slots__ = ("anomaly", "anomaly_nan")

    def __init__(self) -> None:
        self.anomaly = False
        self.anomaly_nan = True


STATE = _ThreadModes()
ANOMALY = _Anomaly()


def is_grad_enabled() -> bool:
    """True when ops record the graph."""
    return STATE.enabled


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
        self.prev = False

    def __enter__(self) -> None:
        self.prev = STATE.enabled
        STATE.enabled = False

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self.prev


class enable_grad(_DecoratorContextManager):
    """Ops inside record the graph, even within `no_grad`."""

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = STATE.enabled
        STATE.enabled = True

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Turn recording on or off; takes effect at once, and as a context manager restores on exit."""

    def __init__(self, mode: bool) -> None:
        self.prev = STATE.enabled
        self.mode = bool(mode)
        STATE.enabled = self.mode

    def __call__(self, func: F) -> F:
        # as a decorator, construction must not change the mode (PyTorch restores it here)
        STATE.enabled = self.prev
        return super().__call__(func)

    def __enter__(self) -> None:
        STATE.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        STATE.enabled = self.prev

    def clone(self) -> set_grad_enabled:
        prev = STATE.enabled
        clone = self.__class__(self.mode)
        STATE.enabled = prev
        clone.prev = prev
        return clone


class inference_mode(_DecoratorContextManager):
    """Like `no_grad`, and tensors made inside are inference tensors autograd later refuses."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)
        self.prev = (True, False)

    def __call__(self, func: F) -> F:
        if isinstance(func, bool):  # `@inference_mode(False)` is spelled through __init__
            return self.__class__(func)  # type: ignore[return-value]
        return super().__call__(func)

    def __enter__(self) -> None:
        self.prev = (STATE.enabled, STATE.inference)
        # PyTorch's InferenceMode(enabled) sets grad mode to `not enabled`: `mode=False` turns
        # recording back on, even inside no_grad
        STATE.enabled = not self.mode
        STATE.inference = self.mode

    def __exit__(self, *exc: object) -> None:
        STATE.enabled, STATE.inference = self.prev

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)
