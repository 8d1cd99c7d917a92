"""The op table on the engine against recorded PyTorch: values, dtypes, graphs, gradients,
errors; plus float64 numerical gradient checks and fixture meta-tests."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import pytest

import engine
from engine.ops._core import op_nodes
from tests.engine import harness
from tests.engine.cases import Case

RTOL = 1e-7
ATOL = 1e-10
MODULES = harness.case_modules()


@cache
def fixture(module: str) -> dict[str, Any] | None:
    path = harness.fixture_path(module)
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _all_cases() -> list[tuple[str, Case]]:
    return [(m, c) for m in MODULES for c in harness.load_cases(m)]


ALL = _all_cases()
PARAMS = [pytest.param(m, c, id=c.name) for m, c in ALL]
# (a case without inputs has nothing to differentiate: a window's length, a sampler's shape)
GRADCHECK = [
    pytest.param(m, c, id=c.name) for m, c in ALL if c.gradcheck and c.inputs and not c.raises
]


def expected(module: str, case: Case) -> dict[str, Any]:
    """The recorded PyTorch result of a case (fails with how to re-record when stale)."""
    hint = harness.RECORD_HINT.format(module=module)
    data = fixture(module)
    if data is None:
        pytest.fail(f"no fixture for case module {module!r}; {hint}")
    row = data["cases"].get(case.name)
    if row is None or row["spec"] != harness.spec(case):
        pytest.fail(f"fixture for {module}.{case.name} is missing or stale; {hint}")
    result: dict[str, Any] = row["result"]
    return result


# -- comparison --------------------------------------------------------------------------
def close(got: Any, want: Any, where: str) -> None:
    """Values equal within float64 tolerance (exact for integers and bools)."""
    assert (got is None) == (want is None), f"{where}: got {got!r}, want {want!r}"
    if want is None:
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, f"{where}: shape {g.shape} != {w.shape}"
    if w.dtype.kind in "biu" and g.dtype.kind in "biu":
        assert np.array_equal(g, w), f"{where}: {got} != {want}"
        return
    assert np.allclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True), f"{where}: {got} != {want}"


def same_output(got: dict[str, Any], want: dict[str, Any], where: str) -> None:
    """Compare two `harness.describe` results (the `saved` names: ours must be PyTorch's)."""
    assert got["kind"] == want["kind"], f"{where}: kind {got['kind']} != {want['kind']}"
    if want["kind"] == "tuple":
        assert got["fields"] == want["fields"], f"{where}: namedtuple fields"
        if "type" in want:
            assert got["type"] == want["type"], f"{where}: {got['type']} != {want['type']}"
        assert len(got["items"]) == len(want["items"]), f"{where}: number of outputs"
        for i, (g, w) in enumerate(zip(got["items"], want["items"])):
            same_output(g, w, f"{where}[{i}]")
        return
    if want["kind"] != "tensor":
        assert got["type"] == want["type"], f"{where}: type {got['type']} != {want['type']}"
        if want["type"] == "float":
            close(got["value"], want["value"], where)
        else:
            assert got["value"] == want["value"], f"{where}: {got['value']} != {want['value']}"
        return
    assert got["dtype"] == want["dtype"], f"{where}: dtype"
    assert got["shape"] == want["shape"], f"{where}: shape"
    close(got["values"], want["values"], f"{where} values")
    assert got["requires_grad"] == want["requires_grad"], f"{where}: requires_grad"
    assert got["grad_fn"] == want["grad_fn"], f"{where}: grad_fn graph"
    extra = set(got["saved"] or ()) - set(want["saved"] or ())
    assert not extra, f"{where}: saves {sorted(extra)} that PyTorch does not"


def same_grads(got: list[Any] | None, want: list[Any] | None, where: str) -> None:
    assert (got is None) == (want is None), f"{where}: got {got!r}, want {want!r}"
    assert got is not None and want is not None
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        close(g, w, f"{where}[{i}]")


# -- tests -------------------------------------------------------------------------------
@pytest.mark.parametrize(("module", "case"), PARAMS)
def test_matches_pytorch(module: str, case: Case) -> None:
    want = expected(module, case)
    got = harness.run_case(engine, case)
    if "error" in want or "error" in got:
        assert got.get("error") == want.get("error"), "error type and message"
        return
    assert not case.raises, "case is marked raises=True but PyTorch did not raise"
    same_output(got["output"], want["output"], "output")
    assert got.get("grads_error") == want.get("grads_error"), "backward error"
    if "grads" in want:
        same_grads(got.get("grads"), want["grads"], "grad")


def _twice(module: str, case: Case) -> bool:
    """Rows whose recording has a second derivative (or a stale/missing one, to fail loudly)."""
    data = fixture(module)
    row = None if data is None else data["cases"].get(case.name)
    if row is None or row["spec"] != harness.spec(case):
        return True
    return "grads2" in row["result"] or "grads2_error" in row["result"]


DOUBLE = [
    pytest.param(m, c, id=c.name) for m, c in ALL if c.gradcheck and not c.raises and _twice(m, c)
]


@pytest.mark.parametrize(("module", "case"), DOUBLE)
def test_double_backward(module: str, case: Case) -> None:
    want = expected(module, case)
    got = harness.run_case(engine, case)
    assert got.get("grads2_error") == want.get("grads2_error"), "double backward error"
    if "grads2" in want:
        assert "grads2" in got, f"no second derivative: {got.get('grads_error')}"
        # A missing second derivative and an all-zero one are the same function.
        g2 = [None if g is not None and not np.any(g) else g for g in got["grads2"]]
        w2 = [None if w is not None and not np.any(w) else w for w in want["grads2"]]
        same_grads(g2, w2, "second derivative")


@pytest.mark.parametrize(("module", "case"), GRADCHECK)
def test_numerical_gradient(module: str, case: Case) -> None:
    analytic, numeric = harness.numerical_grads(engine, case)
    for name, a, n in zip(case.inputs, analytic, numeric):
        got = np.zeros_like(n) if a is None else np.asarray(a.tolist())
        assert np.allclose(got, n, rtol=1e-5, atol=1e-6), f"d/d{name}: {got} != numeric {n}"


# -- meta --------------------------------------------------------------------------------
def _names(g: Any, into: set[str]) -> None:
    stack = [g]
    while stack:
        d = stack.pop()
        if isinstance(d, dict):
            if "name" in d:
                into.add(d["name"])
            stack.extend(d.values())
        elif isinstance(d, list):
            stack.extend(d)


def test_every_node_has_a_fixture() -> None:
    seen: set[str] = set()
    for m in MODULES:
        data = fixture(m)
        if data is not None:
            _names(data["cases"], seen)
    missing = sorted(set(op_nodes()) - seen)
    assert not missing, f"node classes never seen in a recorded grad_fn graph: {missing}"


@pytest.mark.parametrize("module", MODULES)
def test_fixture_up_to_date(module: str) -> None:
    hint = harness.RECORD_HINT.format(module=module)
    data = fixture(module)
    assert data is not None, f"tests/fixtures/ops_{module}.json is missing; {hint}"
    rows = {c.name: harness.spec(c) for c in harness.load_cases(module)}
    assert len(rows) == len(harness.load_cases(module)), f"duplicate case names in {module}"
    recorded = {k: v["spec"] for k, v in data["cases"].items()}
    stale = sorted(k for k in rows if recorded.get(k) != rows[k])
    gone = sorted(set(recorded) - set(rows))
    assert not stale and not gone, f"stale rows {stale}, removed rows {gone}; {hint}"
