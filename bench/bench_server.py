"""Server throughput: one large run's events/s to a Python client, and 50 concurrent sessions'
run -> run_finished latency (p50/p99). Loopback only; bounded in count and time.

The server runs in its own process (as deployed), so the client's JSON parsing does not share
a GIL with the server it measures.

    .venv/bin/python bench/bench_server.py
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.live import Client, connect, free_port  # noqa: E402

LARGE = """import torch
x = torch.ones(4, requires_grad=True)
y = x
for i in range(20000):
    y = y * 1.0001
y.sum().backward()
"""

SERVE = """import sys, uvicorn
from server.app import create_app
from server.settings import Settings
app = create_app(Settings(db_path=sys.argv[1], rate_limit_burst=100))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            ws="websockets-sansio")
"""


@contextmanager
def server_process(db: Path) -> Iterator[str]:
    """The app under uvicorn in a child process; yields its base address."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(db), str(port)], cwd=ROOT)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


async def wait_up(base: str) -> None:
    end = time.monotonic() + 30
    while True:
        try:
            ws = await connect(base)
        except OSError:
            if time.monotonic() > end:
                raise
            await asyncio.sleep(0.1)
            continue
        await ws.close()
        return


async def large(base: str) -> tuple[int, float, float, str]:
    async with await connect(base) as ws:
        c = Client(ws)
        t_send = time.perf_counter()
        await c.send({"type": "run", "code": LARGE})
        n, t0, status = 0, 0.0, ""
        while not status:
            raw = await asyncio.wait_for(ws.recv(), 300)
            # the client keeps every event, as a debugger does; collecting while the log
            # grows would measure the client's garbage collector, not the server
            gc.disable()
            batch = orjson.loads(raw)
            gc.enable()
            c.events.extend(batch)
            if not n:
                t0 = time.perf_counter()
            n += len(batch)
            status = next((str(e["status"]) for e in batch if e["type"] == "run_finished"), "")
        t1 = time.perf_counter()
        errors = [e.get("message") for e in c.events if e["type"] == "error"]
        return n, t1 - t0, t1 - t_send, status + (f": {errors[0]}" if errors else "")


async def session(base: str, code: str) -> float:
    async with await connect(base) as ws:
        c = Client(ws)
        t0 = time.perf_counter()
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=300)
        return time.perf_counter() - t0


async def main(base: str) -> None:
    await wait_up(base)
    n, dt, total, status = await large(base)
    print(
        f"large run ({status}): {n} events in {dt:.2f} s after the first batch "
        f"({total:.2f} s from `run`) -> {n / dt:,.0f} events/s to one client"
    )
    seeds = sorted((ROOT / "examples").glob("[0-9]*.py"))
    code = seeds[0].read_text() if seeds else "print(1)"
    t0 = time.perf_counter()
    lat = sorted(await asyncio.gather(*(session(base, code) for _ in range(50))))
    wall = time.perf_counter() - t0
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(f"50 sessions: wall {wall:.2f} s, p50 {statistics.median(lat):.2f} s, p99 {p99:.2f} s")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    with tempfile.TemporaryDirectory() as d, server_process(Path(d) / "r.sqlite3") as b:
        asyncio.run(main(b))
