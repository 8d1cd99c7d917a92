"""Window functions: `hann_window`, `hamming_window`, `blackman_window`, `bartlett_window`,
`kaiser_window`, computed as ATen computes them (an `arange` in the output dtype and a chain of
in-place ops, each rounded to that dtype, its scalars too), so windows carry PyTorch's
roundings (`blackman_window(5)[0]` is -2.9802e-08, not 0).

>>> torch.hann_window(4)
tensor([0.0000, 0.5000, 1.0000, 0.5000])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._arg_parser import FACTORY, ArgParser
from engine._from_data import _finish
from engine._tensor import Tensor
from engine.ops import special_f32
from engine.ops.table import Op

Array = np.ndarray[Any, Any]


class _Ops:
    """ATen's arithmetic in one floating dtype: each result rounded to it, computed in its
    `opmath` type (float for half), scalars rounded to that type."""

    def __init__(self, dt: np.dtype[Any]) -> None:
        self.dt = dt
        self.op = np.dtype(np.float64) if dt == np.float64 else np.dtype(np.float32)

    def s(self, v: float) -> Any:
        return self.op.type(self.dt.type(v))

    def cos(self, a: Array) -> Array:
        """Correctly rounded: ATen's vectorised (Sleef, 1-ulp) cosine may differ by an ulp, so
        float32 windows agree with PyTorch's to an ulp; float16 and float64 ones exactly."""
        out: Array = np.cos(a.astype(np.float64)).astype(self.dt)
        return out

    def __call__(self, fn: Callable[..., Array], *args: Any) -> Array:
        wide = [a.astype(self.op) if isinstance(a, np.ndarray) else a for a in args]
        out: Array = np.asarray(fn(*wide)).astype(self.dt)
        return out


def _options(name: str, dtype: Any, window_length: Any) -> np.dtype[Any]:
    """ATen's window_function_checks: an int length, a floating dtype, a length >= 0."""
    w = window_length
    if isinstance(w, Tensor) and w._d.ndim == 0 and _dtype.kind(w._d.dtype) in "iu":
        window_length = window_length._d.item()  # the argument parser takes a 0-d int tensor
    if isinstance(window_length, bool) or not isinstance(window_length, int | np.integer):
        raise TypeError(
            f"{name}(): argument 'window_length' (position 1) must be int, not "
            f"{type(window_length).__name__}"
        )
    dt = dtype if dtype is not None else _dtype.get_default_dtype()
    if not isinstance(dt, _dtype.dtype):
        dt = _dtype.from_numpy(np.dtype(dt))
    if dt.name in ("complex64", "complex128"):
        cname = "ComplexFloat" if dt.name == "complex64" else "ComplexDouble"
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{cname}'")
    if not dt.is_floating_point:
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype="
            f"{_dtype.CPP_NAMES.get(dt.name, dt.name)}, device=cpu, layout=Strided (default), "
            "requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))"
        )
    if window_length < 0:
        raise RuntimeError(
            f"{name} requires non-negative window_length, got window_length={window_length}"
        )
    npdt: np.dtype[Any] = np.dtype(dt.np)
    return npdt


def _parser(name: str, *extra: str) -> ArgParser:
    """PyTorch's overloads of a window function: the length alone, then with `periodic`, then
    with each of the window's own parameters in turn."""
    heads = ["int window_length", "int window_length, bool periodic"]
    for i in range(len(extra)):
        heads.append("int window_length, bool periodic, " + ", ".join(extra[: i + 1]))
    return ArgParser(name, [f"{h}, {FACTORY}" for h in heads])


_HANN = _parser("hann_window")
_HAMMING = _parser("hamming_window", "float alpha", "float beta")
_BLACKMAN = _parser("blackman_window")
_BARTLETT = _parser("bartlett_window")
_KAISER = _parser("kaiser_window", "float beta")


