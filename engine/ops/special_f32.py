"""PyTorch's float32 CPU kernels for special functions, step for step in float32 arithmetic.

PyTorch evaluates these in `float` for float32 tensors (ATen's `Math.h`), so a float64 result
rounded to float32 can be hundreds of ulps away from PyTorch's (digamma's recurrence piles up
float rounding). Each function here takes and returns float32 arrays and repeats the kernel's
operations in the same order, so every intermediate is rounded as in C.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]
f32 = np.float32
_PI = f32(np.pi)


def _polevl(x: Array, coefs: list[float]) -> Array:
    """Cephes' polevl: Horner's rule in float32."""
    acc = np.full_like(x, f32(coefs[0]))
    for c in coefs[1:]:
        acc = acc * x + f32(c)
    return acc


_PSI_A = [
    8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
    -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
]  # fmt: skip


def _digamma_pos(x: Array) -> Array:
    """calc_digamma for x > 0: recurrence up to 10, then the asymptotic series."""
    x = x.copy()
    result = np.zeros_like(x)
    low = x < 10
    while low.any():
        result[low] -= f32(1) / x[low]
        x[low] += f32(1)
        low = x < 10
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        z = f32(1) / (x * x)
        y = np.where(x < f32(1e17), z * _polevl(z, _PSI_A), f32(0))
        out = result + np.log(x.astype(np.float64)).astype(f32) - (f32(0.5) / x) - y
    return np.where(x == 10, result + f32(2.25175258906672110764), out)


def digamma(x: Array) -> Array:
    """ATen's calc_digamma(float): reflection below 0 (in double, as ATen), NaN at poles."""
    x = np.asarray(x, f32)
    neg = x < 0
    pos_in = np.where(neg, f32(1) - x, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        res = _digamma_pos(np.where(pos_in > 0, pos_in, f32(1)))
        r = np.modf(x.astype(np.float64))[0]
        corr = (np.pi / np.tan(np.pi * r)).astype(f32)
    res = np.where(neg, res - corr, res)
    res = np.where(neg & (x == np.trunc(x)), f32(np.nan), res)
    res = np.where(x == 0, np.copysign(f32(np.inf), -x), res)
    return np.where(np.isnan(x), x, res).astype(f32)


def trigamma(x: Array) -> Array:
    """ATen's calc_trigamma(float)."""
    x = np.asarray(x, f32).copy()
    sign: Array = np.ones_like(x)
    result: Array = np.zeros_like(x)
    small = x < f32(0.5)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        sin_pi_x = np.sin((_PI * x).astype(np.float64)).astype(f32)
        result = np.where(small, result - (_PI * _PI) / (sin_pi_x * sin_pi_x), result)
        sign = np.where(small, f32(-1), sign)
        x = np.where(small, f32(1) - x, x)
        for _ in range(6):
            result = result + f32(1) / (x * x)
            x = x + f32(1)
        ixx = f32(1) / (x * x)
        tail = f32(1.0 / 6) - ixx * (f32(1.0 / 30) - ixx * f32(1.0 / 42))
        result = result + (f32(1) + f32(1) / (f32(2) * x) + ixx * tail) / x
    out: Array = (sign * result).astype(f32)
    return out


def _f(fn: Any, x: Array) -> Array:
    """A libm function of float32 x, correctly rounded (glibc's float versions are, in
    practice): computed in float64 and rounded once."""
    out: Array = np.asarray(fn(x.astype(np.float64))).astype(f32)
    return out


def entr(x: Array) -> Array:
    """ATen's entr: -x * log(x) in float, 0 at 0, -inf below 0."""
    x = np.asarray(x, f32)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = -x * _f(np.log, np.where(x > 0, x, f32(1)))
    out = np.where(x > 0, pos, np.where(x == 0, f32(0), f32(-np.inf)))
    return np.where(np.isnan(x), x, out).astype(f32)


def log_ndtr(x: Array, erfc: Any, erfcx: Any) -> Array:
    """ATen's calc_log_ndtr(float): log(erfcx(-t) / 2) - t * t below -1, else
    log1p(-erfc(t) / 2), with t = x / sqrt(2)."""
    x = np.asarray(x, f32)
    t = x * f32(0.707106781186547524400844362104849039)
    with np.errstate(divide="ignore", invalid="ignore"):
        low = _f(np.log, _f(erfcx, -t) / f32(2)) - t * t
        high = _f(np.log1p, -_f(erfc, t) / f32(2))
    return np.where(x < f32(-1), low, high).astype(f32)


# -- modified Bessel functions of order 0 and 1 (Cephes' Chebyshev series, as in ATen) -------
_I0E_A = [
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
    1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
    1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
    1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1,
]  # fmt: skip
_I0E_B = [
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
    2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1,
]  # fmt: skip
# ATen's float versions of the i1e series are shortened (the double ones are longer)
_I1E_A = [
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1,
]  # fmt: skip
_I1E_B = [
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1,
]  # fmt: skip


def _chbevl(x: Array, coefs: list[float]) -> Array:
    """Cephes' chbevl (Clenshaw's recurrence) in float32."""
    b0, b1, b2 = np.full_like(x, f32(coefs[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coefs[1:]:
        b2, b1 = b1, b0
        b0 = (x.astype(np.float64) * b1 - b2).astype(f32) + f32(c)  # fma(x, b1, -b2)
    out: Array = f32(0.5) * (b0 - b2)
    return out


def _bessel(x: Array, a: list[float], b: list[float], scaled: bool, odd: bool) -> Array:
    """ATen's calc_i0/i0e/i1/i1e(float): a series on [0, 8], another on (8, inf)."""
    x = np.asarray(x, f32)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        small = _chbevl(ax / f32(2) - f32(2), a)
        big = _chbevl(f32(32) / ax - f32(2), b)
        e = _f(np.exp, ax)
        sq = np.sqrt(ax)
        if odd:
            lo = small * ax if scaled else e * ax * small
            hi = big / sq if scaled else (e * big) / sq
        else:
            lo = small if scaled else e * small
            hi = big / sq if scaled else e * big / sq
    out = np.where(ax <= f32(8), lo, hi)
    if odd:
        out = np.where(x < 0, -out, out)
    return np.where(np.isnan(x), x, out).astype(f32)


def i0(x: Array) -> Array:
    return _bessel(x, _I0E_A, _I0E_B, False, False)


def i0e(x: Array) -> Array:
    return _bessel(x, _I0E_A, _I0E_B, True, False)


def i1(x: Array) -> Array:
    return _bessel(x, _I1E_A, _I1E_B, False, True)


def i1e(x: Array) -> Array:
    return _bessel(x, _I1E_A, _I1E_B, True, True)


# -- the inverse of the normal CDF (Cephes' ndtri, as in ATen) --------------------------------
_NDTRI_P0 = [-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0]  # fmt: skip
_NDTRI_Q0 = [1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0]  # fmt: skip
_NDTRI_P1 = [4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2,
             -8.57456785154685413611e-4]  # fmt: skip
_NDTRI_Q1 = [1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4]  # fmt: skip
_NDTRI_P2 = [3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6,
             6.23974539184983293730e-9]  # fmt: skip
_NDTRI_Q2 = [1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9]  # fmt: skip


def _polevl_fma(x: Array, coefs: list[float]) -> Array:
    """polevl with each step fused (result * x + c rounded once), as the compiler emits it."""
    acc = np.full_like(x, f32(coefs[0]))
    for c in coefs[1:]:
        acc = (acc.astype(np.float64) * x + f32(c)).astype(f32)
    return acc


def ndtri(y0: Array) -> Array:
    """ATen's calc_ndtri(float)."""
    y0 = np.asarray(y0, f32)
    one, e2 = f32(1), f32(0.13533528323661269189)
    flip = y0 > one - e2
    y = np.where(flip, one - y0, y0)
    with np.errstate(all="ignore"):
        yc = y - f32(0.5)
        y2 = yc * yc
        ratio = y2 * _polevl_fma(y2, _NDTRI_P0) / _polevl_fma(y2, _NDTRI_Q0)
        # y + y * ratio is fused; `::log` is the double one, so the tail's steps run in double
        central = (yc + yc.astype(np.float64) * ratio).astype(f32) * f32(2.50662827463100050242)
        yd = np.where(y > 0, y, one).astype(np.float64)
        x = np.sqrt(-2.0 * np.log(yd)).astype(f32)
        xd = x.astype(np.float64)
        x0 = (xd - np.log(xd) / xd).astype(f32)
        z = one / x
        x1 = np.where(
            x < f32(8),
            z * _polevl_fma(z, _NDTRI_P1) / _polevl_fma(z, _NDTRI_Q1),
            z * _polevl_fma(z, _NDTRI_P2) / _polevl_fma(z, _NDTRI_Q2),
        )
        tail = x0 - x1
    out = np.where(y > e2, central, np.where(flip, tail, -tail))
    out = np.where(y0 == 0, f32(-np.inf), np.where(y0 == one, f32(np.inf), out))
    return np.where((y0 < 0) | (y0 > one) | np.isnan(y0), f32(np.nan), out).astype(f32)
