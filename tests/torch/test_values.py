"""Real tensors' values on the wire are written as the sandbox writes the engine's: float32 and
float16 as float32's shortest round-trip digits (`0.33333334`, never float64's
`0.3333333432674408`), inline, in summaries' samples, in `tensor_values` answers and in the
static snapshot; the same snippet gives the same bytes through real torch and the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import orjson
import torch

from backscope.capture import run_file
from backscope.snapshot import snapshot_html
from tests.torch.harness import engine_traces, of

CODE = """\
import torch
x = torch.tensor([0.1, 0.50005, 1 / 3], requires_grad=True)
h = torch.tensor([0.1, -2.5, float("nan")], dtype=torch.float16)
m = torch.tensor([[0.1, 0.2], [0.3, 0.7]]).t()
s = torch.tensor(1 / 3)
big = torch.arange(100, dtype=torch.float32) / 3
y = (x * x * 3).sum()
y.backward()
"""
FLOAT64_THIRD = repr(float(np.float32(1 / 3)))  # 0.3333333432674408


def _named(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        e["tensor"]["name"]: e["tensor"]["value"]
        for e in of(events, "tensor")
        if e["tensor"].get("name")
    }


class _AskValues:
    """A controller that, once the script has ended, asks for `big`'s full values."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.events = events
        self.asked = False

    def wait(self) -> dict[str, Any]:
        if self.asked:
            return {"type": "continue"}
        self.asked = True
        (tid,) = [
            e["tensor"]["id"] for e in of(self.events, "tensor") if e["tensor"]["name"] == "big"
        ]
        return {"type": "tensor_values", "tensor_id": tid}

    def poll(self) -> dict[str, Any] | None:
        return None


def _torch_run(tmp_path: Path) -> list[dict[str, Any]]:
    src = tmp_path / "values.py"
    src.write_text(CODE, encoding="utf-8")
    events: list[dict[str, Any]] = []
    torch.manual_seed(0)
    summary = run_file(str(src), events.extend, controller=_AskValues(events), linger=True)
    assert summary["status"] == "ok", summary
    return events


def test_float32_values_in_their_own_digits(tmp_path: Path) -> None:
    events = _torch_run(tmp_path)
    named = _named(events)
    assert named["x"]["values"] == [0.1, 0.50005, 0.33333334]
    assert named["s"]["values"] == 0.33333334
    assert named["m"]["values"] == [[0.1, 0.3], [0.2, 0.7]]  # a transposed view, read as shown
    assert named["h"]["values"] == [0.099975586, -2.5, "nan"] and named["h"]["nan"] == 1
    sample = named["big"]["sample"]
    assert np.array_equal(np.float32(sample), (torch.arange(16) / 3).numpy())
    assert 0.33333334 in sample
    (answer,) = of(events, "tensor_values")
    assert answer["dtype"] == "float32" and answer["total"] == 100 and answer["last"]
    assert np.array_equal(np.float32(answer["values"]), (torch.arange(100) / 3).numpy())
    grads = [e["total"]["values"] for e in of(events, "grad_accumulated")]
    assert grads == [[0.6, 3.0003, 2.0]]
    text = b"\n".join(orjson.dumps(e) for e in events)
    assert FLOAT64_THIRD.encode() not in text


def test_the_same_bytes_as_the_engines_stream(tmp_path: Path) -> None:
    events = _torch_run(tmp_path)
    src = tmp_path / "values.py"
    engine = engine_traces({"values": src}, tmp_path)["values"]
    mine, theirs = _named(events), _named(engine)
    # (the engine's tracer describes a tensor that needs no grad once something uses it)
    both = set(mine) & set(theirs)
    assert {"x", "h", "s"} <= both
    for name in both:
        assert orjson.dumps(mine[name]) == orjson.dumps(theirs[name]), name
    mine_g = [orjson.dumps(e["total"]) for e in of(events, "grad_accumulated")]
    theirs_g = [orjson.dumps(e["total"]) for e in of(engine, "grad_accumulated")]
    assert mine_g == theirs_g


def test_the_snapshot_shows_float32_digits(tmp_path: Path) -> None:
    events = _torch_run(tmp_path)
    page = snapshot_html(events)
    assert "<code>[0.6, 3.0003, 2.0]</code>" in page  # x.grad
    for v in (0.6, 3.0003):  # float64's digits of the same float32s
        assert repr(float(np.float32(v))) not in page
