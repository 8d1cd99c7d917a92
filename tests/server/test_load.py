"""A bounded load test on loopback: 50 sessions at once, nothing lost or reordered."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.live import Client, assert_dense, connect, live_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples"


def _seed_code() -> str:
    seeds = sorted(p for p in EXAMPLE.glob("*.py") if p.name[0].isdigit())
    if seeds:
        return seeds[0].read_text()
    return "import torch\nx = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\n"


def test_fifty_concurrent_sessions_all_complete_with_dense_streams(tmp_path: Path) -> None:
    code = _seed_code()

    async def one(base: str) -> list[dict[str, object]]:
        async with await connect(base) as ws:
            c = Client(ws)
            await c.send({"type": "run", "code": code})
            await c.until("run_finished", timeout=240)
            return c.events

    async def go(base: str) -> list[list[dict[str, object]]]:
        return await asyncio.gather(*(one(base) for _ in range(50)))

    # a rate limit per client address would (rightly) refuse one host's 50 runs at once
    with live_server(tmp_path / "runs.sqlite3", rate_limit_burst=100) as base:
        streams = asyncio.run(go(base))
    assert len({s[0]["run_id"] for s in streams}) == 50
    for events in streams:
        assert_dense(events)  # type: ignore[arg-type]
        assert events[-1]["status"] == "ok", events[-1]
