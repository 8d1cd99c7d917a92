"""An op's operands as arrays: tensors from scalars and lists, PyTorch's result dtype for a
binary op (Python scalars stay scalars), floats for floating ops, bfloat16 computed in float32
(ATen's opmath), and PyTorch's refusals of operands an operator does not take.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make

# -- reduced precision -------------------------------------------------------------------
_BF16 = _dtype.bfloat16.np
_F32 = np.dtype(np.float32)


def acc_dtype(d: np.dtype[Any]) -> np.dtype[Any] | None:
    """float32 for bfloat16 data (PyTorch's CPU kernels accumulate in it), else None."""
    return _F32 if d == _BF16 else None


def opmath(fn: Any, d: np.ndarray[Any, Any]) -> Any:
    """`fn(d)`, with bfloat16 data computed in float32 and rounded once (ATen's opmath type)."""
    if d.dtype == _BF16:
        return np.asarray(fn(d.astype(_F32))).astype(_BF16)
    return fn(d)


def matmul_np(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """`np.matmul`, with bfloat16 products summed in float32 and rounded once, as PyTorch."""
    if a.dtype == _BF16 or b.dtype == _BF16:
        return np.asarray(np.matmul(a.astype(_F32), b.astype(_F32))).astype(_BF16)
    return np.asarray(np.matmul(a, b))


# -- operands ----------------------------------------------------------------------------
def as_tensor(x: Any, dtype: _dtype.dtype | None = None) -> Tensor:
    """A tensor from a Tensor, scalar, list or ndarray (no copy for tensors)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return make(x if dtype is None else x.astype(dtype.np), False, None, 0)
    if dtype is None:
        dtype = _dtype.scalar_dtype(x) if isinstance(x, bool | int | float) else None
    if dtype is None:
        arr = np.asarray(x)
        if _dtype.kind(arr.dtype) == "f":
            arr = arr.astype(_dtype.get_default_dtype().np)
        return make(arr, False, None, 0)
    return make(np.asarray(x, dtype=dtype.np), False, None, 0)


def binary_arrays(
    a: Tensor, b: Any
) -> tuple[np.ndarray[Any, Any], Any, Tensor | None, np.dtype[Any]]:
    """Operands of a binary op as arrays in PyTorch's result dtype.

    Returns (a_data, b_data, b_tensor_or_None, result numpy dtype). Python scalars stay scalars.
    """
    ad = a._d
    if isinstance(b, Tensor):
        bd = b._d
        if ad.dtype is bd.dtype or ad.dtype == bd.dtype:
            return ad, bd, b, ad.dtype
        rt = _dtype.result_type([(a.dtype, ad.ndim), (b.dtype, bd.ndim)], []).np
        return ad.astype(rt, copy=False), bd.astype(rt, copy=False), b, rt
    if isinstance(b, bool | int | float):
        kind = _dtype.kind(ad.dtype)
        if type(b) is float and kind != "f" and kind != "c":
            rt = _dtype.get_default_dtype().np
            return ad.astype(rt), b, None, rt
        if type(b) is float and ad.dtype == _BF16:  # the scalar is rounded to bfloat16 first
            return ad, float(np.asarray(b, _BF16)), None, ad.dtype
        if type(b) is int and kind == "b":
            return ad.astype(np.int64), b, None, np.dtype(np.int64)
        if type(b) is int and kind in "iu" and not -(2**63) <= b < 2**63:
            raise OverflowError("int too big to convert")
        if type(b) is int and kind in "iu" and b != (w := int(np.int64(b).astype(ad.dtype))):
            b = w  # PyTorch casts the scalar to the tensor's dtype, wrapping (int8 + 300)
        return ad, b, None, ad.dtype
    if isinstance(b, list | tuple):
        symbol = _operator_symbol()
        if symbol is not None:  # `t + [1, 2]`: PyTorch's Tensor.__add__ refuses lists
            raise _operand_error(symbol, b)
        return binary_arrays(a, as_tensor(b))
    if isinstance(b, np.ndarray) or hasattr(b, "__array__"):
        return binary_arrays(a, as_tensor(b))
    if isinstance(b, np.generic):
        return binary_arrays(a, b.item())
    if isinstance(b, complex):  # `x * 1j`: complex64 for float32/int/bool, complex128 for float64
        rt = _dtype.result_type([(a.dtype, ad.ndim)], [b]).np
        return ad.astype(rt, copy=False), b, None, rt
    symbol = _operator_symbol()
    if symbol is not None:
        raise _operand_error(symbol, b)
    raise TypeError(f"unsupported operand type for a Tensor op: '{type(b).__name__}'")


def _operator_symbol() -> str | None:
    """The operator (`+`, `*=`, ...) of the user's code that led here, or None for a call.

    Only on error paths: reads the caller's current bytecode instruction, so the operators
    themselves stay plain functions with no wrapper.
    """
    import dis
    import sys

    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset == frame.f_lasti:
            return ins.argrepr if ins.opname == "BINARY_OP" else None
    return None


def _operand_error(symbol: str, b: Any) -> TypeError:
    shown = "** or pow()" if symbol == "**" else symbol
    return TypeError(f"unsupported operand type(s) for {shown}: 'Tensor' and '{type(b).__name__}'")


_ENGINE_DIR = str(__import__("pathlib").Path(__file__).resolve().parents[1])


def float_array(a: Tensor) -> np.ndarray[Any, Any]:
    """The data of `a` for a floating op (ints and bools become the default float)."""
    d = a._d
    if _dtype.kind(d.dtype) != "f" and _dtype.kind(d.dtype) != "c":
        return d.astype(_dtype.get_default_dtype().np)
    return d


def float_kernel(a: Tensor, kernel: str) -> np.ndarray[Any, Any]:
    """The data of `a` for an ATen kernel dispatched on floating types only: an integer or bool
    input is PyTorch's NotImplementedError naming the kernel (`"gelu" on a LongTensor`)."""
    d = a._d
    if _dtype.kind(d.dtype) in "biu":
        name = _dtype.SCALAR_NAMES[_dtype.from_numpy(d.dtype).name]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")
    return d
