"""`torch.amp`: CPU autocast (engine/ops/autocast.py does the casts) and a CPU GradScaler;
CUDA autocast and GradScaler disable themselves with PyTorch's warnings (GPU scripts run
unchanged, in float32).

>>> scaler = torch.amp.GradScaler("cuda")  # warns, then scale/step/update pass through
"""

from __future__ import annotations

import functools
import sys
import types
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
    """Loss scaling: on CPU it scales, unscales, skips steps with inf/nan gradients and
    grows or backs off the scale as PyTorch's does; on CUDA (absent) it warns, then passes
    through.

    >>> scaler = torch.amp.GradScaler("cpu")
    >>> scaler.scale(loss).backward(); scaler.step(opt); scaler.update()
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if enabled and device == "cuda":
            warn(_NO_CUDA_SCALER, UserWarning)
            self._enabled = False
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._scale: Any = None
        self._growth_tracker = 0
        self._per_optimizer: dict[int, dict[str, Any]] = {}

    def is_enabled(self) -> bool:
        return self._enabled

    def _state(self, optimizer: Any) -> dict[str, Any]:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": 0, "found_inf": False})

    def scale(self, outputs: Any) -> Any:
        if not self._enabled:
            return outputs
        from engine._creation import full

        if self._scale is None:
            self._scale = full((), self._init_scale, dtype=_dtype.float32)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        return outputs * self._scale

    def unscale_(self, optimizer: Any) -> None:
        if not self._enabled:
            return None
        if self._scale is None:
            raise AssertionError("Attempted unscale_ but _scale is None.  " + _CALL_SCALE)
        state = self._state(optimizer)
        if state["stage"] == 1:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] == 2:
            raise RuntimeError("unscale_() is being called after step().")
        import numpy as np

        inv = np.float32(1.0) / self._scale._d.astype(np.float32)
        found = False
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                g = p.grad._d
                found = found or not bool(np.isfinite(g).all())
                g *= inv.astype(g.dtype)
        state["found_inf"] = found
        state["stage"] = 1
        return None

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        if self._scale is None:
            raise AssertionError("Attempted step but _scale is None.  " + _CALL_SCALE)
        state = self._state(optimizer)
        if state["stage"] == 2:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == 0:
            self.unscale_(optimizer)
        retval = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = 2
        return retval

    def update(self, new_scale: Any = None) -> None:
        if not self._enabled:
            return None
        if self._scale is None:
            raise AssertionError("Attempted update but _scale is None.  " + _CALL_SCALE)
        import numpy as np

        if new_scale is not None:
            value = float(new_scale) if isinstance(new_scale, float) else new_scale.item()
            self._scale._d[...] = value
        else:
            if not self._per_optimizer:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(st["found_inf"] for st in self._per_optimizer.values()):
                self._scale._d *= np.float32(self._backoff_factor)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale._d *= np.float32(self._growth_factor)
                    self._growth_tracker = 0
        self._per_optimizer = {}
        return None

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale._d)

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def _get_growth_tracker(self) -> int:
        return self._growth_tracker if self._scale is not None else self._init_growth_tracker

    def state_dict(self) -> dict[str, Any]:
        if not self._enabled:
            return {}
        return {
            "scale": self.get_scale(),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._get_growth_tracker(),
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not self._enabled:
            return None
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved "
                "from a disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale._d[...] = state_dict["scale"]
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        self._growth_tracker = state_dict["_growth_tracker"]
        return None


_CALL_SCALE = (
    "This may indicate your script did not use scaler.scale(loss or outputs) "
    "earlier in the iteration."
)


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast knows `device_type` (PyTorch's list, available or not)."""
    return device_type in ("cpu", "cuda", "xpu", "ipu", "hpu", "xla", "mps", "mtia", "maia")


def _submodule(name: str, **attrs: Any) -> types.ModuleType:
    mod = types.ModuleType(f"{__name__}.{name}")
    mod.__dict__.update(attrs)
    sys.modules.setdefault(mod.__name__, mod)
    return mod


autocast.__module__ = "torch.amp.autocast_mode"
GradScaler.__module__ = "torch.amp.grad_scaler"
autocast_mode = _submodule(
    "autocast_mode", autocast=autocast, is_autocast_available=is_autocast_available
)
grad_scaler = _submodule("grad_scaler", GradScaler=GradScaler)
