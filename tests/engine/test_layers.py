"""The engine's layers import downward (house style), the bottom layer nothing above it.

The bottom layer (levels 0 and 1) is what every op and tool stands on: dtypes, sizes, devices,
grad mode, the observer slot, the graph (`Node`, saved tensors, hooks) and `Tensor`. What it
needs from above (running backward, printing) it calls through the typed slots of
engine/_upper.py, which the upper modules fill at import. Level 2 is the machinery on it: the
ops, the autograd engine and its tools, tensor creation and printing; everything else (nn,
optim, func, the `engine` package itself, tracing, ...) is above. A module may import only
modules of its own level or below; imports under `if TYPE_CHECKING:` are types, not
dependencies, and do not count. Every import is checked, also those inside functions (a
function-level import reaching up is the cycle hidden, not removed) and
`importlib.import_module("engine...")`. Importing `a.b.c` runs the package `a.b` first, so a
package's `__init__` counts as imported by every module that imports one of its modules (the
root package `engine` excepted: every engine import runs it, as `import torch` does).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# module -> level; a module may import modules of a level <= its own
LEVELS = {
    "engine._dtype": 0,
    "engine._size": 0,
    "engine._device": 0,
    "engine._layout": 0,
    "engine.autograd.grad_mode": 0,
    "engine.autograd.observer": 0,
    "engine._upper": 0,
    "engine._warn": 0,
    "engine.storage": 0,
    # a node holds saved tensors and a tensor holds its node: one level
    "engine.autograd.node": 1,
    "engine.autograd.hooks": 1,
    "engine.autograd.saved_tensor": 1,
    "engine.autograd.node_surface": 1,
    "engine._tensor": 1,
    # the machinery on the bottom layer (besides every engine.ops.* and engine.autograd.*)
    "engine._creation": 2,
    "engine._from_data": 2,
    "engine._printing": 2,
    "engine._generator": 2,
    "engine._finfo": 2,
    "engine._arg_parser": 2,
    "engine._methods": 2,
    "engine.return_types": 2,
    "engine.fft": 2,
    "engine.ops": 2,
    # `torch.autograd` holds bottom-layer modules (grad_mode, node, observer), so importing one
    # runs the package first: it imports the bottom layer only, the rest on first use
    "engine.autograd": 0,
}
MACHINERY = ("engine.ops.", "engine.autograd.")


def level(module: str) -> int | None:
    """A module's level (None: above the machinery)."""
    if module in LEVELS:
        return LEVELS[module]
    return 2 if module.startswith(MACHINERY) else None


def layered_modules() -> list[str]:
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        if level(module) is not None:
            found.append(module)
    return found


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        test = node.test if isinstance(node, ast.If) else None
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _source(module: str) -> Path:
    path = ROOT / (module.replace(".", "/") + ".py")
    return path if path.exists() else ROOT / module.replace(".", "/") / "__init__.py"


def _is_module(name: str) -> bool:
    path = ROOT / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _with_packages(names: set[str]) -> set[str]:
    """`names` and the packages importing them runs (`engine.a.b` runs `engine.a`)."""
    out = set(names)
    for name in names:
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(2, len(parts)))
    return out


