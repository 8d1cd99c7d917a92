"""PyTorch's Python argument parser (`python_arg_parser.cpp`) for ops with overloads: which
signature a call matches, and PyTorch's TypeErrors when none does, worded and numbered as
PyTorch words them (a method does not count `self`, so its positions start one lower).

>>> P = ArgParser("hann_window", ["int window_length", "int window_length, bool periodic"])
>>> P.parse((5,), {})
{'window_length': 5}
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine import _dtype
from engine._device import device as _device
from engine._tensor import Tensor

# the options every factory function takes after its own arguments
FACTORY = (
    "*, torch.dtype dtype=None, torch.layout layout=None, torch.device device=None, "
    "bool pin_memory=False, bool requires_grad=False"
)


def type_name(obj: Any) -> str:
    """What CPython calls an object's type (`tp_name`): C types carry their module."""
    t = type(obj)
    if isinstance(obj, _dtype.dtype):
        return "torch.dtype"
    if isinstance(obj, _device):
        return "torch.device"
    if t.__module__ == "numpy":
        return f"numpy.{t.__name__}"
    return t.__name__


def _int(x: Any) -> bool:
    if isinstance(x, Tensor):
        return x._d.ndim == 0 and _dtype.kind(x._d.dtype) in "iu" and not x.requires_grad
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, np.integer)


def _float(x: Any) -> bool:
    if isinstance(x, Tensor):
        return x._d.ndim == 0 and not x.requires_grad
    return isinstance(x, int | float | np.integer | np.floating)


def _number(x: Any) -> bool:
    """A Scalar: a Python or NumPy number, or a 0-d tensor that does not require grad."""
    if isinstance(x, Tensor):
        return x._d.ndim == 0 and not x.requires_grad
    return isinstance(x, int | float | complex | np.number | np.bool_)


def _dtype_like(x: Any) -> bool:
    return isinstance(x, _dtype.dtype) or x in (float, int, bool, complex)


def _layout(x: Any) -> bool:
    from engine._layout import layout

    return isinstance(x, layout)


def _ints(x: Any) -> bool:
    """A SymInt[] without a size (`size` of as_strided_scatter): a tuple, list or Size."""
    return isinstance(x, tuple | list) and all(_int(v) for v in x)


CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _int,
    "SymInt[]": _ints,
    "float": _float,
    "Number": _number,
    "bool": lambda x: isinstance(x, bool),
    "Tensor": lambda x: isinstance(x, Tensor),
    "torch.dtype": _dtype_like,
    "torch.layout": _layout,
    "torch.device": lambda x: isinstance(x, _device | str | int),
}


# what ATen's kernel receives: a C++ int64 or double, whatever Python object carried it
CONVERT: dict[str, Callable[[Any], Any]] = {"int": int, "float": float}


@dataclass(frozen=True)
class Param:
    type: str
    name: str
    default: str | None  # the default as PyTorch prints it; None when required
    keyword_only: bool

    def value(self) -> Any:
        assert self.default is not None
        return ast.literal_eval(self.default)

    def __str__(self) -> str:
        tail = "" if self.default is None else f" = {self.default}"
        return f"{self.type} {self.name}{tail}"


