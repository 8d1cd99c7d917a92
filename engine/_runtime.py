"""Process-wide switches and odds and ends of the `torch` namespace: threads, determinism,
default device, math constants, `typename`.

>>> torch.set_num_threads(1); torch.get_num_threads()
1
"""

from __future__ import annotations

import importlib
import itertools
import math
import os
from typing import Any

from engine._device import device
from engine._warn import warn

pi = math.pi
e = math.e
inf = math.inf
nan = math.nan
newaxis = None

_THREADS = {"intra": os.cpu_count() or 1, "inter": os.cpu_count() or 1, "deterministic": False}


def get_num_threads() -> int:
    return int(_THREADS["intra"])


def set_num_threads(n: int) -> None:
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _THREADS["intra"] = int(n)


def get_num_interop_threads() -> int:
    return int(_THREADS["inter"])


def set_num_interop_threads(n: int) -> None:
    _THREADS["inter"] = int(n)


_SETTINGS = {"matmul_precision": "highest", "warn_always": False}


def set_float32_matmul_precision(precision: str) -> None:
    """Recorded only: the engine's float32 matmuls are always full precision."""
    if precision not in ("highest", "high", "medium"):
        warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect. (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)",
            UserWarning,
        )
        return
    _SETTINGS["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return str(_SETTINGS["matmul_precision"])


def set_warn_always(b: bool) -> None:
    _SETTINGS["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return bool(_SETTINGS["warn_always"])


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Recorded only: every engine kernel is deterministic already."""
    _THREADS["deterministic"] = bool(mode)


def are_deterministic_algorithms_enabled() -> bool:
    return bool(_THREADS["deterministic"])


def get_default_device() -> device:
    return device("cpu")


def set_default_device(dev: Any) -> None:
    from engine._device import check

    if dev is not None:
        check(dev)


def typename(obj: Any) -> str:
    """'torch.FloatTensor' for tensors, else the object's class path (PyTorch's names)."""
    from engine.nn.modules.module import _typename

    return _typename(obj)


def detach(input: Any) -> Any:
    return input.detach()


def scalar_tensor(
    s: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Any:
    """A 0-dim tensor of `s` (floating by default, as PyTorch's)."""
    from engine._creation import tensor

    return tensor(float(s) if dtype is None else s, dtype=dtype, requires_grad=requires_grad)


def randint_like(
    input: Any, low: int = 0, high: int | None = None, *, dtype: Any = None, **kwargs: Any
) -> Any:
    """`randint` with `input`'s shape and dtype (one bound means [0, bound))."""
    from engine._random import randint

    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype)


def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: Any = None, **kw: Any) -> Any:
    """Like `as_tensor`: shares memory with NumPy arrays and tensors where it can."""
    from engine._creation import as_tensor

    return as_tensor(obj, dtype=dtype)


def cartesian_prod(*tensors: Any) -> Any:
    """Rows of every combination of the inputs' elements (one input comes back as it is)."""
    torch: Any = importlib.import_module("engine")

    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Any:
    """Length-r combinations of a 1-D tensor's elements, in itertools order."""
    torch: Any = importlib.import_module("engine")
    n = int(input.shape[0])
    pick: Any = (
        itertools.combinations_with_replacement if with_replacement else itertools.combinations
    )
    rows = list(pick(range(n), r))
    if not rows:
        return torch.empty(0, r, dtype=input.dtype) if r else torch.empty(0, dtype=input.dtype)
    cols = [torch.tensor([row[k] for row in rows]) for k in range(r)]
    return torch.stack([input[c] for c in cols], 1)
