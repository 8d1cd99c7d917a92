"""`torch.amp`: CPU autocast (engine/ops/autocast.py does the casts); CUDA autocast and
GradScaler disable themselves with PyTorch's warnings (GPU scripts run unchanged, in float32).

>>> scaler = torch.amp.GradScaler("cuda")  # warns, then scale/step/update pass through
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine import _dtype
from engine._warn import warn
from engine.ops import autocast as _autocast

_NO_CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."
_NO_CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


_CPU_DTYPES = (
    "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
    "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently."
)


class autocast:  # lower-case: PyTorch's name
    """Mixed precision region: on CPU, bfloat16 (or float16) matrix products and float32
    losses, as PyTorch casts them; on CUDA (absent here) disabled with PyTorch's warning.

    >>> with torch.autocast("cpu"):
    ...     model(x).dtype
    torch.bfloat16
    """

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        self.device = device_type
        self.fast_dtype = _dtype.bfloat16 if dtype is None else dtype
        self._enabled = enabled
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        self._prev: tuple[Any, ...] | None = None
        if enabled and device_type == "cuda":
            warn(_NO_CUDA_AUTOCAST, UserWarning)
            self._enabled = False
        elif enabled and self.fast_dtype not in (_dtype.bfloat16, _dtype.float16):
            warn(_CPU_DTYPES, UserWarning)
            self._enabled = False

    def __enter__(self) -> autocast:
        if self.device == "cpu":
            self._prev = _autocast.enter(self._enabled, self.fast_dtype, self._cache_enabled)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._prev is not None:
            _autocast.leave(self._prev)
            self._prev = None

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """Whether this thread is inside an enabled autocast region of `device_type`."""
    return device_type == "cpu" and _autocast.STATE.enabled


def get_autocast_dtype(device_type: str) -> _dtype.dtype:
    """The dtype autocast casts to on `device_type` (CPU: bfloat16 unless a region says)."""
    if device_type == "cpu":
        return _autocast.STATE.dtype
    return _dtype.float16


def is_autocast_cpu_enabled() -> bool:
    warn(
        "torch.is_autocast_cpu_enabled() is deprecated. Please use "
        "torch.is_autocast_enabled('cpu') instead. (Triggered internally at "
        "/__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:883.)",
        DeprecationWarning,
    )
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype() -> _dtype.dtype:
    warn(
        "torch.get_autocast_cpu_dtype() is deprecated. Please use "
        "torch.get_autocast_dtype('cpu') instead. (Triggered internally at "
        "/__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:1016.)",
        DeprecationWarning,
    )
    return get_autocast_dtype("cpu")


class GradScaler:
    """Loss scaling for float16 training; without CUDA it is disabled and passes through."""

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        if enabled and device != "cuda":
            raise NotImplementedError(f"GradScaler on '{device}' is not supported by the engine")
        if enabled:
            warn(_NO_CUDA_SCALER, UserWarning)
        self._device = device
        self._enabled = False

    def is_enabled(self) -> bool:
        return self._enabled

    def scale(self, outputs: Any) -> Any:
        return outputs

    def unscale_(self, optimizer: Any) -> None:
        return None

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale: Any = None) -> None:
        return None

    def get_scale(self) -> float:
        return 1.0

    def state_dict(self) -> dict[str, Any]:
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        return None
