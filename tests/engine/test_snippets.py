"""PyTorch snippets run on the engine (`import torch` is the engine) must print exactly what
they printed under real PyTorch: stdout, warnings and the final error, all recorded."""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from tests.engine import harness
from tests.engine.printout import assert_same_printout

HINT = "re-record with: /work/torchenv/bin/python tests/fixtures/record_snippets.py {name}"
RECORDED: dict[str, Any] = (
    json.loads(harness.SNIPPETS_JSON.read_text()) if harness.SNIPPETS_JSON.exists() else {}
)


@pytest.fixture
def as_torch() -> Iterator[None]:
    """`import torch` means the engine for the duration of a test."""
    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    engine.install_as_torch()
    yield
    for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
        del sys.modules[k]
    sys.modules.update(saved)


def _tree(source: str) -> str:
    return ast.dump(ast.parse(source))


@pytest.mark.parametrize("name", harness.snippet_names())
def test_snippet(name: str, as_torch: None) -> None:
    want = RECORDED.get(name)
    source = (harness.SNIPPETS / f"{name}.py").read_text()
    # compared as syntax trees: reformatting a snippet does not make its recording stale
    if want is None or _tree(want["source"]) != _tree(source):
        pytest.fail(f"snippet {name} has no up-to-date recording; {HINT.format(name=name)}")
    engine._warn.forget_once()  # each snippet runs as in a process of its own
    got = harness.run_snippet(name)
    assert_same_printout(got["stdout"], want["stdout"])
    assert got["warnings"] == want["warnings"]
    assert got["error"] == want["error"]


def test_no_orphan_recordings() -> None:
    orphans = sorted(set(RECORDED) - set(harness.snippet_names()))
    assert not orphans, f"recordings without a snippet: {orphans}; {HINT.format(name='')}"
