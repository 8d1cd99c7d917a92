"""`torch.return_types`: the named tuples of ops with several results (max with dim, sort, ...).

>>> r = engine.tensor([[1.0, 3.0]]).max(1)
>>> r.values, r.indices
(tensor([3.]), tensor([1]))
"""

from __future__ import annotations

from typing import Any


class _StructSeq(tuple[Any, ...]):
    """A PyTorch structseq: a tuple with named fields and PyTorch's multi-line repr."""

    __slots__ = ()
    _field_names: tuple[str, ...] = ()

    def __new__(cls, seq: Any) -> _StructSeq:
        items = tuple(seq)
        n = len(cls._field_names)
        if len(items) != n:
            raise TypeError(
                f"torch.return_types.{cls.__name__}() takes a {n}-sequence "
                f"({len(items)}-sequence given)"
            )
        return super().__new__(cls, items)

    @property
    def n_fields(self) -> int:
        return len(self._field_names)

    @property
    def n_sequence_fields(self) -> int:
        return len(self._field_names)

    def __repr__(self) -> str:
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._field_names, self))
        return f"torch.return_types.{type(self).__name__}(\n{body})"

    def __reduce__(self) -> Any:
        return (type(self), (tuple(self),))


def _getter(i: int) -> Any:
    def get(self: tuple[Any, ...]) -> Any:
        return self[i]

    return get


def _make(name: str, fields: tuple[str, ...]) -> type[_StructSeq]:
    ns: dict[str, Any] = {
        "__slots__": (),
        "_field_names": fields,
        "__module__": "torch.return_types",
    }
    for i, f in enumerate(fields):
        ns[f] = property(_getter(i))
    cls = type(name, (_StructSeq,), ns)
    cls.__qualname__ = name
    return cls


_VI = ("values", "indices")
max = _make("max", _VI)
min = _make("min", _VI)
sort = _make("sort", _VI)
topk = _make("topk", _VI)
median = _make("median", _VI)
histogram = _make("histogram", ("hist", "bin_edges"))
nanmedian = _make("nanmedian", _VI)
mode = _make("mode", _VI)
kthvalue = _make("kthvalue", _VI)
geqrf = _make("geqrf", ("a", "tau"))
cummax = _make("cummax", _VI)
cummin = _make("cummin", _VI)
aminmax = _make("aminmax", ("min", "max"))
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))
svd = _make("svd", ("U", "S", "V"))
linalg_eigh = _make("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_qr = _make("linalg_qr", ("Q", "R"))
qr = _make("qr", ("Q", "R"))
linalg_slogdet = _make("linalg_slogdet", ("sign", "logabsdet"))
slogdet = _make("slogdet", ("sign", "logabsdet"))
linalg_lstsq = _make("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
linalg_inv_ex = _make("linalg_inv_ex", ("inverse", "info"))
linalg_cholesky_ex = _make("linalg_cholesky_ex", ("L", "info"))
linalg_solve_ex = _make("linalg_solve_ex", ("result", "info"))
frexp = _make("frexp", ("mantissa", "exponent"))
linalg_lu = _make("linalg_lu", ("P", "L", "U"))
linalg_lu_factor = _make("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _make("linalg_lu_factor_ex", ("LU", "pivots", "info"))
lu_unpack = _make("lu_unpack", ("P", "L", "U"))
histogramdd = _make("histogramdd", ("hist", "bin_edges"))
triangular_solve = _make("triangular_solve", ("solution", "cloned_coefficient"))
linalg_ldl_factor = _make("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _make("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
_lu_with_info = _make("_lu_with_info", ("LU", "pivots", "info"))

# what the same ops return with `out=` (engine/ops/out_params.py): `max_out` for `max`
for _kind in (
    max, min, sort, topk, median, histogram, nanmedian, mode, kthvalue, geqrf, cummax, cummin,
    aminmax, linalg_svd, svd, linalg_eigh, linalg_qr, qr, linalg_slogdet, slogdet, linalg_lstsq,
    linalg_inv_ex, linalg_cholesky_ex, linalg_solve_ex, frexp, linalg_lu, linalg_lu_factor,
    linalg_lu_factor_ex, lu_unpack, triangular_solve, linalg_ldl_factor, linalg_ldl_factor_ex,
):  # fmt: skip
    globals()[_kind.__name__ + "_out"] = _make(_kind.__name__ + "_out", _kind._field_names)
del _kind
