"""The recorder's stream is a function of the program: names are read and batches end where the
program puts them, whenever (and whether) timed sends fall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backscope.capture import recorder
from tests.torch.harness import ROOT, torch_trace


def _stream(src: Path, out: Path) -> list[dict[str, Any]]:
    """The events of `backscope trace --torch src`, without what differs between two runs of
    one program: times, the run's id and durations, printed text beyond its number of lines
    (object addresses, the profiler's timings), hook ids (renumbered in order of appearance)."""
    rc, events = torch_trace(src, out)
    assert rc == 0
    hooks: dict[int, int] = {}
    kept = []
    for e in events:
        e = {k: v for k, v in e.items() if k not in ("t", "run_id", "duration_ns")}
        if e["type"] in ("stdout", "stderr"):
            e["text"] = e["text"].count("\n")
        if isinstance(e.get("hook"), int):
            e["hook"] = hooks.setdefault(e["hook"], len(hooks))
        kept.append(e)
    return kept


@pytest.mark.parametrize(
    "example",
    ["04_tensor_hook", "05_profiler_resnet", "13_inplace_on_leaf", "19_cnn_training_loop"],
)
def test_the_stream_is_the_same_however_timed_sends_fall(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, example: str
) -> None:
    # events are also sent when FLUSH_EVERY_NS has passed, at moments the machine's speed
    # fixes. A timed send used to name what it sent from the frames of that moment (a result
    # not bound yet went unnamed for good: `A`, `B` and `x` came unnamed), forget the frames
    # seen before it, and split a printed line's text from its "\n" into two events; now it
    # reads no name and sends only the events before the first one still to be named
    src = ROOT / "examples" / f"{example}.py"
    monkeypatch.setattr(recorder, "FLUSH_EVERY_NS", 0)
    every_event = _stream(src, tmp_path / "every.jsonl")
    monkeypatch.setattr(recorder, "FLUSH_EVERY_NS", 1 << 62)
    never = _stream(src, tmp_path / "never.jsonl")
    assert len(every_event) == len(never)
    for i, (a, b) in enumerate(zip(every_event, never, strict=True)):
        assert a == b, i
    assert any(e["type"] == "node" for e in never)
