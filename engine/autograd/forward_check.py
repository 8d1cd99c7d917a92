"""`gradcheck(check_forward_ad=True)`: forward-mode Jacobians against finite differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _tensor
from engine.autograd import forward_ad as fwad


def check_forward_ad(
    func: Callable[..., Any], inputs: tuple[Any, ...], eps: float, rtol: float, atol: float
) -> None:
    """Raise GradcheckError (PyTorch's text) when a forward-mode Jacobian is wrong."""
    from engine.autograd.gradcheck import GradcheckError, _as_tuple, _numerical, _wrap

    numerical = _numerical(func, inputs, eps)  # [input][output]: (input numel, output numel)
    diff = [k for k, x in enumerate(inputs) if isinstance(x, _tensor.Tensor) and x.requires_grad]
    for i, pos in enumerate(diff):
        inp = inputs[pos]
        cols: list[list[np.ndarray[Any, Any]]] = []
        for k in range(inp.numel()):
            tangent = np.zeros(inp._d.size, inp._d.dtype)
            tangent[k] = 1
            with fwad.dual_level():
                args = list(inputs)
                args[pos] = fwad.make_dual(inp.detach(), _wrap(tangent.reshape(inp._d.shape)))
                outs = _as_tuple(func(*args))
                cols.append([_tangent_row(o) for o in outs])
        for o, num in enumerate(numerical[i]):
            ana = np.stack([c[o] for c in cols]) if cols else np.zeros((0, 0))
            if not np.allclose(ana, num.astype(np.result_type(ana, num)), rtol=rtol, atol=atol):
                raise GradcheckError(
                    f"Jacobian computed with forward mode mismatch for output {o:d} with respect "
                    f"to input {i:d},\nnumerical:{_wrap(num)}\nanalytical:{_wrap(ana)}\n"
                )


def _tangent_row(out: Any) -> np.ndarray[Any, Any]:
    tangent = fwad.unpack_dual(out).tangent
    if tangent is None:
        return np.zeros(out._d.size, out._d.dtype)
    return np.asarray(tangent._d, dtype=out._d.dtype).reshape(-1)
