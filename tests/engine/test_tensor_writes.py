"""Every in-place change of a tensor goes through engine/_tensor.py `writing`, so the observer
(the real tracer here) sees the values before the change, then a version bump with the values
after: out= writes, transpose_'s new strides, an untracked `add_`, increment_version."""

from __future__ import annotations

from typing import Any

from tests.trace import harness

CODE = """import torch
a = torch.ones(3)
o = torch.zeros(3)
torch.add(a, a, out=o)
small = torch.zeros(2)
torch.mul(a, a, out=small)
t = torch.ones(2, 3)
t.transpose_(0, 1)
p = torch.zeros(3)
p.add_(a)
torch.autograd.graph.increment_version(p)
"""


def _named(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {
        e["tensor"]["name"]: e["tensor"]
        for e in events
        if e["type"] == "tensor" and e["tensor"]["name"]
    }


def _bumps(events: list[dict[str, Any]], tid: int) -> list[tuple[int, Any, int]]:
    return [
        (e["version"], e["value"]["values"], e["line"])
        for e in events
        if e["type"] == "version_bump" and e["tensor"] == tid
    ]


def test_every_in_place_change_shows_the_values_before_then_a_version_bump() -> None:
    summary, events = harness.traced(CODE)
    assert summary["status"] == "ok", summary
    named = _named(events)
    o, small, t, p = (named[k] for k in ("o", "small", "t", "p"))
    # out=: the tensor as it was made, then the write
    assert (o["version"], o["value"]["values"]) == (0, [0.0, 0.0, 0.0])
    assert _bumps(events, o["id"]) == [(1, [2.0, 2.0, 2.0], 4)]
    # out= into a tensor of another shape: resized (PyTorch warns), one bump
    assert (small["version"], small["value"]["values"]) == (0, [0.0, 0.0])
    assert _bumps(events, small["id"]) == [(1, [1.0, 1.0, 1.0], 6)]
    # transpose_ writes no data; its version moves as PyTorch's does
    assert (t["version"], t["value"]["shape"]) == (0, [2, 3])
    assert _bumps(events, t["id"]) == [(1, [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], 8)]
    # an in-place op that records nothing, then a version bump alone
    assert (p["version"], p["value"]["values"]) == (0, [0.0, 0.0, 0.0])
    assert _bumps(events, p["id"]) == [(1, [1.0, 1.0, 1.0], 10), (2, [1.0, 1.0, 1.0], 11)]