def _import_module_call(node: ast.AST) -> str | None:
    """The engine module named by `importlib.import_module("engine...")`, if `node` is one."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr != "import_module" or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and str(arg.value).startswith("engine"):
        return str(arg.value)
    return None


def imports_of(module: str) -> set[str]:
    """The engine modules `module` imports (`from engine import x` names module engine.x)."""
    tree = ast.parse(_source(module).read_text())
    skip = _type_checking_lines(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("engine"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if _is_module(sub) else node.module)
        elif (named := _import_module_call(node)) is not None:
            found.add(named)
    own_packages = _with_packages({module})
    return _with_packages(found) - own_packages - {"engine"} | (found & {"engine"})


def upward_imports() -> set[tuple[str, str]]:
    up = set()
    for m in layered_modules():
        own = level(m)
        assert own is not None
        for target in imports_of(m):
            theirs = level(target)
            if theirs is None or theirs > own:
                up.add((m, target))
    return up


def test_layers_import_only_downward() -> None:
    up = sorted(upward_imports())
    assert not up, f"a module imports upward across the layers (module, import): {up}"


def test_the_check_sees_parent_packages_and_import_module() -> None:
    # `from engine.autograd.observer import x` runs engine/autograd/__init__.py first
    assert "engine.autograd" in imports_of("engine._tensor")
    # engine/optim/lbfgs.py looks the namespace up at run time
    assert "engine" in imports_of("engine.optim.lbfgs")


def test_every_upper_slot_is_filled_by_importing_the_engine() -> None:
    import engine  # noqa: F401  (the upper modules fill their slots as they import)
    from engine._upper import UPPER, Upper

    empty = [name for name in Upper.__slots__ if not hasattr(UPPER, name)]
    assert not empty, f"slots no upper module fills: {empty}"


def test_the_check_sees_imports_inside_functions() -> None:
    # engine/autograd/saved_tensor.py imports _tensor (its own level) only inside functions
    assert "engine._tensor" in imports_of("engine.autograd.saved_tensor")


class _Calls(ast.NodeVisitor):
    """The functions (innermost) that call `<x>.method(...)`."""

    def __init__(self, method: str) -> None:
        self.method, self.fn, self.found = method, "", set[str]()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer, self.fn = self.fn, node.name
        self.generic_visit(node)
        self.fn = outer

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr == self.method:
            self.found.add(self.fn)
        self.generic_visit(node)


def _calls_of(method: str) -> list[str]:
    """`file:function` of every call `<x>.method(...)` in engine/ (outside the tracer)."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.parent.name == "tracing":
            continue
        calls = _Calls(method)
        calls.visit(ast.parse(path.read_text()))
        found += [f"{path.relative_to(ROOT)}:{fn}" for fn in calls.found]
    return sorted(found)


def _version_moves() -> list[str]:
    """`file:function` of every `<x>._ver[0] += ...` in engine/."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                target = getattr(node, "target", None)
                if isinstance(node, ast.AugAssign) and "._ver[" in ast.unparse(target or node):
                    found.append(f"{path.relative_to(ROOT)}:{fn.name}")
    return sorted(set(found))


def test_in_place_writes_tell_the_observer_in_one_place() -> None:
    # every in-place write goes through engine/_tensor.py `write`; an in-place op's gate
    # (check_inplace) tells before the op computes, so the op's own events read the old values
    assert _calls_of("before_write") == [
        "engine/_tensor.py:__init__",
        "engine/ops/inplace.py:check_inplace",
    ]
    assert _calls_of("version_bump") == ["engine/_tensor.py:__exit__"]
    # and nothing moves a version counter by hand
    assert _version_moves() == ["engine/_tensor.py:__exit__"]


def test_the_tracer_patches_no_engine_class() -> None:
    # the engine tells the observer itself (engine/autograd/observer.py), nothing is wrapped
    patched = []
    for path in sorted((ROOT / "engine" / "tracing").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    value = getattr(target, "value", None)  # `Tensor.detach = ...`
                    named = isinstance(target, ast.Attribute) and isinstance(value, ast.Name)
                    if named and value.id[:1].isupper():
                        patched.append(f"{path.name}: {value.id}.{getattr(target, 'attr', '')}")
    assert not patched, patched


def _import_tree() -> list[tuple[int, str]]:
    """(depth, module) of `import engine` in a fresh interpreter, in `-X importtime` order
    (a module's imports are listed before it, one level deeper)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import engine"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    tree = []
    for line in run.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        name = line.rsplit("|", 1)[1]
        if name.strip() == "imported package":
            continue
        tree.append(((len(name) - len(name.lstrip())) // 2, name.strip()))
    return tree


def _above_bottom(module: str) -> bool:
    own = level(module)
    return own is None or own > 1


def test_importing_the_bottom_layer_runs_only_the_bottom_layer() -> None:
    # what Python runs, not what the files say: a package's __init__ runs before its modules
    tree = _import_tree()
    loaded_under: dict[str, list[str]] = {}
    for i, (depth, name) in enumerate(tree):
        if (level(name) if name in LEVELS else 2) > 1:
            continue
        inner = []
        for d, inside in reversed(tree[:i]):
            if d <= depth:
                break
            inner.append(inside)
        loaded_under[name] = [m for m in inner if m.startswith("engine") and _above_bottom(m)]
    assert "engine._tensor" in loaded_under, tree[:20]
    above = {m: under for m, under in loaded_under.items() if under}
    assert not above, f"bottom-layer modules whose import ran upper modules: {above}"
