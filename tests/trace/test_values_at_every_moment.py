"""The values the events give are the engine's: for every snippet and example, each named
tensor's value at the end of the run (folded from the events as a client folds them) equals
what the snippet's own objects hold at exit, and every `version_bump` carries the values the
tensor had at that moment."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from engine.tracing import tracer as tracer_module
from tests.trace import harness
from tests.trace.test_stream import CASES

MARK = "@@FINAL@@"
# The server's value budgets (server/sandbox/settings.py): tensors of up to 64k elements carry
# their full values; the budget is raised here so every snippet's tensors are covered
SERVER_VALUES = {"values_per_tensor": 1 << 16, "values_budget": 1 << 30}

# Appended to a snippet: prints, for every global tensor and every parameter of a global
# module that the tracer described, its tracer id and its values at exit (read from the
# engine's array directly: no op, no event)
EPILOGUE = f'''
def __bs_final():
    import json, sys
    import torch as __t
    tr = sys.modules["engine.autograd.observer"].TRACER
    out = {{}}
    objs = [(k, v) for k, v in list(globals().items()) if isinstance(v, __t.Tensor)]
    for k, m in list(globals().items()):
        if isinstance(m, __t.nn.Module):
            objs += [(f"{{k}}.{{n}}", p) for n, p in m.named_parameters()]
    for k, v in objs:
        tid = tr.tensors.get(v)
        if tid is not None and v._d.size <= {1 << 16}:
            a = v._d.astype("float64") if v._d.dtype.kind in "fiub" else None
            if a is not None:
                out[k] = [tid, [str(x) if x != x or abs(x) == float("inf") else x
                                for x in a.reshape(-1).tolist()]]
    print("{MARK}" + json.dumps(out))
__bs_final()
'''


def _flat(value: dict[str, Any]) -> np.ndarray[Any, Any] | None:
    """A wire value's full values as a flat float64 array (None: a summary only), each read at
    the tensor's own precision (float32 values travel as float32's shortest digits)."""
    if "values" not in value:
        return None
    vals = np.array(value["values"], dtype=object).reshape(-1)
    read = np.array([float(v) for v in vals], dtype=np.float64)
    return read.astype(value["dtype"]).astype(np.float64) if value["dtype"] == "float32" else read


def _fold(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each tensor id's latest wire value, as a client folds the stream."""
    current: dict[int, dict[str, Any]] = {}
    for e in events:
        kind = e["type"]
        infos = []
        if kind == "tensor":
            infos = [e["tensor"]]
        elif kind in ("node", "untracked_op"):
            infos = e["outputs"]
        for info in infos:
            current.setdefault(info["id"], info["value"])
        if kind == "version_bump" and e["tensor"] is not None:
            current[e["tensor"]] = e["value"]
    return current


def _final(events: list[dict[str, Any]]) -> dict[str, Any]:
    out = harness.stdout(events)
    line = next(ln for ln in out.splitlines() if ln.startswith(MARK))
    final: dict[str, Any] = json.loads(line[len(MARK) :])
    return final


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_events_carry_the_engines_values(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # one traced run per case checks both: every `version_bump` carries the values the tensor
    # had at that moment, and each named tensor's value folded from the events at the end is
    # what the snippet's own objects hold at exit (the epilogue reads arrays, makes no event).
    # The engine's own values at each bump the tracer captures (one `version_bump` event
    # each, in order) are kept by a pass-through around the real capture
    truth: list[tuple[int, np.ndarray[Any, Any]]] = []
    bumped = tracer_module.Tracer._bumped

    def recording(self: Any, t: Any, line: Any, frame: Any) -> None:
        truth.append((t._ver[0], t._d.astype(np.float64).reshape(-1)))
        bumped(self, t, line, frame)

    monkeypatch.setattr(tracer_module.Tracer, "_bumped", recording)
    summary, events = harness.traced(CASES[name] + EPILOGUE, **SERVER_VALUES)
    assert summary["status"] == "ok", summary
    bumps = [e for e in events if e["type"] == "version_bump"]
    assert len(bumps) == len(truth)
    for e, (version, data) in zip(bumps, truth):
        got = _flat(e["value"])
        if data.size > SERVER_VALUES["values_per_tensor"]:  # resnet18's activations: a summary
            assert got is None and e["value"]["shape"], e
            continue
        assert got is not None, e
        assert e["version"] == version
        np.testing.assert_array_equal(got, data, err_msg=f"{name}: tensor {e['tensor']}")

    current = _fold(events)
    checked = 0
    for var, (tid, want) in _final(events).items():
        got = _flat(current[tid])
        assert got is not None, f"{var}: no values in the events"
        np.testing.assert_array_equal(
            got, np.array([float(x) for x in want]), err_msg=f"{name}: {var} (tensor {tid})"
        )
        checked += 1
    assert checked > 0


APPLY = """import torch
t = torch.tensor([1.0, 2.0, 3.0])
u = t + 1
t.apply_(lambda x: x * 10)
w = t * 2
"""


def test_values_written_by_apply_are_sent_at_the_unchanged_version() -> None:
    """`apply_` does not move the version counter (as in PyTorch), yet the values it writes
    are what the tensor holds from then on: the events say so at the tensor's version."""
    summary, events = harness.traced(APPLY + EPILOGUE, **SERVER_VALUES)
    assert summary["status"] == "ok", summary
    final = _final(events)
    current = _fold(events)
    tid, want = final["t"]
    assert want == [10.0, 20.0, 30.0]
    got = _flat(current[tid])
    assert got is not None
    np.testing.assert_array_equal(got, np.array(want))
    bumps = [e for e in events if e["type"] == "version_bump" and e["tensor"] == tid]
    assert [b["version"] for b in bumps] == [0]
    assert bumps[0]["line"] == 4
