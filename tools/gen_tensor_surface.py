"""Generate `engine/_tensor_surface.pyi`: the typed surface of what `engine/_methods.py` binds
onto `Tensor` at import (the op table's methods, in-place variants and operators,
engine/ops/table.py, and the reflected operators), so mypy sees `x.sum()` as the real
`sum(self, ...)`; and `engine/_torch_surface.pyi`, the table's `torch.*` functions.

Each member's parameters and return type are the bound function's own (`inspect.signature`,
its annotations as written in the op module); a method parsed by `_arg_parser.with_parser`
takes the parser's overloads. `Tensor` inherits the surface only under TYPE_CHECKING, so the
runtime class is unchanged. Run `python tools/gen_tensor_surface.py` after changing an op's
binding or signature; tests/engine/test_tensor_surface.py fails while the committed file is
stale (`--check` exits 1 then). Output is deterministic.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "_tensor_surface.pyi"
TORCH_OUT = ROOT / "engine" / "_torch_surface.pyi"
RETURN_TYPES_OUT = ROOT / "engine" / "return_types.pyi"
TENSOR_SRC = ROOT / "engine" / "_tensor.py"
ENGINE_INIT = ROOT / "engine" / "__init__.py"

# what a `with_parser` overload's PyTorch type names mean in Python
PARSER_TYPES = {
    "Tensor": "Tensor",
    "int": "int",
    "SymInt[]": "tuple[int, ...] | list[int]",
    "float": "float",
    "Number": "complex",  # int, float, bool too (the numeric tower); a 0-d Tensor is not typed
    "bool": "bool",
    "torch.dtype": "_dtype.dtype",
    "torch.layout": "_layout.layout",
    "torch.device": "_device.device | str | int",
}


class Member:
    """One name bound on Tensor: where it comes from and how it reads in the stub."""

    def __init__(self, name: str, obj: Any, origin: str, operator: bool = False) -> None:
        self.name = name
        self.obj = obj
        self.origin = origin
        self.operator = operator  # an operator bound to a named op (`__add__` to `add`)


def _bound_members() -> dict[str, Member]:
    """What `_methods.bind` sets on Tensor, by name, the last binding winning as at run time."""
    sys.path.insert(0, str(ROOT))
    import engine
    from engine import _methods
    from engine.ops.table import rows

    members: dict[str, Member] = {}
    operators: list[tuple[str, str]] = []
    for module, op in rows(engine._OP_TABLE):
        if op.method:
            members[op.name] = Member(
                op.name, getattr(op.fn, "method", op.fn), f"{module}.{op.name}"
            )
        if op.inplace:
            # make_inplace wraps the out-of-place op (functools.wraps): same parameters
            origin = f"{module}.{op.name}, in place"
            members[op.name + "_"] = Member(op.name + "_", op.fn, origin)
        operators += [(d, op.name) for d in op.operators]
        operators += [(d, op.inplace_name) for d in op.inplace_operators]
    for dunder, name in operators:
        m = members[name]
        members[dunder] = Member(dunder, m.obj, f"{m.origin} (as {dunder})", operator=True)
    for dunder, fn in _methods.REFLECTED.items():
        members[dunder] = Member(dunder, fn, f"engine._methods.{fn.__name__}")
    return members


def _body_names() -> set[str]:
    """Names the class body of Tensor defines itself (the surface must not shadow them)."""
    tree = ast.parse(TENSOR_SRC.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


class Renderer:
    """Annotations rewritten for the surface module: names resolved where the op module
    resolves them, builtins that a member shadows (`def float`) spelled `builtins.float`."""

    def __init__(self, shadowed: set[str]) -> None:
        self.shadowed = shadowed
        self.typing_names: set[str] = set()
        self.modules: dict[str, str] = {}  # alias -> module

    def annotation(self, text: str, globs: dict[str, Any]) -> str:
        from engine._tensor import Tensor

        tree = ast.parse(text, mode="eval")
        renderer = self

        class Rewrite(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.AST:
                name = node.id
                obj = globs.get(name, getattr(builtins, name, None))
                if obj is Tensor:
                    return node
                if name in vars(builtins) and obj is getattr(builtins, name):
                    if name in renderer.shadowed:
                        return ast.Attribute(ast.Name("builtins"), name, ast.Load())
                    return node
                if getattr(typing, name, None) is obj:
                    renderer.typing_names.add(name)
                    return node
                if inspect.ismodule(obj):  # one alias per module: its last name
                    alias = obj.__name__.rsplit(".", 1)[-1]
                    known = renderer.modules.setdefault(alias, obj.__name__)
                    if known != obj.__name__:
                        raise SystemExit(f"module alias {alias} means two modules; extend me")
                    return ast.Name(alias, ast.Load())
                raise SystemExit(f"annotation name {name!r} ({obj!r}) is not known; extend me")

        return ast.unparse(Rewrite().visit(tree))


def _signature_lines(
    name: str, fn: Callable[..., Any], r: Renderer, operator: bool = False
) -> tuple[str, str | None]:
    """The `def` line of one member and a note when its types are not all readable. An
    operator (`__add__` bound to `add`) keeps only the parameters the operator passes."""
    sig = inspect.signature(fn)
    globs = getattr(inspect.unwrap(fn), "__globals__", {})
    params = list(sig.parameters.values())
    if operator:
        params = [p for p in params if p.default is inspect.Parameter.empty]
        params = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if not params or params[0].kind not in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        raise SystemExit(f"{name}: the bound function takes no tensor first; extend me")
    parts = ["self"]
    unread: list[str] = []
    star_done = False
    positional_only = params[0].kind is inspect.Parameter.POSITIONAL_ONLY
    for p in params[1:]:
        if positional_only and p.kind is not inspect.Parameter.POSITIONAL_ONLY:
            parts.append("/")
            positional_only = False
        if p.annotation is inspect.Parameter.empty:
            unread.append(p.name)
            ann = "Any"
            r.typing_names.add("Any")
        else:
            ann = r.annotation(p.annotation, globs)
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            parts.append(f"*{p.name}: {ann}")
            star_done = True
        elif p.kind is inspect.Parameter.VAR_KEYWORD:
            parts.append(f"**{p.name}: {ann}")
        else:
            if p.kind is inspect.Parameter.KEYWORD_ONLY and not star_done:
                parts.append("*")
                star_done = True
            default = "" if p.default is inspect.Parameter.empty else " = ..."
            parts.append(f"{p.name}: {ann}{default}")
    if positional_only:
        parts.append("/")
    if sig.return_annotation is inspect.Signature.empty:
        ret = "Any"
        r.typing_names.add("Any")
        unread.append("return")
    else:
        ret = r.annotation(sig.return_annotation, globs)
    note = None
    if unread:
        note = f"not annotated in source: {', '.join(unread)}"
    elif ret == "Any":
        note = "returns Any in source"
    return f"def {name}({', '.join(parts)}) -> {ret}: ...", note


def _parser_of(fn: Callable[..., Any]) -> Any:
    """The ArgParser a `with_parser` method closes over, else None."""
    code = getattr(fn, "__code__", None)
    if code is None or fn.__closure__ is None:
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__), strict=True))
    from engine._arg_parser import ArgParser

    parser = cells.get("parser")
    return parser if isinstance(parser, ArgParser) else None


def _parser_lines(name: str, parser: Any, r: Renderer) -> list[str]:
    """One `def` per overload PyTorch's parser accepts for the method (no `self` in them)."""
    defs = []
    for sig in parser.methods:
        parts = ["self"]
        star = False
        for p in sig.params:
            if p.keyword_only and not star:
                parts.append("*")
                star = True
            typ = PARSER_TYPES[p.type]
            if typ in r.shadowed:
                typ = f"builtins.{typ}"
            for mod in ("_dtype", "_layout", "_device"):
                if typ.startswith(mod + "."):
                    r.modules[mod] = f"engine.{mod}"
            if p.default == "None":
                typ += " | None"
            parts.append(f"{p.name}: {typ}" + ("" if p.default is None else " = ..."))
        defs.append(f"def {name}({', '.join(parts)}) -> Tensor: ...")
    if len(defs) == 1:
        return defs
    r.typing_names.add("overload")
    return [line for d in defs for line in ("@overload", d)]


