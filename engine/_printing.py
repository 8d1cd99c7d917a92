"""Tensor `repr`, identical in format to PyTorch's `torch/_tensor_str.py`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype
from engine._dtype import legacy_type_name as legacy_type_name
from engine._upper import UPPER

if TYPE_CHECKING:
    from engine._tensor import Tensor


@dataclass
class PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


OPTS = PrintOptions()


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """PyTorch's `torch.set_printoptions`."""
    if profile == "default":
        OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 4, 1000, 3, 80
    elif profile == "short":
        OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        OPTS.precision = precision
    if threshold is not None:
        OPTS.threshold = threshold
    if edgeitems is not None:
        OPTS.edgeitems = edgeitems
    if linewidth is not None:
        OPTS.linewidth = linewidth
    OPTS.sci_mode = sci_mode


class _Formatter:
    def __init__(self, values: np.ndarray[Any, Any]) -> None:
        self.floating = _dtype.kind(values.dtype) == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
        else:
            with np.errstate(all="ignore"):
                nz = flat[np.isfinite(flat) & (flat != 0)]
            if nz.size == 0:
                return
            absv = np.abs(nz.astype(np.float64))
            vmin, vmax = float(absv.min()), float(absv.max())
            vals = nz.astype(np.float64).tolist()
            self.int_mode = bool(np.all(nz == np.ceil(nz)))
            p = OPTS.precision
            sci = vmax / vmin > 1000.0 or vmax > 1.0e8 or vmin < 1.0e-4
            # a forced sci_mode also decides the widths (torch/_tensor_str.py does the same)
            self.sci_mode = sci if OPTS.sci_mode is None else OPTS.sci_mode
            if self.sci_mode:
                for v in vals:
                    self.max_width = max(self.max_width, len(f"{v:.{p}e}"))
            elif self.int_mode:
                for v in vals:
                    self.max_width = max(self.max_width, len(f"{v:.0f}") + 1)
            else:
                for v in vals:
                    self.max_width = max(self.max_width, len(f"{v:.{p}f}"))

    def format(self, value: Any) -> str:
        p = OPTS.precision
        if self.floating:
            value = float(value)
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


class _ComplexFormatter:
    """Real and imaginary parts formatted apart, each with its own width and sci mode."""

    def __init__(self, values: np.ndarray[Any, Any]) -> None:
        self.re = _Formatter(np.ascontiguousarray(values.real))
        self.im = _Formatter(np.ascontiguousarray(values.imag))
        # _vector adds 2 for ", "; PyTorch's element length also counts the `j`
        self.max_width = self.re.max_width + self.im.max_width + 1

    def format(self, value: Any) -> str:
        value = complex(value)
        real_str = self.re.format(value.real)
        # the imaginary part loses its padding; its sign (or a "+") joins the two
        imag_str = (self.im.format(value.imag) + "j").lstrip()
        if imag_str[0] in "+-":
            return real_str + imag_str
        return real_str + "+" + imag_str


def _summarized(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    e = OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        return np.concatenate((a[:e], a[-e:])) if a.shape[0] > 2 * e else a
    if a.shape[0] > 2 * e:
        rows = [a[i] for i in range(e)] + [a[i] for i in range(len(a) - e, len(a))]
    else:
        rows = list(a)
    return np.stack([_summarized(r) for r in rows])


Fmt = _Formatter | _ComplexFormatter


def _vector(a: np.ndarray[Any, Any], indent: int, summarize: bool, fmt: Fmt) -> str:
    element_length = fmt.max_width + 2
    per_line = max(1, math.floor((OPTS.linewidth - indent) / element_length))
    e = OPTS.edgeitems
    if summarize and a.shape[0] > 2 * e:
        data = [fmt.format(v) for v in a[:e].tolist()] + [" ..."]
        data += [fmt.format(v) for v in a[-e:].tolist()]
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(a: np.ndarray[Any, Any], indent: int, summarize: bool, fmt: Fmt) -> str:
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector(a, indent, summarize, fmt)
    e = OPTS.edgeitems
    if summarize and a.shape[0] > 2 * e:
        parts = [_body(a[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."]
        parts += [_body(a[i], indent + 1, summarize, fmt) for i in range(len(a) - e, len(a))]
    else:
        parts = [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def array_str(a: np.ndarray[Any, Any], indent: int) -> str:
    """The bracketed body of a tensor's repr."""
    if a.size == 0:
        return "[]"
    summarize = a.size > OPTS.threshold
    shown = _summarized(a) if summarize else a
    fmt: Fmt = _ComplexFormatter(shown) if _dtype.kind(a.dtype) == "c" else _Formatter(shown)
    return _body(a, indent, summarize, fmt)


def _add_suffixes(body: str, suffixes: list[str], indent: int) -> str:
    parts = [body]
    last_line_len = len(body) - body.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t: Tensor) -> str:
    """PyTorch's `repr(tensor)`."""

    prefix = "tensor("
    indent = len(prefix)
    tangent = None
    if t._fw_grad is not None:  # shown only where forward AD sees it (not in a Function)
        from engine.autograd.forward_ad import FW
        from engine.autograd.forward_jvp import tangent_of

        tangent = tangent_of(t) if FW.on else None
    a = t._d
    dt = t.dtype
    suffixes: list[str] = []
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append("size=" + str(tuple(a.shape)))
        if dt is not _dtype.get_default_dtype():  # even complex64: no element shows a `j`
            suffixes.append(f"dtype={dt}")
        body = "[]"
    else:
        defaults = (_dtype.get_default_dtype(), _dtype.default_complex(), _dtype.int64)
        if dt not in defaults and dt is not _dtype.bool_:
            suffixes.append(f"dtype={dt}")
        body = array_str(a, indent)
    if t._fn is not None:
        name = t._fn.name()
        suffixes.append(f"grad_fn=<{name.rsplit('::', 1)[-1]}>")
    elif t._rg:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + body, suffixes, indent)


UPPER.tensor_repr = tensor_repr
