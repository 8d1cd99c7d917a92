"""The engine's bottom layer imports nothing above it (house style: layers import downward).

The bottom layer is what every op and tool stands on: dtypes, sizes, devices, grad mode, the
observer slot, the graph (`Node`, saved tensors, hooks) and `Tensor`. What it needs from above
(running backward, printing) it calls through the typed slots of engine/_upper.py, which the
upper modules fill at import. Each of its modules may
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
    "engine._upper": 0,
    # a node holds saved tensors and a tensor holds its node: one level
    "engine.autograd.node": 1,
    "engine._tensor": 1,
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
    up = sorted(upward_imports())
    assert not up, f"a bottom-layer module imports upward (module, import): {up}"


def test_every_upper_slot_is_filled_by_importing_the_engine() -> None:
    import engine  # noqa: F401  (the upper modules fill their slots as they import)
    from engine._upper import UPPER, Upper

    empty = [name for name in Upper.__slots__ if not hasattr(UPPER, name)]
    assert not empty, f"slots no upper module fills: {empty}"


def test_the_check_sees_imports_inside_functions() -> None:
    # engine/autograd/node.py imports _tensor (its own level) only inside functions
    assert "engine._tensor" in imports_of("engine.autograd.node")