def generate() -> str:
    members = _bound_members()
    body = _body_names()
    shadowed = set(members) & set(vars(builtins))
    r = Renderer(shadowed)
    out: list[str] = []
    notes: list[str] = []
    skipped = sorted(n for n in members if n in body)
    for name in sorted(members):
        if name in body:
            continue
        m = members[name]
        obj = m.obj
        out.append(f"    # {m.origin}")
        if isinstance(obj, property):
            if obj.fget is None or obj.fset is not None:
                raise SystemExit(f"{name}: a property with a setter or no getter; extend me")
            line, note = _signature_lines(name, obj.fget, r)
            out += ["    @property", f"    {line}"]
        elif (parser := _parser_of(obj)) is not None:
            out += [f"    {line}" for line in _parser_lines(name, parser, r)]
            note = None
        else:
            line, note = _signature_lines(name, obj, r, operator=m.operator)
            if name in ("__eq__", "__ne__"):  # elementwise, as PyTorch's: not object's bool
                line += "  # type: ignore[override]"
            out.append(f"    {line}")
        if note:
            notes.append(f"#   {name}: {note} ({m.origin})")
    imports = []
    if shadowed:
        imports.append("import builtins")
    if r.typing_names:
        imports.append(f"from typing import {', '.join(sorted(r.typing_names))}")
    imports.append("")
    imports += [f"import {mod} as {alias}" for alias, mod in sorted(r.modules.items())]
    imports.append("from engine._tensor import Tensor")
    header = [
        '"""Tensor\'s typed surface: what engine/_methods.py binds onto Tensor at import.',
        "",
        "Generated by tools/gen_tensor_surface.py from the op modules: do not edit by hand.",
        "`Tensor` inherits `TensorSurface` only under TYPE_CHECKING: the runtime class is",
        'unchanged."""',
        "",
        "# Members whose types the generator could not read from their source:",
        *(notes or ["#   none"]),
        "# Bound at import but typed by Tensor's own class body (not repeated here):",
        f"#   {', '.join(skipped) or 'none'}",
        "",
        *imports,
        "",
        "class TensorSurface:",
        '    """The methods, properties and operators engine/_methods.py binds onto Tensor."""',
        "",
    ]
    return _format("\n".join(header + out) + "\n")


