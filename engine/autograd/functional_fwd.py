"""`torch.autograd.functional.jacobian(strategy="forward-mode", vectorize=True)`, as PyTorch's
`_jacfwd`: forward AD with one basis tangent per input element (PyTorch vmaps; a loop here)."""

from __future__ import annotations

from typing import Any

from engine._creation import zeros, zeros_like
from engine.autograd.functional import Fn, Tensors, _as_tuple, _tuple_postprocess
from engine.ops.tensor_shape import stack


def jacfwd(func: Fn, inputs: Any) -> Any:
    """PyTorch's forward-mode Jacobian: one jvp per input element (its vmap, as a loop)."""
    from engine.autograd import forward_ad as fwad

    is_in_tuple, ins = _as_tuple(inputs, "inputs", "jacobian")
    numels = [int(inp.numel()) for inp in ins]
    total = sum(numels)
    columns: list[Tensors] = []
    info: list[Any] = []
    for j in range(total):
        tangents, start = [], 0
        for inp, n in zip(ins, numels):
            t = zeros(n, dtype=inp.dtype)
            if start <= j < start + n:
                t[j - start] = 1.0
            tangents.append(t.view_as(inp))
            start += n
        with fwad.dual_level():
            duals = tuple(fwad.make_dual(i, t) for i, t in zip(ins, tangents))
            is_out_tuple, outs = _as_tuple(func(*duals), "outputs", "jacobian")
            pairs = [fwad.unpack_dual(o) for o in outs]
            info = [is_out_tuple, [p for p, _ in pairs]]
            columns.append(tuple(t if t is not None else zeros_like(p) for p, t in pairs))
    is_out_tuple, outs = info
    result = []
    for i, out in enumerate(outs):
        jac = stack([c[i] for c in columns])
        per_in = []
        for part, inp in zip(jac.split(numels, dim=0), ins):
            per_in.append(part.permute(*range(1, part.ndim), 0).reshape((*out.shape, *inp.shape)))
        result.append(per_in)
    # PyTorch's lists stay lists here (a tuple of inputs gives a list of Jacobians)
    return _tuple_postprocess(result, (is_out_tuple, is_in_tuple))
