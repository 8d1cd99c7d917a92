"""Every node the op table's cases make (forward graphs and create_graph gradients) shows
PyTorch's surface: `type(node).__name__ == node.name()`, and `dir(node)` lists the
`_saved_*` and `_raw_saved_*` names PyTorch's class of that name has (recorded by
tests/fixtures/record_node_classes.py), each readable."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

import pytest

import engine
from engine.autograd.graph import display_name
from tests.engine import harness

FIXTURE = harness.FIXTURES / "node_classes.json"
HINT = "re-record with: /work/torchenv/bin/python tests/fixtures/record_node_classes.py"
# nodes PyTorch makes in Python (autograd.Function subclasses), so not in torch._C._functions
PYTHON_NODES = frozenset(("BackwardHookFunctionBackward",))
# nodes whose saved tensor a case modifies in place, so PyTorch's reads as stale too:
# torch.vander's own CumprodBackward0 saved a view of the result that its next copy_ overwrites
STALE_IN_PYTORCH = frozenset(("CumprodBackward0",))
STALE = "one of the variables needed for gradient computation has been modified by an inplace"
# where the engine still differs; each entry must still differ (the test fails once it is fixed)
KNOWN: dict[str, str] = {
    "AvgPool2DBackwardBackward0": "pooling arguments not saved on the double-backward node",
    "AvgPool3DBackwardBackward0": "pooling arguments not saved on the double-backward node",
    "LinalgInvExBackward0": "the saved inverse reads as modified in place after create_graph",
    "LinalgSolveExBackward0": "LU and pivots not saved",
    "MaxPool2DWithIndicesBackward0": "result1 saved only with return_indices (cost)",
    "MaxPool3DWithIndicesBackward0": "result1 saved only with return_indices (cost)",
    "MaxPool2DWithIndicesBackwardBackward0": "indices not saved (the engine keeps a tap array)",
    "MaxPool3DWithIndicesBackwardBackward0": "indices not saved (the engine keeps a tap array)",
    "TrilinearBackward0": "expand1..3 and sumdim not saved",
}


@cache
def torch_classes() -> dict[str, dict[str, list[str]]]:
    if not FIXTURE.exists():
        pytest.fail(f"no {FIXTURE.name}; {HINT}")
    classes: dict[str, dict[str, list[str]]] = json.loads(FIXTURE.read_text())["classes"]
    return classes


def _nodes(roots: Iterable[Any]) -> list[Any]:
    seen: set[int] = set()
    stack, order = [t.grad_fn for t in roots], []
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        order.append(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return order


def _graph_roots(case: Any) -> list[Any]:
    """The case's differentiable outputs and, when it has second derivatives, its
    create_graph gradients (whose graphs hold the `...BackwardBackward0` nodes)."""
    ns, out = harness.evaluate(engine, case, harness.input_arrays(case))
    outs = harness.differentiable(harness.tensors_of(out, engine))
    roots = list(outs)
    if outs and case.gradcheck:
        inputs = [ns[k] for k in case.inputs]
        gs = harness.upstream(case, outs, engine)
        first = engine.autograd.grad(outs, inputs, gs, allow_unused=True, create_graph=True)
        roots += [g for g in first if g is not None and g.grad_fn is not None]
    return roots


def divergence(fn: Any) -> list[str]:
    """How a node's class name and saved-value surface differ from PyTorch's class."""
    name = display_name(fn.name())
    found = [] if type(fn).__name__ == name else [f"class named {type(fn).__name__}"]
    want = torch_classes().get(name)
    if want is None:
        return found if name in PYTHON_NODES else [*found, "no PyTorch node of this name"]
    names = dir(fn)
    saved = sorted(a[len("_saved_") :] for a in names if a.startswith("_saved_"))
    raw = sorted(a[len("_raw_saved_") :] for a in names if a.startswith("_raw_saved_"))
    if saved != want["saved"]:
        found.append(f"_saved_ {saved} != {want['saved']}")
    if raw != want["raw"]:
        found.append(f"_raw_saved_ {raw} != {want['raw']}")
    for key in set(saved) & set(want["saved"]):
        try:
            getattr(fn, "_saved_" + key)
        except RuntimeError as e:  # a listed value must be readable ...
            if not (name in STALE_IN_PYTORCH and str(e).startswith(STALE)):  # or stale in both
                found.append(f"_saved_{key}: {type(e).__name__}: {e}")
        except Exception as e:
            found.append(f"_saved_{key}: {type(e).__name__}: {e}")
    return found


@cache
def surfaces(module: str) -> dict[str, list[str]]:
    """Node name -> divergences, over every node the module's cases make."""
    out: dict[str, list[str]] = {}
    for case in harness.load_cases(module):
        if case.raises:
            continue
        try:
            roots = _graph_roots(case)
        except Exception:
            continue  # a case whose op or gradient fails is test_ops's to report
        for fn in _nodes(roots):
            name = display_name(fn.name())
            for d in divergence(fn):
                if d not in out.setdefault(name, []):
                    out[name].append(d)
            out.setdefault(name, [])
    return out


@pytest.mark.parametrize("module", harness.case_modules())
def test_nodes_show_pytorchs_surface(module: str) -> None:
    found = surfaces(module)
    wrong = {n: d for n, d in found.items() if d and n not in KNOWN}
    assert not wrong, "nodes that differ from PyTorch's classes:\n" + "\n".join(
        f"  {n}: {'; '.join(d)}" for n, d in sorted(wrong.items())
    )


def test_known_divergences_still_diverge() -> None:
    """A gap fixed is taken off KNOWN (so the list is what still differs, nothing more)."""
    found: dict[str, list[str]] = {}
    for module in harness.case_modules():
        for name, d in surfaces(module).items():
            found.setdefault(name, []).extend(d)
    fixed = sorted(n for n in KNOWN if n in found and not found[n])
    unseen = sorted(n for n in KNOWN if n not in found)
    assert not fixed, f"no longer diverge, take them off KNOWN: {fixed}"
    assert not unseen, f"no case makes these nodes any more, take them off KNOWN: {unseen}"
