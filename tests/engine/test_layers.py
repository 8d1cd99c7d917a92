"""The engine's layers import downward (house style), the bottom layer nothing above it.

The bottom layer (levels 0 and 1) is what every op and tool stands on: dtypes, sizes, devices,
grad mode, the observer slot, the graph (`Node`, saved tensors, hooks) and `Tensor`. What it
needs from above (running backward, printing) it calls through the typed slots of
engine/_upper.py, which the upper modules fill at import. Level 2 is the machinery on it: the
ops, the autograd engine and its tools, tensor creation and printing; everything else (nn,
optim, func, the `engine` package itself, tracing, ...) is above. A module may import only
modules of its own level or below; imports under `if TYPE_CHECKING:` are types, not
dependencies, and do not count. Every import is checked, also those inside functions (a
function-level import reaching up is the cycle hidden, not removed).
"""

from __future__ import annotations

import ast
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
    # a node holds saved tensors and a tensor holds its node: one level
    "engine.autograd.node": 1,
    "engine._tensor": 1,
    # the machinery on the bottom layer (besides every engine.ops.* and engine.autograd.*)
    "engine._creation": 2,
    "engine._printing": 2,
    "engine._generator": 2,
    "engine._finfo": 2,
    "engine._arg_parser": 2,
    "engine._methods": 2,
    "engine.return_types": 2,
}
MACHINERY = ("engine.ops.", "engine.autograd.")
# level-2 modules that import upward today: each must still exist (fixing one means taking it
# off this list); a new one fails. The bottom layer has none.
KNOWN = {
    ("engine.autograd._func_impl", "engine.func"),
    ("engine.autograd.functional", "engine"),
    ("engine.autograd.profiler", "engine"),
    ("engine.ops.nn_act", "engine.nn.functional"),
    ("engine.ops.stft", "engine"),
}


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


def imports_of(module: str) -> set[str]:
    """The engine modules `module` imports (`from engine import x` names module engine.x)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text())
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
                is_module = (ROOT / (sub.replace(".", "/") + ".py")).exists()
                found.add(sub if is_module else node.module)
    return found - {module}


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
    new = sorted(upward_imports() - KNOWN)
    assert not new, f"a module imports upward across the layers (module, import): {new}"
    bottom = [(m, t) for m, t in upward_imports() if (level(m) or 0) <= 1]
    assert not bottom, bottom


def test_known_upward_imports_still_exist() -> None:
    gone = sorted(KNOWN - upward_imports())
    assert not gone, f"these no longer import upward; take them off KNOWN: {gone}"


def test_every_upper_slot_is_filled_by_importing_the_engine() -> None:
    import engine  # noqa: F401  (the upper modules fill their slots as they import)
    from engine._upper import UPPER, Upper

    empty = [name for name in Upper.__slots__ if not hasattr(UPPER, name)]
    assert not empty, f"slots no upper module fills: {empty}"


def test_the_check_sees_imports_inside_functions() -> None:
    # engine/autograd/node.py imports _tensor (its own level) only inside functions
    assert "engine._tensor" in imports_of("engine.autograd.node")


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


def test_in_place_writes_tell_the_observer_in_one_place() -> None:
    # every in-place write goes through engine/_tensor.py `write`; an in-place op's gate
    # (check_inplace) tells before the op computes, so the op's own events read the old values
    assert _calls_of("before_write") == [
        "engine/_tensor.py:write",
        "engine/ops/_core.py:check_inplace",
    ]
    assert _calls_of("version_bump") == ["engine/_tensor.py:bump", "engine/_tensor.py:write"]


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