class Signature:
    """One overload, written as PyTorch lists it: `int window_length, *, bool flag=False`."""

    def __init__(self, text: str) -> None:
        self.params: list[Param] = []
        kw = False
        for part in (p.strip() for p in text.split(",") if p.strip()):
            if part == "*":
                kw = True
                continue
            decl, _, default = part.partition("=")
            typ, name = decl.strip().rsplit(" ", 1)
            self.params.append(Param(typ, name, default.strip() or None, kw))
        self.min_args = sum(p.default is None for p in self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)

    def __str__(self) -> str:
        parts = [str(p) for p in self.params]
        first_kw = next((i for i, p in enumerate(self.params) if p.keyword_only), None)
        if first_kw is not None:
            parts.insert(first_kw, "*")
        return "(" + ", ".join(parts) + ")"

    def parse(self, fn: str, args: tuple[Any, ...], kwargs: dict[str, Any], raise_: bool) -> Any:
        """The call's values by name, or None when it does not match (raising PyTorch's error
        for this overload when `raise_`)."""
        nargs = len(args)
        if nargs > self.max_pos_args:
            return _fail(raise_, self._extra_args(fn, nargs))
        out: dict[str, Any] = {}
        remaining = len(kwargs)
        for i, p in enumerate(self.params):
            positional = i < nargs
            if positional:
                obj = args[i]
            elif p.name in kwargs:
                obj = kwargs[p.name]
                remaining -= 1
            else:
                if p.default is None:
                    return _fail(raise_, self._missing(fn, i))
                out[p.name] = p.value()
                continue
            if obj is None and p.default == "None":
                out[p.name] = None
                continue
            if CHECKS[p.type](obj):
                out[p.name] = CONVERT[p.type](obj) if p.type in CONVERT else obj
                continue
            where = f" (position {i + 1})" if positional else ""
            shown = "tuple of ints" if p.type == "SymInt[]" else p.type
            message = f"{fn}(): argument '{p.name}'{where} must be {shown}, not {type_name(obj)}"
            if p.type == "SymInt[]" and isinstance(obj, tuple | list):
                pos = next(j for j, v in enumerate(obj) if not _int(v))
                message = (
                    f"{fn}(): argument '{p.name}'{where} must be {shown}, but found element of "
                    f"type {type_name(obj[pos])} at pos {pos}"
                )
            return _fail(raise_, message)
        if remaining:
            return _fail(raise_, self._extra_kwargs(fn, kwargs, nargs))
        return out

    def _extra_args(self, fn: str, nargs: int) -> str:
        lo, hi = self.min_args, self.max_pos_args
        if lo != hi:
            return f"{fn}() takes from {lo} to {hi} positional arguments but {nargs} were given"
        was = "was" if nargs == 1 else "were"
        s = "" if hi == 1 else "s"
        return f"{fn}() takes {hi} positional argument{s} but {nargs} {was} given"

    def _missing(self, fn: str, first: int) -> str:
        names = [f'"{p.name}"' for p in self.params[first:] if p.default is None]
        # sic: ATen's message adds the "s" when exactly one argument is missing
        s = "s" if len(names) == 1 else ""
        return f"{fn}() missing {len(names)} required positional argument{s}: {', '.join(names)}"

    def _extra_kwargs(self, fn: str, kwargs: dict[str, Any], nargs: int) -> str:
        names = [p.name for p in self.params]
        for key in kwargs:
            if key not in names:
                return f"{fn}() got an unexpected keyword argument '{key}'"
            if names.index(key) < nargs:
                return f"{fn}() got multiple values for argument '{key}'"
        return "invalid keyword arguments"


def _fail(raise_: bool, message: str) -> None:
    """No match: PyTorch's TypeError when this overload is the one to report, else None."""
    if raise_:
        raise TypeError(message)
    return None


def _without_out(text: str) -> str:
    """An overload as its in-place variant's (`torch.clamp_`): no `out`."""
    parts = [p.strip() for p in text.split(",")]
    parts = [p for p in parts if p.partition("=")[0].strip().rsplit(" ", 1)[-1] != "out"]
    return ", ".join(parts[:-1] if parts and parts[-1] == "*" else parts)


def _method_text(text: str) -> str:
    """A function's overload as the Tensor method's: no `self`, and no `out`."""
    text = _without_out(text)
    return text.split(",", 1)[1] if "," in text else ""


class ArgParser:
    """The overloads of one function; `method` parses a Tensor method's call (no `self`)."""

    def __init__(self, name: str, signatures: list[str]) -> None:
        self.name = name
        self.signatures = [Signature(s) for s in signatures]
        self.methods = [Signature(_method_text(s)) for s in signatures]
        self.inplace_functions = [Signature(_without_out(s)) for s in signatures]

    def parse(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        method: bool = False,
        name: str | None = None,
    ) -> dict[str, Any]:
        """The call's values by name; `name` reports the call under the name of an in-place
        variant (`clamp_` of `clamp`), whose function takes no `out`."""
        sigs = self.methods if method else self.signatures
        if name is not None and not method:
            sigs = self.inplace_functions
        fn = name or self.name
        if len(sigs) == 1:
            out: dict[str, Any] = sigs[0].parse(fn, args, kwargs, True)
            return out
        for sig in sigs:
            found = sig.parse(fn, args, kwargs, False)
            if found is not None:
                return dict(found)
        n = len(args) + len(kwargs)
        plausible = [s for s in sigs if s.min_args <= n <= len(s.params)]
        if len(plausible) == 1:
            plausible[0].parse(fn, args, kwargs, True)
        raise TypeError(invalid_combination(fn, [str(s) for s in sigs], args, kwargs))


