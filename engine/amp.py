"""`torch.amp` on a machine without CUDA: CUDA autocast and GradScaler disable themselves with
PyTorch's warnings (so training scripts written for GPUs run unchanged, in float32).

>>> scaler = torch.amp.GradScaler("cuda")  # warns, then scale/step/update pass through
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

_NO_CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."
_NO_CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


class autocast:  # lower-case: PyTorch's name
    """Mixed precision region: disabled here (CUDA) or refused (CPU bfloat16, unsupported)."""

    def __init__(
        self,
        device_type: str,
        dtype: Any = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = enabled
        if enabled and device_type == "cuda":
            warnings.warn(_NO_CUDA_AUTOCAST, UserWarning, stacklevel=2)
            self._enabled = False
        elif enabled:
            raise NotImplementedError(
                f"autocast on '{device_type}' (reduced precision) is not supported by the engine"
            )

    def __enter__(self) -> autocast:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper


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
            warnings.warn(_NO_CUDA_SCALER, UserWarning, stacklevel=2)
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
