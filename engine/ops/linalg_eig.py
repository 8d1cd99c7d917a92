"""`torch.linalg.eig` / `eigvals`: eigen-decomposition of a general square matrix (complex
results, LAPACK's geev through NumPy as in PyTorch, so the eigenvector phases agree).

The gradient is PyTorch's linalg_eig_backward: with E_ij = conj(L_j - L_i) (1 on the
diagonal), gA = V^-H (diag(gL) + (V^H gV - V^H V diag(re(V^H gV))) / E) V^H, and its real part
for a real A.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype, return_types
from engine._layout import lapack
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record_multi

linalg_eig_type = return_types._make("linalg_eig", ("eigenvalues", "eigenvectors"))

_PHASE = (
    "linalg_eig_backward: The eigenvectors in the complex case are specified up to "
    "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it "
    "is ill-defined."
)


def _eig(A: Tensor) -> list[Tensor]:
    a = A._d
    if _dtype.kind(a.dtype) in "iub":
        from engine.ops.inplace import type_name

        name = type_name(_dtype.from_numpy(a.dtype))
        raise RuntimeError(f"Unknown Complex ScalarType for {name}")
    if a.ndim < 2:
        raise RuntimeError("linalg.eig: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            f"linalg.eig: A must be batches of square matrices, but they are {a.shape[-2]} by "
            f"{a.shape[-1]} matrices"
        )
    w, v = np.linalg.eig(a)
    ct = _dtype.from_numpy(a.dtype).to_complex().np
    keep = {"_real_in": _dtype.kind(a.dtype) != "c"}  # a real A takes the real part
    saves = ("eigenvalues", "eigenvectors")
    return record_multi(
        LinalgEigBackward0, [w.astype(ct), lapack(v.astype(ct))], (A,), keep=keep, out_saved=saves
    )


def eig(A: Tensor, *, out: Any = None) -> Any:
    """Eigenvalues and (unit-norm) eigenvectors of a square matrix, both complex."""
    return linalg_eig_type(_eig(A))


def eigvals(A: Tensor, *, out: Any = None) -> Tensor:
    """The (complex) eigenvalues of a square matrix."""
    return _eig(A)[0]


class LinalgEigBackward0(OpNode):
    __slots__ = ()
    _name = "LinalgEigBackward0"
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.complex import adjoint, conj, real
        from engine.ops.complex_grad import real_grad
        from engine.ops.linalg_solve import solve
        from engine.ops.matmul import matmul
        from engine.ops.shape_composite import diag_embed
        from engine.ops.tensor_shape import diagonal

        gl, gv = grads
        lam: Any = self.saved("eigenvalues")
        v: Any = self.saved("eigenvectors")
        vh = adjoint(v)
        if gv is None:
            ret: Any = diag_embed(gl)  # type: ignore[arg-type]
        else:
            vhgv: Any = matmul(vh, gv)
            im = vhgv._d.diagonal(0, -2, -1).imag
            if not np.allclose(im, 0, rtol=1e-2, atol=1e-2):
                raise RuntimeError(_PHASE)
            diag_re = real(diagonal(vhgv, 0, -2, -1))
            ret = vhgv - matmul(vh, v * diag_re.unsqueeze(-2))
            lc: Any = conj(lam)
            e = lc.unsqueeze(-2) - lc.unsqueeze(-1)
            eye = np.eye(lam._d.shape[-1], dtype=lam._d.dtype)
            ret = ret / (e + make(eye, False, None, 0))
            if gl is not None:
                ret = ret - diag_embed(diagonal(ret, 0, -2, -1)) + diag_embed(gl)
        ga = solve(vh, matmul(ret, vh))
        return [real_grad(ga) if self.__dict__.get("_real_in") else ga]
