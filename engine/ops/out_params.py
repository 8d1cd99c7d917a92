"""PyTorch's `out=` parameter for the `torch.*` functions whose op-table row says `out=True`:
the result written into the given tensor in place (resized with PyTorch's warning when its
shape differs)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import return_types
from engine._tensor import Tensor
from engine._warn import warn
from engine.ops._core import as_tensor, writing


def with_out(fn: Any, name: str) -> Any:
    """`fn` accepting PyTorch's `out=` tensor, written in place (resized with a warning)."""
    import functools

    from engine.autograd.grad_mode import STATE

    scalars = name in ("add", "sub", "mul", "div")
    # an op whose overloads PyTorch's parser checks (_arg_parser.checked): checked here with
    # `out` among the arguments, then run without checking again
    parser = getattr(fn, "parser", None)
    wrapped = fn
    fn = getattr(fn, "impl", fn)

    @functools.wraps(wrapped)
    def op(*args: Any, **kwargs: Any) -> Any:
        if parser is not None:
            parser.parse(args, kwargs)
        out: Tensor | None = kwargs.pop("out", None)
        if scalars and args and not isinstance(args[0], Tensor):
            args = (as_tensor(args[0]), *args[1:])  # torch.add(5, 5) is tensor(10)
        if out is None:
            return fn(*args, **kwargs)
        r = fn(*args, **kwargs)
        if isinstance(r, tuple):  # max(x, dim, out=(values, indices)) and friends
            if any(t._rg for t in r if isinstance(t, Tensor)) and STATE.enabled:
                raise RuntimeError(_NO_GRAD.format(name))
            kind = getattr(return_types, type(r).__name__ + "_out", type(r))  # max -> max_out
            return kind([_write(o, t) for o, t in zip(out, r, strict=True)])
        if STATE.enabled and r._rg:
            raise RuntimeError(_NO_GRAD.format(name))
        return _write(out, r)

    return op


def _write(out: Tensor, r: Tensor) -> Tensor:
    """`r` written into `out` in place (resized, with PyTorch's warning, when its shape differs
    and it has elements)."""
    from engine.ops.inplace import type_name

    if r.dtype.category > out.dtype.category:
        raise RuntimeError(
            f"result type {type_name(r.dtype)} can't be cast to the desired output type "
            f"{type_name(out.dtype)}"
        )
    if out._d.shape != r._d.shape and out._d.size:
        warn(_RESIZED.format(list(out._d.shape), list(r._d.shape)))
    with writing(out):
        if out._d.shape == r._d.shape:
            np.copyto(out._d, r._d, casting="unsafe")
        else:  # resized: the new memory
            out._d = r._d.astype(out._d.dtype)
    return out


_NO_GRAD = (
    "{}(): functions with out=... arguments don't support automatic differentiation, but one "
    "of the arguments requires grad."
)
_RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not "
    "match the required output shape {}. This behavior is deprecated, and in a future PyTorch "
    "release outputs will not be resized unless they have zero elements. You can explicitly "
    "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0). "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)"
)
