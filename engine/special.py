"""`torch.special`: the aliases of ops the engine has (same nodes as the torch.* functions).

>>> torch.special.expit(torch.tensor([0.0]))
tensor([0.5000])
"""

from __future__ import annotations

import importlib
from typing import Any

_ALIASES = {
    "expit": "sigmoid", "logit": "logit", "erf": "erf", "erfc": "erfc", "expm1": "expm1",
    "exp2": "exp2", "log1p": "log1p", "logsumexp": "logsumexp", "sinc": "sinc",
    "xlogy": "xlogy",
}  # fmt: skip


def round(input: Any, *, decimals: int = 0) -> Any:
    """`torch.special.round` always passes decimals, so it records RoundBackward1."""
    return input.round(decimals=decimals)


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:
    return input.log_softmax(dim, dtype=dtype)


def __getattr__(name: str) -> Any:
    if name in _ALIASES:
        return getattr(importlib.import_module("engine"), _ALIASES[name])
    raise AttributeError(f"module 'torch.special' has no attribute '{name}'")
