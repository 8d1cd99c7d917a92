"""Triangular solves: `linalg.solve_triangular`, the deprecated `triangular_solve`,
`cholesky_solve` and `cholesky_inverse`, one node each.

Gradients: X = A^-1 B gives gB = A^-H gX and gA = -gB X^H, kept to A's triangle (PyTorch
projects onto the triangle it reads, and zeroes the diagonal of a unit-triangular A).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import return_types as rt
from engine._layout import lapack
from engine._tensor import Tensor
from engine._warn import warn, warn_once
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record, record_multi, unbroadcast
from engine.ops.linalg_solve import _mt
from engine.ops.table import Op


def _tri_solve(a: Any, b: Any, upper: bool, left: bool, unit: bool) -> Any:
    """Solve with the triangle of `a` only, by substitution as LAPACK's trsm does (so zeros
    keep its signs and a zero on the diagonal gives infinities and NaNs)."""
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        n = a.shape[-1]
        t = t * (1 - np.eye(n, dtype=a.dtype)) + np.eye(n, dtype=a.dtype)
    if left:
        return substitute(t, b, upper)
    return np.swapaxes(
        substitute(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2), not upper), -1, -2
    )


def substitute(t: Any, b: Any, upper: bool) -> Any:
    """T X = B by substitution, a row of X at a time, as LAPACK's trsm goes: a zero on the
    diagonal gives the infinities and NaNs its division by zero carries (PyTorch's result for
    a singular triangle), not an error."""
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), np.result_type(t, b))
    n = t.shape[-1]
    with np.errstate(all="ignore"):
        for k in range(n - 1, -1, -1) if upper else range(n):
            x[..., k, :] /= t[..., k, k, None]
            rest = slice(0, k) if upper else slice(k + 1, n)
            x[..., rest, :] -= t[..., rest, k, None] * x[..., k, None, :]
    return x


def solve_triangular(
    A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False
) -> Tensor:
    """`torch.linalg.solve_triangular`: X with A X = B (X A = B when not `left`)."""
    a, b = A._d, B._d
    out = lapack(np.asarray(_tri_solve(a, b, upper, left, unitriangular), np.result_type(a, b)))
    saved = {"self": A, "upper": upper, "left": left, "unitriangular": unitriangular}
    return record(
        LinalgSolveTriangularBackward0, out, (A, B), saved, "result", shapes=(a.shape, b.shape)
    )


class LinalgSolveTriangularBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgSolveTriangularBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul
        from engine.ops.tensor_shape import tril, triu

        g: Any = grads[0]
        a: Any = self.saved("self")
        x: Any = self.saved("result")
        upper, left, unit = self.saved("upper"), self.saved("left"), self.saved("unitriangular")
        assert self._shapes is not None
        gb = solve_triangular(_mt(a), g, upper=not upper, left=left, unitriangular=unit)
        ga = None
        if self.needs(0):
            ga = -matmul(gb, _mt(x)) if left else -matmul(_mt(x), gb)
            ga = triu(ga, 1 if unit else 0) if upper else tril(ga, -1 if unit else 0)
            ga = unbroadcast(ga, self._shapes[0])
        return [ga, unbroadcast(gb, self._shapes[1]) if self.needs(1) else None]


def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """`torch.cholesky_solve`: X with (L L^H) X = B, given the Cholesky factor L."""
    b, low = input._d, input2._d
    t = np.triu(low) if upper else np.tril(low)
    full = np.swapaxes(t, -1, -2) @ t if upper else t @ np.swapaxes(t, -1, -2)
    out = lapack(np.asarray(np.linalg.solve(full, b), np.result_type(b, low)))
    saved = {"self": input, "input2": input2, "upper": upper}
    return record(CholeskySolveBackward0, out, (input, input2), saved, "result")


class CholeskySolveBackward0(OpNode):
    __slots__ = ()
    _name = "CholeskySolveBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        g: Any = grads[0]
        low: Any = self.saved("input2")
        x: Any = self.saved("result")
        upper = self.saved("upper")
        gb = cholesky_solve(g, low, upper)
        gl = None
        if self.needs(1):
            # A = L L^H (or U^H U): gA = -gB X^H; gL = (gA + gA^H) L (gU = U (gA + gA^H))
            common = -matmul(gb, _mt(x))
            sym = common + _mt(common)
            gl = matmul(low, sym) if upper else matmul(sym, low)
        return [gb if self.needs(0) else None, gl]


_TRIANGULAR_SOLVE_WARNING = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B). (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2273.)"
)


def triangular_solve(
    input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
    unitriangular: bool = False,
) -> Any:  # fmt: skip
    """`torch.triangular_solve` (deprecated, warned once): (solution, cloned_coefficient) with
    A X = B (A^T X = B when `transpose`); the coefficient is a copy of the whole A."""
    warn_once(_TRIANGULAR_SOLVE_WARNING)
    b, a = input._d, A._d
    if b.ndim < 2 or a.ndim < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has "
            f"{b.ndim} dimensions instead"
            if b.ndim < 2
            else f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has "
            f"{a.ndim} dimensions instead"
        )
    t = np.swapaxes(a, -1, -2) if transpose else a
    x = np.asarray(_tri_solve(t, b, upper != transpose, True, unitriangular), b.dtype)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m = lapack(np.broadcast_to(a, batch + a.shape[-2:]))
    saved = {"self": input, "A": A, "upper": upper, "transpose": transpose,
             "unitriangular": unitriangular}  # fmt: skip
    outs = record_multi(
        TriangularSolveBackward0, [lapack(np.broadcast_to(x, batch + x.shape[-2:])), m],
        (input, A), saved, out_saved=("solution", ""), shapes=(b.shape, a.shape),
    )  # fmt: skip
    return rt.triangular_solve(outs)


class TriangularSolveBackward0(OpNode):
    """ATen's triangular_solve_backward: gB = A^-T gX (the other triangle solved), gA = -gB X^T
    (X gB^T when transposed) kept to A's triangle, plus the coefficient's own gradient."""

    __slots__ = ()
    _name = "TriangularSolveBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul
        from engine.ops.tensor_shape import tril, triu

        gx, gm = grads
        a: Any = self.saved("A")
        x: Any = self.saved("solution")
        upper, transpose = self.saved("upper"), self.saved("transpose")
        unit = self.saved("unitriangular")
        assert self._shapes is not None
        gb = ga = None
        if gx is not None:
            gb = triangular_solve(gx, a, upper, not transpose, unit).solution
            if self.needs(1):
                ga = -matmul(x, _mt(gb)) if transpose else -matmul(gb, _mt(x))
                ga = triu(ga, int(unit)) if upper else tril(ga, -int(unit))
        if gm is not None and self.needs(1):
            ga = gm if ga is None else ga + gm
        gb = unbroadcast(gb, self._shapes[0]) if gb is not None and self.needs(0) else None
        return [gb, unbroadcast(ga, self._shapes[1]) if ga is not None else None]


def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:
    """`torch.cholesky_inverse`: (L L^H)^-1 (or (U^H U)^-1) from a Cholesky factor."""
    t = np.triu(input._d) if upper else np.tril(input._d)
    full = np.swapaxes(t, -1, -2) @ t if upper else t @ np.swapaxes(t, -1, -2)
    out = lapack(np.asarray(np.linalg.inv(full), input._d.dtype))
    return record(
        CholeskyInverseBackward0, out, (input,), {"self": input, "upper": upper}, "result"
    )


class CholeskyInverseBackward0(OpNode):
    """R = (L L^H)^-1: gL = -(R (G + G^H) R) L, or -U (R (G + G^H) R) for the upper factor."""

    __slots__ = ()
    _name = "CholeskyInverseBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.matmul import matmul

        g: Any = grads[0]
        low: Any = self.saved("self")
        r: Any = self.saved("result")
        common = matmul(r, matmul(g + _mt(g), r))
        return [-matmul(low, common) if self.saved("upper") else -matmul(common, low)]


_CHOLESKY_WARNING = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\n"
    "L = torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\n"
    "should be replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
    "equivalent results for all valid (symmetric positive definite) inputs. (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:1765.)"
)


def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """`torch.cholesky` (deprecated): one CholeskyBackward0 node."""
    from engine.autograd.engine import WARNED  # the engine's once-per-process warnings
    from engine.ops.linalg_decomp import cholesky as linalg_cholesky

    if "cholesky" not in WARNED:  # TORCH_WARN_ONCE
        WARNED.add("cholesky")
        warn(_CHOLESKY_WARNING, UserWarning)
    out = linalg_cholesky(input.detach(), upper=upper)._d  # (column-major, as LAPACK's)
    return record(CholeskyBackward0, out, (input,), {"upper": upper}, "result")


class CholeskyBackward0(OpNode):
    __slots__ = ()
    _name = "CholeskyBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.linalg_decomp import cholesky_grad

        return [cholesky_grad(grads[0], self.saved("result"), self.saved("upper"))]


OPS = [
    Op("cholesky_solve", cholesky_solve, out=True),
    Op("cholesky_inverse", cholesky_inverse, out=True),
    Op("triangular_solve", triangular_solve, out=True),
    Op("cholesky", cholesky),
]
