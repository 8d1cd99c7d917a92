"""The autograd toolkit against PyTorch: gradcheck, anomaly mode, profiler, functional, hooks.

Expected values come from tests/fixtures/toolkit.json (recorded on real PyTorch by
tests/fixtures/record_toolkit.py running the same cases in test_toolkit_cases.py).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import engine as torch
from engine._tensor import Tensor
from engine.autograd import profiler as autograd_profiler
from tests.engine import test_toolkit_cases as cases

FIXTURES = json.loads((Path(__file__).parents[1] / "fixtures" / "toolkit.json").read_text())


def assert_close(got: Any, want: Any, path: str = "") -> None:
    """Equal structure; floats equal to 1e-9 relative (float64 arithmetic order may differ)."""
    if isinstance(want, float) and isinstance(got, float):
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12) or (
            math.isnan(got) and math.isnan(want)
        ), f"{path}: {got} != {want}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), path
        for k in want:
            assert_close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} != {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


@pytest.mark.parametrize(
    "name",
    ["gradcheck", "anomaly", "functional", "functional_errors", "saved_hooks", "profiler_schedule"],
)
def test_case_matches_torch(name: str) -> None:
    got = json.loads(json.dumps(getattr(cases, f"case_{name}")(torch)))
    assert_close(got, FIXTURES[name], name)


def test_gradcheck_error_is_a_runtime_error_module_path() -> None:
    from engine.autograd.gradcheck import GradcheckError, gradcheck

    assert issubclass(GradcheckError, RuntimeError)
    assert torch.autograd.gradcheck is gradcheck


def test_anomaly_warning_names_the_forward_line() -> None:
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning) as record, torch.autograd.detect_anomaly():
        y = x.sqrt().log()  # the line the warning must point at
        with pytest.raises(RuntimeError, match="'LogBackward0' returned nan values"):
            (y * 0).sum().backward()
    messages = [str(w.message) for w in record]
    assert any("y = x.sqrt().log()  # the line the warning must point at" in m for m in messages)
    assert not torch.is_anomaly_enabled()


def _profile_small() -> autograd_profiler.profile:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.profiler.profile() as prof:
        with torch.autograd.profiler.record_function("my_block"):
            y = x * x
            z = (y + 1).sum()
        z.backward()
    return prof


def _table_rows(table: str) -> list[list[str]]:
    lines = table.split("\n")
    width = len(lines[0].split("  ")[0])
    return [[line[:width].strip(), *line[width:].split()] for line in lines[3:-3]]


def test_profiler_table_layout_and_names() -> None:
    want = FIXTURES["profiler"]
    table = _profile_small().key_averages().table(sort_by="self_cpu_time_total")
    lines = table.split("\n")
    assert lines[:3] == want["header"]
    assert lines[-2].split(":")[0] == want["footer"] and lines[-1] == ""
    names = {row[0] for row in _table_rows(table)}
    assert names <= set(want["names"]), names - set(want["names"])
    # the user's ops, the range and every backward node torch shows are there
    must = {
        n for n in want["names"] if "Backward" in n or n in ("aten::mul", "aten::add", "my_block")
    }
    assert must <= names, must - names


def test_profiler_input_shapes() -> None:
    want = FIXTURES["profiler"]
    with torch.profiler.profile(record_shapes=True) as prof:
        (torch.ones(5, 4) * 2).sum()
    grouped = prof.key_averages(group_by_input_shape=True)
    got = {e.key: str(e.input_shapes) for e in grouped}
    # only positional arguments are seen: a reduction's optional `dtype` (PyTorch's trailing
    # `[]`) is not, so the binary op is the comparable row
    assert got["aten::mul"] == want["shapes"]["aten::mul"]
    header = grouped.table().split("\n")[1]
    assert header.rstrip().split("  ")[-1].strip() == want["shapes_header_ends"]
    assert "Input Shapes" not in prof.key_averages().table()


def test_tensorboard_trace_handler_writes_chrome_json(tmp_path: Path) -> None:
    from engine.profiler import profile, tensorboard_trace_handler

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with profile(on_trace_ready=tensorboard_trace_handler(str(tmp_path), "w0")):
        (x * x).sum()
    (path,) = tmp_path.iterdir()
    assert path.name.startswith("w0.") and path.name.endswith(".pt.trace.json")
    names = {e["name"] for e in json.loads(path.read_text())["traceEvents"]}
    assert {"aten::mul", "aten::sum"} <= names


def _shown(name: str, column: int = 55) -> str:
    """A name as PyTorch's profiler table prints it in a name column of `column`."""
    return name[: column - 3] + "..." if len(name) >= column - 3 else name


def test_profiler_sort_by_and_row_limit() -> None:
    prof = _profile_small()
    averages = prof.key_averages()
    for key in ("self_cpu_time_total", "cpu_time_total", "count"):
        rows = _table_rows(averages.table(sort_by=key, row_limit=3))
        assert len(rows) == 3
        expected = sorted(averages, key=lambda e: getattr(e, key), reverse=True)[:3]
        # which rows make the top 3 depends on timings; a long name among them is cut to the
        # table's default name column (55) as PyTorch cuts it
        assert [r[0] for r in rows] == [_shown(e.key) for e in expected]
    evals = [e for e in averages if e.key.startswith("autograd::engine::evaluate_function: ")]
    assert all(e.count == 1 and e.cpu_time_total >= e.self_cpu_time_total for e in evals)
    assert [e.count for e in averages if e.key == "aten::mul"] == [1]


def test_chrome_trace_is_valid(tmp_path: Path) -> None:
    prof = _profile_small()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    spans = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert len(spans) == len(prof.function_events or [])
    for e in spans:
        assert {"name", "ts", "dur", "pid", "tid"} <= e.keys()
        assert e["dur"] >= 0
    block = next(e for e in spans if e["name"] == "my_block")
    inside = [e for e in spans if e["name"] == "aten::mul"]
    assert block["ts"] <= inside[0]["ts"] <= block["ts"] + block["dur"]


def test_profiler_restores_the_op_table() -> None:
    before = (Tensor.__mul__, Tensor.sum, torch.sum)
    _profile_small()
    assert (Tensor.__mul__, Tensor.sum, torch.sum) == before


def test_torch_profiler_api() -> None:
    from engine.profiler import ProfilerActivity, profile, record_function

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen: list[object] = []
    with (
        profile(activities=[ProfilerActivity.CPU], on_trace_ready=seen.append) as prof,
        record_function("model_inference"),
    ):
        (x * x).sum()
    assert seen == [prof]
    keys = [e.key for e in prof.key_averages()]
    assert keys == ["model_inference", "aten::mul", "aten::sum"]

    @record_function("deco")
    def f(a: Tensor) -> Tensor:
        return a + 1

    with torch.autograd.profiler.profile() as p2:
        f(x)
    assert [e.name for e in p2.function_events or []] == ["deco", "aten::add"]


def test_saved_hooks_stack_is_restored_and_disable() -> None:
    from engine.autograd import observer

    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        assert len(observer.SAVED_HOOKS) == 1
    assert observer.SAVED_HOOKS == []
    with (
        torch.autograd.graph.disable_saved_tensors_hooks("hooks are off"),
        pytest.raises(RuntimeError, match="hooks are off"),
        torch.autograd.graph.save_on_cpu(),
    ):
        pass
