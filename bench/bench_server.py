"""Server throughput: one large run's events/s to a Python client, and 50 concurrent sessions'
run -> run_finished latency (p50/p99). Loopback only; bounded in count and time."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.live import Client, connect, live_server

LARGE = """import torch
x = torch.ones(4, requires_grad=True)
y = x
for i in range(20000):
    y = y * 1.0001
y.sum().backward()
"""


async def large(base: str) -> tuple[int, float]:
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": LARGE})
        await c.next_batch()
        t0 = time.perf_counter()
        await c.until("run_finished", timeout=300)
        return len(c.events), time.perf_counter() - t0


async def session(base: str, code: str) -> float:
    async with await connect(base) as ws:
        c = Client(ws)
        t0 = time.perf_counter()
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=300)
        return time.perf_counter() - t0


async def main(base: str) -> None:
    n, dt = await large(base)
    print(f"large run: {n} events in {dt:.2f} s -> {n / dt:,.0f} events/s to one client")
    seeds = sorted(Path("examples").glob("[0-9]*.py"))
    code = seeds[0].read_text() if seeds else "print(1)"
    t0 = time.perf_counter()
    lat = sorted(await asyncio.gather(*(session(base, code) for _ in range(50))))
    wall = time.perf_counter() - t0
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"50 sessions: wall {wall:.2f} s, p50 {statistics.median(lat):.2f} s, p99 {p99:.2f} s")


if __name__ == "__main__":
    with (
        tempfile.TemporaryDirectory() as d,
        live_server(Path(d) / "r.sqlite3", rate_limit_burst=100) as b,
    ):
        asyncio.run(main(b))
