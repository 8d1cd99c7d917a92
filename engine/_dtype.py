"""dtypes with PyTorch's names and promotion rules."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np


class dtype:
    """A tensor element type (`torch.float32`, ...)."""

    __slots__ = ("category", "is_floating_point", "is_signed", "itemsize", "name", "np")

    def __init__(self, name: str, np_dtype: Any, category: int) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        # 0 bool, 1 integer, 2 floating, 3 complex: the order PyTorch promotes across categories.
        self.category = category
        self.is_floating_point = category == 2
        self.is_signed = category != 0 and self.np.kind != "u"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name

    @property
    def is_complex(self) -> bool:
        return self.category == 3

    def to_real(self) -> dtype:
        """The real dtype of a complex one (`complex64` -> `float32`); others are unchanged."""
        return _TO_REAL.get(self.name, self)

    def to_complex(self) -> dtype:
        """The complex dtype of a floating one (`float32` -> `complex64`)."""
        if self.category == 3:
            return self
        if self.category != 2 or self.name == "float16":
            return complex32 if self.name == "float16" else _complex_error(self)
        return complex128 if self.name == "float64" else complex64


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
# "limited support" in PyTorch: made, printed, converted, a few kernels; no promotion with others
uint16 = dtype("uint16", np.uint16, 1)
uint32 = dtype("uint32", np.uint32, 1)
uint64 = dtype("uint64", np.uint64, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
# NumPy has no bfloat16: ml_dtypes' is a NumPy dtype of kind "V" (see `kind` below)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
complex64 = dtype("complex64", np.complex64, 3)
complex128 = dtype("complex128", np.complex128, 3)
# NumPy has no half-precision complex: complex32 exists as a name only (never a tensor's dtype)
complex32 = dtype("complex32", np.complex64, 3)
complex32.itemsize = 4
_TO_REAL = {"complex64": float32, "complex128": float64, "complex32": float16}


def _complex_error(d: dtype) -> dtype:
    raise RuntimeError(f"to_complex is only supported for floating point types, got {d}")


ALL = (
    bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64,
    complex128, uint16, uint32, uint64,
)  # fmt: skip
BARELY_SUPPORTED = frozenset((uint16, uint32, uint64))
# how ATen's messages name a scalar type (`'UInt16'`, `Long`)
SCALAR_NAMES = {
    "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
    "int64": "Long", "float16": "Half", "bfloat16": "BFloat16", "float32": "Float",
    "float64": "Double", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
    "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
}  # fmt: skip


def refuse_barely(np_dtype: np.dtype[Any], kernel: str) -> None:
    """PyTorch's NotImplementedError for a kernel uint16/32/64 lack (`"add_stub"`)."""
    d = _BY_NP.get(np_dtype)
    if d in BARELY_SUPPORTED:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{SCALAR_NAMES[d.name]}'")


_BY_NP: dict[Any, dtype] = {d.np: d for d in ALL}
_BFLOAT16_NP = bfloat16.np


def kind(np_dtype: np.dtype[Any]) -> str:
    """NumPy's kind letter of an array dtype, with bfloat16 counted floating ("f", not "V").

    >>> kind(np.dtype(ml_dtypes.bfloat16))
    'f'
    """
    k = np_dtype.kind
    return k if k != "V" or np_dtype != _BFLOAT16_NP else "f"  # (bfloat16's kind is "V")


_default_float = float32


def from_numpy(np_dtype: Any) -> dtype:
    """The engine dtype of a NumPy dtype (float32 for anything floating it does not know)."""
    d = _BY_NP.get(np.dtype(np_dtype))
    if d is None:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint64, uint32, uint16, uint8, and bool."
        )
    return d


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats."""
    return _default_float


def set_default_dtype(d: dtype) -> None:
    """Change the default floating dtype (float32 or float64)."""
    global _default_float
    if not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default_float = d


def scalar_dtype(value: object) -> dtype:
    """The dtype PyTorch gives a tensor made from a Python scalar."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, complex):
        return default_complex()
    return _default_float


def default_complex() -> dtype:
    """complex128 when the default dtype is float64, else complex64 (PyTorch's rule)."""
    return complex128 if _default_float is float64 else complex64


def promote(a: dtype, b: dtype) -> dtype:
    """PyTorch's promotion of two tensor dtypes of equal standing."""
    if a is b:
        return a
    if (a in BARELY_SUPPORTED or b in BARELY_SUPPORTED) and 2 not in (a.category, b.category):
        raise RuntimeError(
            "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
            f"{SCALAR_NAMES[a.name]} and {SCALAR_NAMES[b.name]}"
        )
    if a.category == 3 or b.category == 3:
        return _promote_complex(a, b)
    if {a.name, b.name} == {"bfloat16", "float16"}:  # neither holds the other: float32
        return float32
    return (
        from_numpy(np.promote_types(a.np, b.np))
        if a.category == b.category
        else (a if a.category > b.category else b)
    )


