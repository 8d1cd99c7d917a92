"""backscope's autograd engine: NumPy underneath, PyTorch's surface on top.

>>> import engine as torch
>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> (x * x).sum().backward(); x.grad
tensor([2., 4.])
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from engine import _dtype, _methods, autograd
from engine._creation import (
    arange,
    as_tensor,
    bernoulli,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    manual_seed,
    multinomial,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    seed,
    tensor,
    zeros,
    zeros_like,
)
from engine._device import device
from engine._dtype import dtype, get_default_dtype, set_default_dtype
from engine._printing import set_printoptions
from engine._size import Size
from engine._tensor import Tensor, is_tensor
from engine.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from engine.ops import pointwise, reduce, shape

__version__ = "2.13.0+backscope"

bool = _dtype.bool_  # noqa: A001
uint8 = _dtype.uint8
int8 = _dtype.int8
int16 = short = _dtype.int16
int32 = int = _dtype.int32  # noqa: A001
int64 = long = _dtype.int64
float16 = half = _dtype.float16
float32 = float = _dtype.float32  # noqa: A001
float64 = double = _dtype.float64

_OP_MODULES: list[ModuleType] = [pointwise, reduce, shape]
_methods.bind(_OP_MODULES, globals())
autograd.Variable = Tensor  # type: ignore[assignment]

FloatTensor = DoubleTensor = LongTensor = BoolTensor = Tensor


def is_floating_point(t: Tensor) -> Any:
    return t.is_floating_point()


def numel(t: Tensor) -> int:
    return t.numel()


def install_as_torch() -> None:
    """Make `import torch` (and `torch.nn`, `torch.autograd`, ...) resolve to this engine."""
    me = sys.modules[__name__]
    sys.modules["torch"] = me
    for name, mod in list(sys.modules.items()):
        if name.startswith("engine.") and isinstance(mod, ModuleType):
            alias = "torch." + name[len("engine.") :]
            sys.modules.setdefault(alias, mod)
