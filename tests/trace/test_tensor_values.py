"""`tensor_values`: a tensor's full values in chunks that fit a frame, a per-request cap and a
per-run budget for answers (both the server's), and no request ever ends the run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import numpy as np
import orjson
import pytest

from engine.tracing import QueueController, run_snippet
from protocol import VALUES_CHUNK
from protocol.check import validate_event
from server.sandbox.settings import SandboxSettings
from tests.server.live import Client, connect, live_server

BIG = "import torch\nx = torch.randn(900_000, requires_grad=True)\n(x * 2).sum().backward()\n"


def _answers(code: str, asks: list[int], **options: Any) -> tuple[dict[str, Any], list[Any]]:
    """Run `code` paused at the end of backward's first step and ask for each tensor id."""
    ctl = QueueController()
    events: list[dict[str, Any]] = []

    def sink(batch: list[dict[str, Any]]) -> None:
        events.extend(batch)
        if any(e["type"] == "paused" for e in batch):
            for tid in asks:
                ctl.put({"type": "tensor_values", "tensor_id": tid})
            ctl.put({"type": "continue"})

    summary = run_snippet(
        code, sink, controller=ctl, options={"pause_in_backward": True, **options}
    )
    return summary, events


def test_a_large_tensor_comes_in_chunks_that_fit_a_frame() -> None:
    summary, events = _answers(BIG, [0])
    assert summary["status"] == "ok"
    chunks = [e for e in events if e["type"] == "tensor_values"]
    assert len(chunks) == -(-900_000 // VALUES_CHUNK)
    assert [c["offset"] for c in chunks] == list(range(0, 900_000, VALUES_CHUNK))
    assert [c["last"] for c in chunks] == [False] * (len(chunks) - 1) + [True]
    for c in chunks:
        validate_event({**c, "run_id": "r", "seq": 0})
        assert len(orjson.dumps(c)) < SandboxSettings().max_frame_bytes // 4
    values = np.concatenate([np.array(c["values"], dtype=np.float32) for c in chunks])
    x = next(e["tensor"] for e in events if e["type"] == "tensor")
    # (float32 values travel as float32's shortest digits: compared as float32)
    sample = np.array(x["value"]["sample"], dtype=np.float32)
    assert values.shape == (900_000,) and values[:16].tolist() == sample.tolist()


def test_over_the_cap_or_the_budget_is_an_answer_not_the_end() -> None:
    summary, events = _answers(
        BIG, [0, 0, 12345], values_request_cap=1_000_000, values_answer_budget=1_500_000
    )
    assert summary["status"] == "ok"  # the run went on to finish
    answers = [e for e in events if e["type"] == "tensor_values" and (e["last"] or "error" in e)]
    assert [e.get("error", "").split(";")[0] for e in answers] == [
        "",
        "this run has sent as many tensor values as it may",
        "tensor values are no longer available",
    ]
    summary, events = _answers(BIG, [0], values_request_cap=100_000)
    (answer,) = [e for e in events if e["type"] == "tensor_values"]
    assert answer["error"].startswith("tensor has 900000 elements") and "values" not in answer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("values") / "runs.sqlite3"
    sandbox = SandboxSettings(wall_seconds=120, cpu_seconds=60, max_workers=1)
    with live_server(db, sandbox=sandbox) as base:
        yield base


def test_a_900k_element_request_through_the_server_never_ends_the_run(server: str) -> None:
    async def go() -> list[dict[str, Any]]:
        async with await connect(server) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": BIG, "options": {"pause_in_backward": True}})
            await c.until("paused", 120)
            await c.send({"type": "tensor_values", "tensor_id": 0})
            while not any(e["type"] == "tensor_values" and e["last"] for e in c.events):
                await c.next_batch(120)
            await c.send({"type": "continue"})
            await c.until("run_finished", 120)
            return c.events

    events = asyncio.run(go())
    assert events[-1]["status"] == "ok"
    got = sum(len(e.get("values", [])) for e in events if e["type"] == "tensor_values")
    assert got == 900_000
