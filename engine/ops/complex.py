"""Complex tensors: `torch.complex`, `view_as_real`/`view_as_complex`, `.real`/`.imag`, `conj`,
`vdot`, conjugate transposes, and PyTorch's refusals for complex dtypes (abs/angle/sgn/polar are
in complex_polar.py).

These ops are not holomorphic, so their nodes carry their own formula (`_complex_aware`);
every other op gets its complex gradient from its real one (engine/ops/complex_grad.py).
`.real`/`.imag` are, as in PyTorch, `view_as_real(z).select(-1, 0 or 1)`: writable views.
`conj` is eager here (a copy flagged `is_conj()`), not PyTorch's lazy view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine._upper import UPPER
from engine._warn import warn
from engine.autograd.node import Grads
from engine.ops._core import OpNode, broadcast_error, in_shape, record, unbroadcast
from engine.ops.complex_grad import conj_grad
from engine.ops.shape import as_view
from engine.ops.table import Op


def _is_c(t: Tensor) -> bool:
    return bool(_dtype.kind(t._d.dtype) == "c")


def type_title(d: np.dtype[Any]) -> str:
    """ATen's scalar type name (`ComplexFloat`, `Long`, ...)."""
    from engine.ops.inplace import type_name

    return type_name(_dtype.from_numpy(d))


def not_implemented(kernel: str, t: Tensor) -> NotImplementedError:
    """PyTorch's `"lt_cpu" not implemented for 'ComplexFloat'`."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{type_title(t._d.dtype)}'")


def _real_np(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A complex array's (..., 2) real view (NumPy shares the memory)."""
    return a[..., None].view(a.real.dtype)


# -- complex / polar ---------------------------------------------------------------------
def _pair_check(real: Tensor, imag: Tensor) -> None:
    rd, idt = real._d.dtype, imag._d.dtype
    if _dtype.kind(rd) != "f" or _dtype.kind(idt) != "f":
        raise RuntimeError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{type_title(rd)} and {type_title(idt)}"
        )
    if rd != idt:
        raise RuntimeError(
            f"Expected object of scalar type {type_title(rd)} but got scalar type "
            f"{type_title(idt)} for second argument"
        )


def complex(real: Tensor, imag: Tensor) -> Tensor:
    """`real + 1j * imag` as a complex tensor (broadcasting)."""
    _pair_check(real, imag)
    try:
        re, im = np.broadcast_arrays(real._d, imag._d)
    except ValueError as e:
        raise broadcast_error(real._d, imag._d, e) from None
    out = np.empty(re.shape, _dtype.from_numpy(re.dtype).to_complex().np)
    out.real, out.imag = re, im
    shapes = (real._d.shape, imag._d.shape)
    return record(ComplexBackward0, out, (real, imag), {"real": real, "imag": imag}, None, shapes)


class ComplexBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "ComplexBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        gr = unbroadcast(real(g), in_shape(self, 0, g)) if self.needs(0) else None
        gi = unbroadcast(imag(g), in_shape(self, 1, g)) if self.needs(1) else None
        return [gr, gi]


# -- views -------------------------------------------------------------------------------
def view_as_real(self: Tensor) -> Tensor:
    """The (..., 2) float view of a complex tensor."""
    if not _is_c(self):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if self.__dict__.get("_conj"):
        raise RuntimeError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be "
            "warned that the resulting tensor will NOT alias the original."
        )
    out = record(ViewAsRealBackward0, _real_np(self._d), (self,))
    return as_view(out, self, _real_np)


class ViewAsRealBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "ViewAsRealBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [view_as_complex(g if g._d.flags.c_contiguous else _contiguous(g))]


def _contiguous(g: Tensor) -> Tensor:
    from engine.ops.tensor_shape import contiguous

    return contiguous(g)


