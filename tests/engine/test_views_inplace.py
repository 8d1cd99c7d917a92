"""In-place ops on views against recorded PyTorch: CopySlices / AsStridedBackward0 graphs,
values, gradients, shared version counters and the error messages (tests/engine/views_cases.py,
recorded by tests/fixtures/record_views.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine
from tests.engine import views_cases

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "views.json"
HINT = "re-record with: /work/torchenv/bin/python tests/fixtures/record_views.py"


def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data["scenarios"]  # type: ignore[no-any-return]


def same(got: Any, want: Any, where: str) -> None:
    """Observations equal: tensors by dtype, shape and values (float tolerance), rest exactly."""
    if isinstance(want, dict) and "values" in want and "dtype" in want:
        assert isinstance(got, dict) and got.get("dtype") == want["dtype"], f"{where}: {got}"
        assert got["shape"] == want["shape"], f"{where}: shape {got['shape']}"
        g, w = np.asarray(got["values"], float), np.asarray(want["values"], float)
        assert np.allclose(g, w, rtol=1e-6, atol=1e-6), f"{where}: {g} != {w}"
        return
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{where}: keys {got}"
        for k in want:
            same(got[k], want[k], f"{where}.{k}")
        return
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got} != {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{where}[{i}]")
        return
    assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(views_cases.SCENARIOS))
def test_matches_pytorch(name: str) -> None:
    row = _recorded().get(name)
    assert row is not None and row["code"] == views_cases.SCENARIOS[name], f"stale; {HINT}"
    got = views_cases.run(engine, name)
    same(got, row["result"], name)


def test_fixture_has_no_extra_rows() -> None:
    assert set(_recorded()) == set(views_cases.SCENARIOS), HINT


def test_views_share_memory_and_version() -> None:
    x = engine.arange(12.0).reshape(3, 4)
    v = x[1:, ::2].t()
    v.mul_(10)
    assert x._version == v._version == 1
    assert x[1, 0].item() == 40.0 and x[2, 2].item() == 100.0
    assert np.shares_memory(v.numpy(), x.numpy())