def invalid_combination(
    fn: str, options: list[str], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> str:
    """PyTorch's message when no overload matches (`format_invalid_args`), quirks included:
    keywords listed from an unordered_map (for a few keys, the reverse of the call's order), a
    trailing ", " kept when there are no positional arguments, and the "didn't match" line
    only under an overload whose count of ", "-separated pieces equals the argument count."""
    kw = list(reversed(kwargs.items()))
    got = [_got(a) for a in args] + [f"{k}={_got(v)}" for k, v in kw]
    lines = [f"{fn}() received an invalid combination of arguments - got {_desc(got, args)}"]
    lines.append(", but expected one of:\n")
    for option in options:
        lines.append(f" * {option}\n")
        pieces = option[1:-1].split(", ")
        variadic = "..." in option
        n = len(args) + len(kw)
        if not (n == len(pieces) or (variadic and n > len(pieces))):
            continue
        names = [p.rsplit(" ", 1)[-1] for p in pieces]
        trailing = names[max(len(names) - len(kw), 0) :]
        unmatched = [k for k, _ in kw if k not in trailing]
        if unmatched:
            wrong = ", ".join(unmatched)
            lines.append(
                f"      didn't match because some of the keywords were incorrect: {wrong}\n"
            )
            continue
        marked = []  # ATen marks a mismatch with "!" off a terminal
        for i, obj in enumerate([*args, *(kwargs.get(names[j]) for j in range(len(args), n))]):
            decl = pieces[min(i, len(pieces) - 1)]
            typ = decl[: decl.rfind(" ")].removesuffix("...") if " " in decl else decl
            text = _formatted(obj) if i < len(args) else f"{names[i]}={_formatted(obj)}"
            marked.append(text if _matches(typ, obj) else f"!{text}!")
        desc = _desc(marked, args)
        lines.append(
            f"      didn't match because some of the arguments have invalid types: {desc}\n"
        )
    return "".join(lines)


def _desc(parts: list[str], args: tuple[Any, ...]) -> str:
    # sic: ATen trims the last ", " only when there are positional arguments
    if args:
        return "(" + ", ".join(parts) + ")"
    return "(" + "".join(f"{p}, " for p in parts) + ")"


def _formatted(obj: Any) -> str:
    """An argument as ATen's "didn't match" line shows it: a sequence with its items' types."""
    if not isinstance(obj, tuple | list):
        return _got(obj)
    inner = ", ".join(_got(o) for o in obj)
    if isinstance(obj, list):
        return f"list of [{inner}]"
    return f"tuple of ({inner}{',' if len(obj) == 1 else ''})"


def _matches(typ: str, obj: Any) -> bool:
    """ATen's loose type match in its error text: by CPython type name only."""
    accepted = {"float": ("float", "int"), "int": ("int",)}.get(typ, (typ,))
    return _got(obj) in accepted


def checked(parser: ArgParser, impl: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`torch.<name>` calling `impl` with the caller's own arguments once `parser` accepts
    them (PyTorch's TypeError otherwise); its `method` attribute is the Tensor method. The
    in-place variant and `out=` (engine/ops/inplace.py, out_params.py) check through
    `parser` too, under their own names."""

    def function(*args: Any, **kwargs: Any) -> Tensor:
        parser.parse(args, kwargs)
        return impl(*args, **kwargs)

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        parser.parse(args, kwargs, method=True)
        return impl(self, *args, **kwargs)

    for f in (function, method):
        f.__name__ = f.__qualname__ = parser.name
        f.__doc__ = impl.__doc__
    function.method = method  # type: ignore[attr-defined]
    function.parser = parser  # type: ignore[attr-defined]
    function.impl = impl  # type: ignore[attr-defined]
    return function


def with_parser(parser: ArgParser, impl: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`torch.<name>` calling `impl` through `parser` (one overload: `impl` takes its values in
    order); its `method` attribute is the Tensor method, whose positions skip `self`."""

    def function(*args: Any, **kwargs: Any) -> Tensor:
        return impl(*parser.parse(args, kwargs).values())

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return impl(self, *parser.parse(args, kwargs, method=True).values())

    for f in (function, method):
        f.__name__ = f.__qualname__ = parser.name
        f.__doc__ = impl.__doc__
    function.method = method  # type: ignore[attr-defined]
    return function


def _got(obj: Any) -> str:
    return "Tensor" if isinstance(obj, Tensor) else type_name(obj)