def _complex_np(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return a.view(np.result_type(a.dtype, np.complex64))[..., 0]


def view_as_complex(self: Tensor) -> Tensor:
    """The complex view of a (..., 2) float tensor."""
    d = self._d
    if _dtype.kind(d.dtype) != "f":
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got a "
            f"tensor of scalar type: {type_title(d.dtype)}"
        )
    if d.ndim == 0 or d.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    item = d.itemsize
    if d.strides[-1] != item:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any((s // item) % 2 for s, n in zip(d.strides[:-1], d.shape[:-1]) if n > 1):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    out = record(ViewAsComplexBackward0, _complex_np(d), (self,))
    return as_view(out, self, _complex_np)


class ViewAsComplexBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "ViewAsComplexBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [view_as_real(g)]


def real(self: Tensor) -> Tensor:
    """The real part: a view for complex tensors, `self` for real ones."""
    if not _is_c(self):
        return self
    from engine.ops.index import select

    return select(view_as_real(_resolved(self)), -1, 0)


def imag(self: Tensor) -> Tensor:
    """The imaginary part (a view); real tensors have none."""
    if not _is_c(self):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    from engine.ops.index import select

    return select(view_as_real(_resolved(self)), -1, 1)


def _resolved(t: Tensor) -> Tensor:
    # the engine's conj is eager: its data is already conjugated, only the flag needs dropping
    if not t.__dict__.get("_conj"):
        return t
    out = make(t._d, t._rg, t._fn, t._nr)
    out._ver = t._ver
    return out


# -- conj --------------------------------------------------------------------------------
def conj(self: Tensor) -> Tensor:
    """Complex conjugate (`self` for real tensors); PyTorch's lazy conj bit is `is_conj()`."""
    if not _is_c(self):
        return self
    out = record(ConjBackward0, np.conj(self._d), (self,))
    if not self.__dict__.get("_conj"):
        out.__dict__["_conj"] = True
    return out


class ConjBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "ConjBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [conj(g) if _is_c(g) else g]


def conj_physical(self: Tensor) -> Tensor:
    """Complex conjugate into new memory."""
    if not _is_c(self):
        return record(ConjPhysicalBackward0, self._d.copy(), (self,))
    return record(ConjPhysicalBackward0, np.conj(self._d), (self,))


class ConjPhysicalBackward0(OpNode):
    __slots__ = ()
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)
    _name = "ConjPhysicalBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [conj_physical(g) if _is_c(g) else g]


def resolve_conj(self: Tensor) -> Tensor:
    """A tensor without the conj bit: a clone of a conjugate view, else `self`."""
    if not self.__dict__.get("_conj"):
        return self
    from engine.ops.tensor_shape import clone

    return clone(self)


def is_conj(self: Tensor) -> bool:
    return bool(self.__dict__.get("_conj", False))


def resolve_neg(self: Tensor) -> Tensor:
    return self


def is_neg(self: Tensor) -> bool:
    return False


def is_complex(self: Any) -> bool:
    """True for complex tensors."""
    if not isinstance(self, Tensor):
        raise TypeError(
            f"is_complex(): argument 'input' (position 1) must be Tensor, not {type(self).__name__}"
        )
    return _is_c(self)


# -- conjugate transposes ----------------------------------------------------------------
def adjoint(self: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims."""
    from engine.ops.transpose import transpose

    if self._d.ndim < 2:
        raise RuntimeError(
            f"tensor.adjoint() is only supported on matrices or batches of matrices. Got "
            f"{self._d.ndim}-D tensor."
        )
    return conj(transpose(self, -2, -1))


def _mH(self: Tensor) -> Tensor:
    from engine.ops.transpose import transpose

    if self._d.ndim < 2:
        raise RuntimeError(
            f"tensor.mH is only supported on matrices or batches of matrices. Got "
            f"{self._d.ndim}-D tensor."
        )
    return conj(transpose(self, -2, -1))


def _H(self: Tensor) -> Tensor:
    from engine.ops.transpose import transpose

    nd = self._d.ndim
    if nd == 0:
        warn(_H_0D, UserWarning)
        return conj(self)
    if nd != 2:
        more = " For batches of matrices, consider using tensor.mH" if nd > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {nd}-D tensor.{more}"
        )
    return conj(transpose(self, 0, 1))


_H_0D = (
    "Tensor.H is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4335.)"
)


mH = property(_mH)
H = property(_H)


def no_order(what: str, t: Tensor) -> Exception:
    """PyTorch's refusal to order complex numbers (`max_all`, `argmax()`, ...)."""
    if what.endswith("()"):
        return RuntimeError(f"{what}: does not support complex input")
    return not_implemented(what, t)


def vdot_complex(self: Tensor, other: Tensor) -> Tensor:
    """sum(conj(self) * other) for complex vectors."""
    from engine.ops.linalg import dot

    dot(make(self._d, False, None, 0), make(other._d, False, None, 0))  # PyTorch's checks
    out = np.asarray(np.vdot(self._d, other._d))
    return record(VdotBackward0, out, (self, other), {"other": other, "self": self})


class VdotBackward0(OpNode):
    """Not holomorphic in `self`: d/dself takes conj(g), d/dother takes g."""

    __slots__ = ()
    _name = "VdotBackward0"
    _listed = False  # op_nodes() lists the real op's (engine/ops/linalg.py)
    _complex_aware = True  # its formula conjugates where needed (ops/complex_grad.py)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        return [
            conj_grad(g) * self.saved("other") if self.needs(0) else None,
            g * self.saved("self") if self.needs(1) else None,
        ]


def cfloat(self: Tensor) -> Tensor:
    from engine.ops.convert import to

    return to(self, _dtype.complex64)


def cdouble(self: Tensor) -> Tensor:
    from engine.ops.convert import to

    return to(self, _dtype.complex128)


def isreal(self: Tensor) -> Tensor:
    """True where the imaginary part is 0 (everywhere for real tensors)."""
    d = self._d
    return make(
        d.imag == 0 if _dtype.kind(d.dtype) == "c" else np.ones(d.shape, bool), False, None, 0
    )


def real_pairs(t: Tensor) -> Tensor:
    """A plain (..., 2) float tensor on a complex tensor's memory (for optimizer steps)."""
    return make(_real_np(t._d), False, None, 0)


UPPER.real = real
UPPER.imag = imag

OPS = [
    Op("conj", conj),
    Op("conj_physical", conj_physical, inplace=True, out=True),
    Op("resolve_conj", resolve_conj),
    Op("resolve_neg", resolve_neg),
    Op("is_conj", is_conj),
    Op("is_neg", is_neg),
    Op("adjoint", adjoint),
    Op("mH", mH, function=False),
    Op("H", H, function=False),
    Op("cfloat", cfloat, function=False),
    Op("cdouble", cdouble, function=False),
    Op("isreal", isreal),
    Op("complex", complex, method=False, out=True),
    Op("view_as_real", view_as_real, method=False),
    Op("view_as_complex", view_as_complex, method=False),
    Op("real", real, method=False),
    Op("imag", imag, method=False),
    Op("is_complex", is_complex, method=False),
]
