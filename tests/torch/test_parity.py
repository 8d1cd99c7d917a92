"""Real torch and backscope's engine tell the same story: for every example and trace snippet,
the same graph (node names and edges), the same nodes run in the same order, the same hooks
fire in the same order, and the same gradients flow (within float32 tolerance)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests.torch.harness import (
    EXAMPLES,
    accumulated,
    engine_traces,
    execution,
    exit_grads,
    hook_order,
    of,
    torch_trace,
)
from tests.trace.harness import event_graph_hashes
from tests.trace.snippets import FAILING, RUNNABLE

CASES = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES} | RUNNABLE | FAILING

# Cases whose float32 gradients say more about rounding than about the engine: both sides run
# them in float64 (the engine draws PyTorch's float64 numbers too), where they must agree.
IN_FLOAT64 = {
    # one 224x224 image through 20 batch norms, the last over 7x7 maps: PyTorch's own float32
    # gradients differ from its float64 ones by up to 19% of their scale (the engine's float32
    # ones by 6% from PyTorch's), while the engine and PyTorch agree to 1e-6 in float64
    "05_profiler_resnet",
}
assert IN_FLOAT64.issubset(CASES)
FLOAT64_PRELUDE = "import torch; torch.set_default_dtype(torch.float64)\n"


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


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("scripts")
    out = {}
    for name, code in CASES.items():
        out[name] = root / f"{name}.py"
        prelude = FLOAT64_PRELUDE if name in IN_FLOAT64 else ""
        out[name].write_text(prelude + code, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def engine_streams(
    scripts: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[dict[str, Any]]]:
    return engine_traces(scripts, tmp_path_factory.mktemp("engine"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_engine(
    name: str,
    scripts: dict[str, Path],
    engine_streams: dict[str, list[dict[str, Any]]],
    tmp_path: Path,
) -> None:
    engine = engine_streams[name]
    rc_t, real = torch_trace(scripts[name], tmp_path / "torch.jsonl")
    rc_e = 1 if engine[-1]["status"] == "error" else 0
    assert engine[-1]["type"] == "run_finished" and engine[-1]["status"] in ("ok", "error")
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
