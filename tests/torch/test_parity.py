"""Real torch and backscope's engine tell the same story: for every example and trace snippet,
the same graph (node names and edges), the same nodes run in the same order, the same hooks
fire in the same order, and the same gradients flow (within float32 tolerance)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.torch.harness import (
    EXAMPLES,
    accumulated,
    execution,
    exit_grads,
    hook_order,
    of,
    trace,
)
from tests.trace.harness import event_graph_hashes
from tests.trace.snippets import FAILING, RUNNABLE

CASES = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES} | RUNNABLE | FAILING


def _close(a: list[float], b: list[float]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return False
        elif not math.isclose(x, y, rel_tol=1e-4, abs_tol=1e-5):
            return False
    return True


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_engine(name: str, tmp_path: Path) -> None:
    src = tmp_path / f"{name}.py"
    src.write_text(CASES[name], encoding="utf-8")
    rc_e, engine = trace(src, tmp_path / "engine.jsonl", real=False)
    rc_t, real = trace(src, tmp_path / "torch.jsonl", real=True)
    assert rc_t == rc_e, (of(real, "error"), of(engine, "error"))
    assert real[0]["engine"].startswith("PyTorch ") and "engine" not in engine[0]
    assert event_graph_hashes(real) == event_graph_hashes(engine)
    assert execution(real) == execution(engine)
    assert hook_order(real) == hook_order(engine)
    got, want = exit_grads(real), exit_grads(engine)
    assert [n for n, _ in got] == [n for n, _ in want]
    for (node, g), (_, w) in zip(got, want):
        assert len(g) == len(w) and all(_close(a, b) for a, b in zip(g, w)), node
    acc_t, acc_e = accumulated(real), accumulated(engine)
    assert len(acc_t) == len(acc_e) and all(_close(a, b) for a, b in zip(acc_t, acc_e))
    if rc_e:
        (err_t,), (err_e,) = of(real, "error"), of(engine, "error")
        assert (err_t["error_type"], err_t["line"]) == (err_e["error_type"], err_e["line"])
        assert err_t["message"] == err_e["message"]
