"""`torch.gradient`: central differences in the interior, one-sided at the edges (first or
second order), with a uniform spacing or coordinates per dimension.

Made of slices, arithmetic and a cat (PyTorch records CatBackward0 as its last node too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.ops.table import Op


def gradient(input: Tensor, *, spacing: Any = 1, dim: Any = None, edge_order: int = 1) -> Any:
    """The derivative of `input` along each of `dim` (every dimension by default)."""
    from engine.ops.reduce import wrap_dim

    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = range(input.ndim) if dim is None else [dim] if isinstance(dim, int) else dim
    dims = [wrap_dim(d, input.ndim) for d in dims]
    if isinstance(spacing, list | tuple):
        if len(spacing) != len(dims):
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing "
                f"and dim arguments to have the same length, but got a spacing argument of "
                f"length {len(spacing)} and a dim argument of length {len(dims)}."
            )
        spacings = list(spacing)
    else:
        spacings = [spacing] * len(dims)
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(
                "torch.gradient expected each dimension size to be at least edge_order+1"
            )
    if not (input.is_floating_point() or input.is_complex()):  # integers: the default float
        from engine._dtype import get_default_dtype

        input = input.to(get_default_dtype())
    return tuple(_along(input, d, h, edge_order) for d, h in zip(dims, spacings))


def _along(f: Tensor, d: int, h: Any, edge_order: int) -> Tensor:
    from engine.ops.index import narrow
    from engine.ops.scalar_overloads import div_scalar, mul_scalar
    from engine.ops.tensor_shape import cat

    if isinstance(h, Tensor) and h.ndim == 1:
        return _along_coordinates(f, d, h, edge_order)
    n = f.shape[d]

    def s(a: int, b: int) -> Any:  # f[a:b] along d
        return narrow(f, d, a, b - a)

    h = h.item() if isinstance(h, Tensor) else h
    # ATen's scalar overloads: MulBackward1 and DivBackward1, as PyTorch records them
    interior = div_scalar(div_scalar(s(2, n) - s(0, n - 2), h), 2)
    if edge_order == 1:
        first = div_scalar(s(1, 2) - s(0, 1), h)
        last = div_scalar(s(n - 1, n) - s(n - 2, n - 1), h)
    else:
        m = mul_scalar
        first = div_scalar(m(s(0, 1), -1.5) + m(s(1, 2), 2) - m(s(2, 3), 0.5), h)
        last = div_scalar(m(s(n - 3, n - 2), 0.5) - m(s(n - 2, n - 1), 2) + m(s(n - 1, n), 1.5), h)
    return cat([first, interior, last], d)


def _along_coordinates(f: Tensor, d: int, coords: Tensor, edge_order: int) -> Tensor:
    """Non-uniform spacing: the second-order interior formula over the coordinates, its
    coefficients in the coordinates' dtype (tensors, as in ATen)."""
    from engine.ops.index import narrow
    from engine.ops.tensor_shape import cat

    n = f.shape[d]
    shape = [1] * f.ndim
    shape[d] = -1

    def s(a: int, b: int) -> Any:
        return narrow(f, d, a, b - a)

    def c(v: Any, along: bool = True) -> Any:  # a coefficient (along d, or one number)
        v = np.asarray(v, coords._d.dtype)
        return make(v.reshape(shape) if along else v, False, None, 0)

    dx = np.diff(coords._d)
    hl, hr = dx[:-1], dx[1:]
    interior = (
        c(-hr / (hl * (hl + hr))) * s(0, n - 2)
        + c((hr - hl) / (hl * hr)) * s(1, n - 1)
        + c(hl / (hr * (hl + hr))) * s(2, n)
    )
    if edge_order == 1:
        first = (s(1, 2) - s(0, 1)) / c(dx[0], False)
        last = (s(n - 1, n) - s(n - 2, n - 1)) / c(dx[-1], False)
    else:
        d1, d2 = dx[0], dx[1]
        first = (
            c(-(2 * d1 + d2) / (d1 * (d1 + d2)), False) * s(0, 1)
            + c((d1 + d2) / (d1 * d2), False) * s(1, 2)
            + c(-d1 / (d2 * (d1 + d2)), False) * s(2, 3)
        )
        d1, d2 = dx[-2], dx[-1]
        last = (
            c(d2 / (d1 * (d2 + d1)), False) * s(n - 3, n - 2)
            + c(-(d2 + d1) / (d2 * d1), False) * s(n - 2, n - 1)
            + c((2 * d2 + d1) / (d2 * (d2 + d1)), False) * s(n - 1, n)
        )
    return cat([first, interior, last], d)


OPS = (Op("gradient", gradient, method=False),)
