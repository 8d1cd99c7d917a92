"""The engine's bottom layer imports nothing above it (house style: layers import downward).

The bottom layer is what every op and tool stands on: dtypes, sizes, devices, grad mode, the
observer slot, the graph (`Node`, saved tensors, hooks) and `Tensor`. Each of its modules may
import only modules of its own level or below; imports under `if TYPE_CHECKING:` are types,
not dependencies, and do not count. Every import is checked, also those inside functions (a
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
    # a node holds saved tensors and a tensor holds its node: one level
    "engine.autograd.graph": 1,
    "engine._tensor": 1,
}
# upward imports that exist today (issue 16): each must still exist, so fixing one means
# taking it off this list, and a new one fails the test
KNOWN = {
    ("engine.autograd.graph", "engine._printing"),
    ("engine.autograd.graph", "engine.autograd.engine"),
    ("engine.autograd.graph", "engine.autograd.graph_edges"),
    ("engine.autograd.graph", "engine.autograd.saved_hooks"),
    ("engine._tensor", "engine._printing"),
    ("engine._tensor", "engine.autograd.engine"),
    ("engine._tensor", "engine.autograd.forward_jvp"),
    ("engine._tensor", "engine.ops.complex"),
    ("engine._tensor", "engine.ops.inplace"),
}


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
    return {
        (m, target)
        for m, level in LEVELS.items()
        for target in imports_of(m)
        if LEVELS.get(target, level + 1) > level
    }


def test_bottom_layer_imports_only_downward() -> None:
    new = sorted(upward_imports() - KNOWN)
    assert not new, f"a bottom-layer module imports upward (module, import): {new}"


def test_known_upward_imports_still_exist() -> None:
    gone = sorted(KNOWN - upward_imports())
    assert not gone, f"these no longer import upward; take them off KNOWN: {gone}"


def test_the_check_sees_imports_inside_functions() -> None:
    # engine/_tensor.py imports autograd.engine only inside `backward()`
    assert "engine.autograd.engine" in imports_of("engine._tensor")
