"""float32 `log` and `sincos` as ATen's AVX2 kernels compute them (`avx_mathfun.h`).

`torch.randn` of 16+ contiguous float32 elements runs Box-Muller through these Cephes
polynomials, not libm, and the wheel's compiler fuses each multiply into the add that consumes
it. numpy's float32 `log`/`cos` differ from them in the last bit for about one value in seven,
which `randn(4, 4) * 1000` prints; every step below is one rounded float32 operation or one fma.

>>> log_f32(np.array([1.0], np.float32))
array([0.], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.float32
Array = np.ndarray[Any, Any]

_LOG_POLY = (
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
)
_LN2_HI, _LN2_LO = 0.693359375, -2.12194440e-4  # ln 2 split so e * hi is exact
_PI4_PARTS = (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)  # -pi/4, split
_COS_POLY = (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
_SIN_POLY = (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
_SIGN = np.uint32(0x80000000)


def fma_f32(a: Any, b: Any, c: Any) -> Array:
    """float32 `a * b + c` rounded once (a float32 product is exact in float64)."""
    wide = np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)
    return wide.astype(F32)


def _horner(coefs: tuple[float, ...], x: Array) -> Array:
    y = np.full_like(x, F32(coefs[0]))
    for c in coefs[1:]:
        y = fma_f32(y, x, F32(c))
    return y


def log_f32(x: Array) -> Array:
    """Natural log of positive normal float32 values: exponent plus a polynomial in the mantissa."""
    x = np.maximum(x.astype(F32), np.array(0x00800000, np.uint32).view(F32))
    bits = x.view(np.uint32)
    e = ((bits >> np.uint32(23)).astype(np.int32) - 0x7F).astype(F32) + F32(1)
    m = ((bits & np.uint32(0x807FFFFF)) | np.array(0.5, F32).view(np.uint32)).view(F32)
    small = m < F32(0.707106781186547524)  # mantissa in [0.5, sqrt(1/2)): use 2m, e - 1
    m = (m - F32(1)) + np.where(small, m, F32(0))
    e = e - np.where(small, F32(1), F32(0))
    z = m * m
    y = _horner(_LOG_POLY, m) * m
    y = fma_f32(y, z, e * F32(_LN2_LO))
    y = fma_f32(z, F32(-0.5), y)
    return fma_f32(e, F32(_LN2_HI), m + y)


def sincos_f32(t: Array) -> tuple[Array, Array]:
    """(sin t, cos t) of float32 values: reduce by pi/4 in three parts, then two polynomials."""
    t = t.astype(F32)
    sign_sin = t.view(np.uint32) & _SIGN
    x = np.abs(t)
    j = (x * F32(1.27323954473516)).astype(np.int32)  # 4/pi, truncated as cvttps does
    j = (j + 1) & ~1
    q = j.astype(F32)
    sign_sin = sign_sin ^ ((j & 4).astype(np.uint32) << np.uint32(29))
    sign_cos = ((~(j - 2)) & 4).astype(np.uint32) << np.uint32(29)
    for part in _PI4_PARTS:
        x = fma_f32(q, F32(part), x)
    z = x * x
    yc = _horner(_COS_POLY, z) * z
    yc = fma_f32(yc, z, -(z * F32(0.5))) + F32(1)
    ys = fma_f32(_horner(_SIN_POLY, z) * z, x, x)
    sine_poly = (j & 2) == 0
    s = np.where(sine_poly, ys, yc)
    c = np.where(sine_poly, yc, ys)
    return (s.view(np.uint32) ^ sign_sin).view(F32), (c.view(np.uint32) ^ sign_cos).view(F32)
