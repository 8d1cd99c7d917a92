"""`matmul` / `@`: ATen's `_matmul_impl` dispatch, so the recorded graph is PyTorch's.

1-D·1-D is `dot`, 2-D·1-D `mv`, 1-D·2-D an `mm` between unsqueeze and an in-place squeeze,
2-D·2-D `mm`. With more dims, the batch dims of the larger operand are folded into an `mm`
or `mv` when the smaller one is at most 2-D and (it requires grad, or the fold is free);
otherwise both are expanded to a common batch, reshaped to 3-D and multiplied with `bmm`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.ops import autocast as _autocast
from engine.ops._core import as_tensor, record
from engine.ops.linalg import bmm, dot, mm, mv
from engine.ops.shape import UnsafeViewBackward0, expand, reshape, squeeze, t, transpose, unsqueeze
from engine.ops.table import Op


def matmul(self: Any, other: Any) -> Tensor:
    """Matrix product with NumPy-style broadcasting of batch dims."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        self, other = _autocast.lower(self, other)
    a = self if type(self) is Tensor else as_tensor(self)
    b = other if type(other) is Tensor else as_tensor(other)
    d1, d2 = a._d.ndim, b._d.ndim
    if d1 == 2 and d2 == 2:
        return mm(a, b)
    if d1 == 0 or d2 == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D"
        )
    if d1 == 1 and d2 == 1:
        return dot(a, b)
    if d1 == 2 and d2 == 1:
        return mv(a, b)
    if d1 == 1 and d2 == 2:
        from engine.ops.transpose import squeeze_

        # ATen squeezes the fresh mm result in place: SqueezeBackward4, version 1
        return squeeze_(mm(unsqueeze(a, 0), b), 0)
    if _should_fold(a, b):
        return _folded(a, b)
    return _batched(a, b)


def _unsafe_view(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    return record(UnsafeViewBackward0, x._d.reshape(shape), (x,), shapes=(x._d.shape,))


def _should_fold(a: Tensor, b: Tensor) -> bool:
    d1, d2 = a._d.ndim, b._d.ndim
    big = a._d if d1 >= d2 else np.swapaxes(b._d, -1, -2)
    small = b if d1 >= d2 else a
    if not (big.ndim >= 3 and min(d1, d2) <= 2):
        return False
    if small._rg:
        return True
    if d1 == 2:
        return False
    if big.size == 0:
        return True
    # folding is free when the leading dims of the larger operand merge without a copy
    sh, st = big.shape, big.strides
    return all(st[i] == st[i + 1] * sh[i + 1] for i in range(big.ndim - 2))


def _folded(a: Tensor, b: Tensor) -> Tensor:
    d1, d2 = a._d.ndim, b._d.ndim
    swap = d2 > d1
    t1 = transpose(b, -1, -2) if swap else a
    t2 = (t(a) if d1 == 2 else a) if swap else b
    sizes = t1._d.shape
    out_shape = sizes[:-1]
    folded = int(np.prod(out_shape))
    t1f = reshape(t1, (folded, sizes[-1]))
    if t2._d.ndim == 2:
        out = _unsafe_view(mm(t1f, t2), (*out_shape, t2._d.shape[1]))
        if not swap:
            return out
        from engine.ops.tensor_shape import contiguous

        return contiguous(transpose(out, -1, -2))
    return _unsafe_view(mv(t1f, t2), out_shape)


def _broadcast(s1: tuple[int, ...], s2: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(s1), len(s2))
    p1, p2 = (1,) * (n - len(s1)) + s1, (1,) * (n - len(s2)) + s2
    out = []
    for i, (x, y) in enumerate(zip(p1, p2)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i}"
            )
        out.append(y if x == 1 else x)
    return tuple(out)


def _batched(a: Tensor, b: Tensor) -> Tensor:
    sa, sb = a._d.shape, b._d.shape
    d1, d2 = len(sa), len(sb)
    n = sa[-2] if d1 > 1 else 1
    m1 = sa[-1]
    m2 = sb[-2] if d2 > 1 else sb[0]
    p = sb[-1] if d2 > 1 else 1
    batch1, batch2 = sa[:-2], sb[:-2]
    if d1 == 3 and d2 == 3 and batch1[0] != batch2[0]:
        # a batch of one that needs a gradient is squeezed so the product folds into an mm
        if batch1[0] == 1 and a._rg:
            return matmul(squeeze(a, 0), b)
        if batch2[0] == 1 and b._rg:
            return matmul(a, squeeze(b, 0))
    batch = _broadcast(batch1, batch2)
    nb = int(np.prod(batch))
    a3 = reshape(expand(a, (*batch, n, m1)), (nb, n, m1))
    if d2 == 1:
        b3 = unsqueeze(reshape(expand(b, (*batch, m2)), (nb, m2)), 2)
    else:
        b3 = reshape(expand(b, (*batch, m2, p)), (nb, m2, p))
    out_shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    out = bmm(a3, b3)
    if d2 == 1:
        out = squeeze(out, -1)
    return _unsafe_view(out, out_shape)


OPS = [
    Op("matmul", matmul, out=True, operators=("__matmul__",)),
]