def _window(name: str, a: dict[str, Any], body: Callable[[_Ops, Array, int], Array]) -> Tensor:
    window_length, periodic = a["window_length"], a.get("periodic", True)
    requires_grad, device = a["requires_grad"], a["device"]
    dt = _options(name, a["dtype"], window_length)
    n = int(window_length.item() if isinstance(window_length, Tensor) else window_length)
    if n <= 1:
        return _finish(np.ones(n, dt), requires_grad, device)
    m = n + 1 if periodic else n
    ops = _Ops(dt)
    out = body(ops, np.arange(m).astype(dt), m)
    return _finish(np.ascontiguousarray(out[:n] if periodic else out), requires_grad, device)


def _hamming(alpha: float, beta: float) -> Callable[[_Ops, Array, int], Array]:
    def body(o: _Ops, w: Array, m: int) -> Array:
        w = o(np.multiply, w, o.s(np.pi * 2.0 / (m - 1)))
        w = o.cos(w)
        w = o(np.multiply, w, o.s(-beta))
        return o(np.add, w, o.s(alpha))

    return body


def hamming_window(*args: Any, **kwargs: Any) -> Tensor:
    """alpha - beta * cos(2 pi n / (N - 1)) (N = length + 1 when periodic)."""
    a = _HAMMING.parse(args, kwargs)
    body = _hamming(float(a.get("alpha", 0.54)), float(a.get("beta", 0.46)))
    return _window("hamming_window", a, body)


def hann_window(*args: Any, **kwargs: Any) -> Tensor:
    """ATen: hamming_window with alpha = beta = 0.5."""
    return _window("hann_window", _HANN.parse(args, kwargs), _hamming(0.5, 0.5))


def _blackman(o: _Ops, w: Array, m: int) -> Array:
    w = o(np.multiply, w, o.s(np.pi / (m - 1)))
    four = o(np.multiply, o.cos(o(np.multiply, w, o.s(4))), o.s(0.08))
    two = o(np.multiply, o.cos(o(np.multiply, w, o.s(2))), o.s(0.5))
    return o(np.add, o(np.subtract, four, two), o.s(0.42))


def blackman_window(*args: Any, **kwargs: Any) -> Tensor:
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))."""
    return _window("blackman_window", _BLACKMAN.parse(args, kwargs), _blackman)


def _bartlett(o: _Ops, w: Array, m: int) -> Array:
    w = o(np.multiply, w, o.s(2.0 / (m - 1)))
    half = ((m - 1) >> 1) + 1
    w[half:] = o(np.add, o(np.multiply, w[half:], o.s(-1)), o.s(2))
    return w


def bartlett_window(*args: Any, **kwargs: Any) -> Tensor:
    """The triangle 1 - |2n / (N - 1) - 1|."""
    return _window("bartlett_window", _BARTLETT.parse(args, kwargs), _bartlett)


def _kaiser(beta: float) -> Callable[[_Ops, Array, int], Array]:
    """ATen's kaiser_window kernel, all in the opmath type, rounded once at the end."""

    def body(o: _Ops, w: Array, m: int) -> Array:
        t = o.op.type
        a, b = t((m - 1) / 2.0), t(beta)
        x: Any = w.astype(o.op)
        arg = b * np.sqrt(np.abs(t(1) - ((x - a) / a) ** t(2)))
        i0: Callable[[Array], Array] = special_f32.i0 if o.op == np.float32 else _i0_double
        out: Array = (i0(arg) / i0(np.asarray([b], o.op))[0]).astype(o.dt)
        return out

    return body


def _i0_double(x: Array) -> Array:
    from engine.ops.special_ops import _sc  # scipy.special, imported on first use

    out: Array = _sc().i0(x)
    return out


def kaiser_window(*args: Any, **kwargs: Any) -> Tensor:
    """I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta), N = length - 1 (+ 1 if periodic)."""
    a = _KAISER.parse(args, kwargs)
    return _window("kaiser_window", a, _kaiser(float(a.get("beta", 12.0))))


OPS = [
    Op("hann_window", hann_window, method=False),
    Op("hamming_window", hamming_window, method=False),
    Op("blackman_window", blackman_window, method=False),
    Op("bartlett_window", bartlett_window, method=False),
    Op("kaiser_window", kaiser_window, method=False),
]
