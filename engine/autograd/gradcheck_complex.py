"""gradcheck with complex inputs or outputs, reduced to the real case.

A complex tensor is a pair of real numbers per element, and PyTorch's complex gradient is
dL/dre + i dL/dim: checking the function on `view_as_real` pairs (inputs passed in as real
(..., 2) leaves, complex outputs viewed as real) checks exactly the Wirtinger derivatives
PyTorch's gradcheck compares, with plain real finite differences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make


def _is_c(x: Any) -> bool:
    return isinstance(x, Tensor) and _dtype.kind(x._d.dtype) == "c"


def _outputs(res: Any) -> tuple[Any, ...]:
    return tuple(res) if isinstance(res, tuple | list) else (res,)


def realify(
    func: Callable[..., Any], inputs: tuple[Any, ...]
) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """`func` and `inputs` as the equivalent real problem (complex parts as (..., 2) pairs).

    Real outputs pass through untouched and `func` runs no extra time, so a real problem is
    checked exactly as before (a function drawing random numbers draws the same ones).
    """
    from engine.ops.complex import view_as_complex, view_as_real

    complex_in = [_is_c(x) for x in inputs]

    def leaf(x: Tensor) -> Tensor:
        pairs = np.ascontiguousarray(x._d)[..., None].view(x._d.real.dtype).copy()
        out = make(pairs, False, None, 0)
        out._rg = x._rg
        return out

    real_inputs = tuple(leaf(x) if c else x for x, c in zip(inputs, complex_in))

    def real_func(*args: Any) -> Any:
        given = tuple(view_as_complex(a) if c else a for a, c in zip(args, complex_in))
        res = func(*given)
        if not any(_is_c(o) for o in _outputs(res)):
            return res
        outs = tuple(view_as_real(o) if _is_c(o) else o for o in _outputs(res))
        return outs if isinstance(res, tuple | list) else outs[0]

    return real_func, real_inputs