def _module_names(path: Path) -> set[str]:
    """The names a module's top level binds itself (defs, classes, assignments, imports)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def generate_torch() -> str:
    """`torch.*` as bound from the op table's functions: re-exports of the real
    functions, so mypy reads `engine.cat(...)` with cat's own signature."""
    _bound_members()  # imports the engine
    import engine
    from engine.ops.table import rows

    own = _module_names(ENGINE_INIT)
    bound: dict[str, str] = {}
    for module, op in rows(engine._OP_TABLE):
        if op.function:
            bound[op.name] = module
    by_module: dict[str, list[str]] = {}
    for name, mod_name in sorted(bound.items()):
        if name not in own:
            by_module.setdefault(mod_name, []).append(name)
    lines = [
        '"""`torch.*` functions engine/_methods.py binds into the engine\'s namespace at import.',
        "",
        "Generated by tools/gen_tensor_surface.py from the op table's functions: do not edit",
        "by hand. engine/__init__.py star-imports it only under TYPE_CHECKING. The `out=` that",
        "engine/ops/out_params.py adds to some of them at import is not typed here.",
        '"""',
        "",
        "# Bound at import but typed by engine/__init__.py's own top level (not repeated here):",
        f"#   {', '.join(sorted(n for n in bound if n in own)) or 'none'}",
        "",
    ]
    for mod_name, names in sorted(by_module.items()):
        lines += [f"from {mod_name} import {n} as {n}" for n in names]
    return _format("\n".join(lines) + "\n", TORCH_OUT)


def generate_return_types() -> str:
    """engine/return_types.py's structseqs as classes mypy can read: each made at run time by
    `_make(name, fields)`, here a tuple of tensors with one typed property per field."""
    _bound_members()  # imports the engine
    from engine import return_types

    seqs = sorted(
        (name, obj)
        for name, obj in vars(return_types).items()
        if isinstance(obj, type)
        and issubclass(obj, return_types._StructSeq)
        and obj is not return_types._StructSeq
    )
    lines = [
        '"""The types of engine/return_types.py (`torch.return_types`): its structseqs are',
        "made at run time by `_make`, so mypy reads them here. Generated by",
        'tools/gen_tensor_surface.py from the runtime classes: do not edit by hand."""',
        "",
        "from collections.abc import Iterable",
        "from typing import Any, Self",
        "",
        "from engine._tensor import Tensor",
        "",
        "class _StructSeq(tuple[Tensor, ...]):",
        "    _field_names: tuple[str, ...]",
        "    def __new__(cls, seq: Iterable[Any]) -> Self: ...",
        "    @property",
        "    def n_fields(self) -> int: ...",
        "    @property",
        "    def n_sequence_fields(self) -> int: ...",
        "    def __reduce__(self) -> Any: ...",
        "",
        "def _make(name: str, fields: tuple[str, ...]) -> type[_StructSeq]: ...",
        "",
    ]
    for name, cls in seqs:
        lines.append(f"class {name}(_StructSeq):")
        for field in cls._field_names:
            lines += ["    @property", f"    def {field}(self) -> Tensor: ..."]
        lines.append("")
    return _format("\n".join(lines) + "\n", RETURN_TYPES_OUT)


def _format(text: str, path: Path = OUT) -> str:
    """The text as the project's ruff writes it (imports sorted, then formatted)."""
    ruff = str(Path(sys.executable).parent / "ruff")
    for args in (["check", "--fix-only", "--select", "I"], ["format"]):  # imports sorted too
        done = subprocess.run(
            [ruff, *args, "--stdin-filename", str(path), "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        text = done.stdout
    return text


def main() -> int:
    stale = 0
    outputs = (
        (OUT, generate()),
        (TORCH_OUT, generate_torch()),
        (RETURN_TYPES_OUT, generate_return_types()),
    )
    for path, text in outputs:
        if "--check" not in sys.argv[1:]:
            path.write_text(text)
        elif not path.exists() or path.read_text() != text:
            print(f"{path.relative_to(ROOT)} is stale: run python tools/gen_tensor_surface.py")
            stale = 1
    return stale


if __name__ == "__main__":
    sys.exit(main())
