"""Anomaly mode: `detect_anomaly`, `set_detect_anomaly`, and the forward-traceback warning."""

from __future__ import annotations

import os
from typing import Any

from engine._warn import warn
from engine.autograd.grad_mode import ANOMALY

_ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# PyTorch appends where in its C++ sources the warning was raised; we copy its text.
_WITH_TRACE = (
    " (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)"
)
_NO_TRACE = (
    "No forward pass information available. Enable detect anomaly during forward pass for "
    "more information. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:100.)"
)


def is_anomaly_enabled() -> bool:
    """True inside `detect_anomaly()` / after `set_detect_anomaly(True)`."""
    return ANOMALY.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    """True when anomaly mode also raises on NaN gradients."""
    return ANOMALY.anomaly_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """`torch.set_anomaly_enabled`: the raw switch the context managers use."""
    ANOMALY.anomaly = bool(enabled)
    ANOMALY.anomaly_nan = bool(check_nan)


class detect_anomaly:
    """Record forward tracebacks and raise on NaN gradients (a context manager only, as in torch).

    >>> with torch.autograd.detect_anomaly():
    ...     y = x.sqrt()
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = ANOMALY.anomaly
        self.check_nan = check_nan
        self.prev_check_nan = ANOMALY.anomaly_nan
        warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.",
        )

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Switch anomaly mode on or off, as a function call or a context manager."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = ANOMALY.anomaly
        self.prev_check_nan = ANOMALY.anomaly_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def _engine_frame(line: str) -> bool:
    """Whether a formatted stack entry is one of the engine's own frames (PyTorch's are C++,
    so its traces never show them)."""
    return line.startswith(f'  File "{_ENGINE_DIR}{os.sep}')


def forward_stack() -> list[str]:
    """The current stack's frames outside the engine, every one of them: an op called inside
    a user's function keeps that function's frame."""
    import traceback

    return [f for f in traceback.format_stack() if not _engine_frame(f)]


def user_frames(trace: list[str]) -> str:
    """The recorded forward stack without the engine's own frames."""
    return "".join(f for f in trace if not _engine_frame(f))


def warn_error_in(node: Any) -> None:
    """The warning PyTorch emits when a node fails during backward in anomaly mode."""
    trace = getattr(node, "_trace", None)
    if trace:
        msg = (
            f"Error detected in {node.name()}. Traceback of forward call that caused the "
            f"error:\n{user_frames(trace)}{_WITH_TRACE}"
        )
    else:
        msg = f"Error detected in {node.name()}. {_NO_TRACE}"
    warn(msg, UserWarning)