def _promote_complex(a: dtype, b: dtype) -> dtype:
    """Promotion with a complex side: the wider of the complex and the other's precision."""
    if a.category == 3 and b.category == 3:
        return a if a.itemsize >= b.itemsize else b
    c, other = (a, b) if a.category == 3 else (b, a)
    return complex128 if other is float64 else c


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """c10's combine_categories, for tiers where a complex dtype takes part."""
    if higher is None:
        return lower
    if lower is None or higher.category == 3:
        return higher
    if lower.category == 3:
        # a float tier keeps its precision; an integer one takes the complex dtype
        return higher.to_complex() if higher.category == 2 else lower
    if higher.category == 2:
        return higher
    if higher is bool_ or lower.category == 2:
        return promote(higher, lower)
    return higher


def _result_type_complex(dims: list[tuple[dtype, int]], scalars: list[object]) -> dtype:
    dim_res = zero_res = wrapped = None
    for d, nd in dims:
        if nd > 0:
            dim_res = d if dim_res is None else promote(dim_res, d)
        else:
            zero_res = d if zero_res is None else promote(zero_res, d)
    for s in scalars:
        sd = scalar_dtype(s)
        wrapped = sd if wrapped is None else promote(wrapped, sd)
    result = _combine(dim_res, _combine(zero_res, wrapped))
    assert result is not None
    return result


def result_type(dims: list[tuple[dtype, int]], scalars: list[object]) -> dtype:
    """Promotion with PyTorch's three tiers: dimensioned tensors, 0-dim tensors, Python scalars.

    A lower tier only matters when it is of a higher category (bool < int < float) than
    everything above it: `int64_tensor * 2.5` is float32, `float32_tensor * float64_0dim` is
    float32.
    """
    if any(d.category == 3 for d, _ in dims) or any(type(s) is complex for s in scalars):
        return _result_type_complex(dims, scalars)
    dimmed = [d for d, nd in dims if nd > 0]
    zero = [d for d, nd in dims if nd == 0]
    result: dtype | None = None
    for d in dimmed:
        result = d if result is None else promote(result, d)
    zres: dtype | None = None
    for d in zero:
        zres = d if zres is None else promote(zres, d)
    if result is None or (zres is not None and zres.category > result.category):
        result = zres
    for s in scalars:
        sd = scalar_dtype(s)
        if result is None:
            result = sd
        elif sd.category > result.category:
            result = _default_float if sd.category == 2 else sd
    assert result is not None
    return result


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """`torch.promote_types`: the dtype both convert to, ignoring dimensions."""
    return promote(type1, type2)


def result_type_of(tensor1: Any, tensor2: Any) -> dtype:
    """`torch.result_type(a, b)`: the dtype an arithmetic op on `a` and `b` produces."""
    dims: list[tuple[dtype, int]] = []
    scalars: list[object] = []
    for x in (tensor1, tensor2):
        if hasattr(x, "_d"):
            dims.append((from_numpy(x._d.dtype), x._d.ndim))
        else:
            scalars.append(x)
    return result_type(dims, scalars)


_C_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int"}


def check_scalar_fits(value: Any, np_dtype: Any) -> None:
    """PyTorch's error for an integer scalar outside an integer dtype's range (no wrapping)."""
    d = np.dtype(np_dtype)
    if type(value) is int and d.kind in "iu":
        info = np.iinfo(d)
        if not info.min <= value <= info.max:
            c_name = _C_NAMES.get(d.name, "int64_t")
            raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")


# how ATen's messages (TensorOptions, dtype checks) name a scalar type: `float != double`
CPP_NAMES = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "uint16": "short unsigned int",
    "uint32": "unsigned int",
    "uint64": "long unsigned int",
    "bool": "bool",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


# how PyTorch's casting errors name a dtype: `Float`, `Long`
_TYPE_NAMES = {
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "uint16": "UInt16",
    "uint32": "UInt32",
    "uint64": "UInt64",
    "bool": "Bool",
    "complex64": "ComplexFloat",
    "complex128": "ComplexDouble",
}


def type_name(d: dtype) -> str:
    """`Float`, `Long`: how PyTorch's casting errors name a dtype."""
    return _TYPE_NAMES[d.name]


def scalar_type_name(name: str) -> str:
    """`type_name` by NumPy dtype name (the name itself for a type PyTorch has not)."""
    return _TYPE_NAMES.get(name, name)


# the legacy tensor type names (`x.type()`, version errors): `torch.FloatTensor`
_LEGACY = {
    "float32": "torch.FloatTensor",
    "float64": "torch.DoubleTensor",
    "float16": "torch.HalfTensor",
    "bfloat16": "torch.BFloat16Tensor",
    "uint16": "torch.UInt16Tensor",
    "uint32": "torch.UInt32Tensor",
    "uint64": "torch.UInt64Tensor",
    "int64": "torch.LongTensor",
    "int32": "torch.IntTensor",
    "int16": "torch.ShortTensor",
    "int8": "torch.CharTensor",
    "uint8": "torch.ByteTensor",
    "bool": "torch.BoolTensor",
    "complex64": "torch.ComplexFloatTensor",
    "complex128": "torch.ComplexDoubleTensor",
}


def legacy_type_name(dt: Any) -> str:
    """`torch.FloatTensor` style name of a dtype (engine or NumPy)."""
    name = dt.name if hasattr(dt, "name") else str(dt)
    return _LEGACY.get(str(name), "torch.FloatTensor")
