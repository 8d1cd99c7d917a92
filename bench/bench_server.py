"""Server throughput, against the issue's target of >= 300k events/s to a Python client.

(a) live: one large run (LARGE: 20000 muls + backward, ~80k events) streamed to one Python
    client as the sandboxed worker produces it; events/s end to end, and CPU per event of the
    server process (from /proc) and of the client.
(b) streaming capacity: a second client resumes the just-finished run from after_seq -1 and
    gets the whole log as fast as the server sends it; events/s and server CPU per event. Then
    the same from the database, on a restarted server.
(c) 100 concurrent sessions each running a seed example: run -> run_finished p50/p99, and
    every session's stream checked dense (no event lost).
(d) one warm session running the seed example again and again: run -> first event (the
    server's run_started), -> the worker's first event, -> run_finished (what a click feels).
Also: how long `GET /healthz` waits while a large run streams and is stored (a stalled event
loop would show here), and how fast the traced snippet alone produces events (in this process,
no sandbox or server), the ceiling for (a).

(e) storage: saving a 100k-event run (its real chunks) on an empty store vs on a store holding
    >= 1 GB of runs; the ratio (target <= 1.5; the old layout slowed down with every run).
(f) the server's memory under 100 HTTP readers of a large run that never read (bounded).

Every client parses every frame with orjson and checks that seq is dense. The server runs in
its own process (as deployed), so the client's parsing does not share a GIL with the server
it measures. Loopback only; bounded in count and time.

    .venv/bin/python bench/bench_server.py [--repeat N] [--storage] [--exposed]
"""

from __future__ import annotations

import argparse
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.live import Client, connect, free_port  # noqa: E402

TARGET = 300_000
LARGE = """import torch
x = torch.ones(4, requires_grad=True)
y = x
for i in range(20000):
    y = y * 1.0001
y.sum().backward()
"""

SERVE = """import sys, uvicorn
from server.app import create_app
from server.cli import UVICORN_WS
from server.settings import Settings
app = create_app(Settings(db_path=sys.argv[1], rate_limit_burst=1000))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", **UVICORN_WS)
"""


@dataclass
class Stream:
    """One client's measurement of one stream of events."""

    run_id: str
    events: int
    seconds: float  # first frame -> run_finished
    from_command: float  # command sent -> run_finished
    server_cpu: float
    client_cpu: float
    status: str

    @property
    def rate(self) -> float:
        return self.events / self.seconds

    def line(self) -> str:
        us = 1e6 / self.events
        return (
            f"{self.events} events in {self.seconds:.3f} s ({self.from_command:.3f} s from the "
            f"command) -> {self.rate:,.0f} events/s; server CPU {self.server_cpu * us:.2f} us/event"
            f", client CPU {self.client_cpu * us:.2f} us/event"
        )


@contextmanager
def server_process(db: Path, prestart: bool = True) -> Iterator[tuple[str, int]]:
    """The app under uvicorn in a child process; yields its address and pid."""
    port = free_port()
    env = {**os.environ, "BACKSCOPE_PRESTART": str(prestart).lower()}
    argv = [sys.executable, "-c", SERVE, str(db), str(port)]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env)
    try:
        yield f"127.0.0.1:{port}", proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (utime and stime of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


async def stream(base: str, pid: int, command: dict[str, Any]) -> Stream:
    """Send `command` on a new socket and read frames until run_finished, checking that seq
    runs 0, 1, 2, ... with no gap; the CPU of both sides over the same span."""
    async with await connect(base) as ws:
        cpu0, mine0 = cpu_seconds(pid), time.process_time()
        t_cmd = time.perf_counter()
        await Client(ws).send(command)
        n, t0, status, run_id, expect = 0, 0.0, "", "", 0
        while not status:
            raw = await asyncio.wait_for(ws.recv(), 300)
            # a frame is thousands of new containers: collecting in the middle of parsing one
            # would measure the client's garbage collector, not the server
            gc.disable()
            batch = orjson.loads(raw)
            gc.enable()
            if not n:
                t0, run_id = time.perf_counter(), batch[0]["run_id"]
            for event in batch:
                if event["seq"] != expect or event["run_id"] != run_id:
                    raise AssertionError(f"seq {event['seq']} of {event['run_id']}, not {expect}")
                expect += 1
                if event["type"] == "run_finished":
                    status = str(event["status"])
            n += len(batch)
        t1 = time.perf_counter()
        cpu1, mine1 = cpu_seconds(pid), time.process_time()
    return Stream(run_id, n, t1 - t0, t1 - t_cmd, cpu1 - cpu0, mine1 - mine0, status)


async def probe_latency(base: str, pid: int) -> tuple[float, float, int]:
    """/healthz latency (p50, max, count) every 20 ms during one more large run and the
    second after it (when the run is stored)."""
    import httpx

    latencies: list[float] = []
    done = asyncio.Event()

    async def poll() -> None:
        async with httpx.AsyncClient(base_url=f"http://{base}") as http:
            while not done.is_set():
                t0 = time.perf_counter()
                (await http.get("/healthz")).raise_for_status()
                latencies.append(time.perf_counter() - t0)
                await asyncio.sleep(0.02)

    task = asyncio.create_task(poll())
    await stream(base, pid, {"type": "run", "code": LARGE})
    await asyncio.sleep(1.0)
    done.set()
    await task
    return statistics.median(latencies), max(latencies), len(latencies)


def tracer_alone() -> float:
    """Events/s of the traced LARGE snippet in this process, each batch serialized as the
    worker frames it (no sandbox, socket or server)."""
    from engine.tracing import run_snippet
    from server.sandbox.frames import encode

    count = 0

    def sink(batch: list[dict[str, Any]]) -> None:
        nonlocal count
        count += len(batch)
        encode(batch)

    t0 = time.perf_counter()
    run_snippet(LARGE, sink)
    return count / (time.perf_counter() - t0)


async def session(base: str, code: str) -> float:
    async with await connect(base) as ws:
        c = Client(ws)
        t0 = time.perf_counter()
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=300)
        return time.perf_counter() - t0


def report(title: str, runs: list[Stream]) -> None:
    """Every repeat, then the median one and the target verdict."""
    print(title)
    for r in runs:
        print(f"  {r.line()}")
    mid = sorted(runs, key=lambda r: r.rate)[len(runs) // 2]
    verdict = "MET" if mid.rate >= TARGET else "MISSED"
    print(f"  median {mid.rate:,.0f} events/s: target {TARGET:,} events/s {verdict}")


async def main(base: str, pid: int, repeat: int) -> str:
    """(a), (b), the /healthz probe and (c); returns a stored large run's id."""
    await wait_up(base)
    live, replay = [], []
    for _ in range(repeat):
        run = await stream(base, pid, {"type": "run", "code": LARGE})
        if run.status != "ok":
            raise SystemExit(f"the large run ended {run.status}")
        live.append(run)
        await asyncio.sleep(1.0)  # the run is stored and the machine settles
        replay.append(
            await stream(base, pid, {"type": "resume", "run_id": run.run_id, "after_seq": -1})
        )
    report("(a) live run, end to end to one Python client:", live)
    print(f"  ceiling: the traced snippet alone produces {tracer_alone():,.0f} events/s")
    report("(b) replay of the finished run from after_seq -1 (streaming capacity):", replay)
    p50, worst, n = await probe_latency(base, pid)
    print(
        f"GET /healthz during a large run and its storing: p50 {p50 * 1e3:.1f} ms, "
        f"max {worst * 1e3:.1f} ms ({n} requests)"
    )
    await many_sessions(base)
    await click_latency(base)
    return live[0].run_id


def seed_code() -> str:
    seeds = sorted((ROOT / "examples").glob("[0-9]*.py"))
    return seeds[0].read_text() if seeds else "print(1)"


async def dense_session(base: str, code: str) -> float:
    """One session's run -> run_finished seconds; raises when its stream lost an event."""
    async with await connect(base) as ws:
        c = Client(ws)
        t0 = time.perf_counter()
        await c.send({"type": "run", "code": code})
        await c.until("run_finished", timeout=600)
        took = time.perf_counter() - t0
    seqs = [e["seq"] for e in c.events if e["seq"] >= 0]
    if seqs != list(range(len(seqs))) or c.events[-1]["status"] != "ok":
        raise AssertionError(f"a session lost events or failed: {c.events[-1]}")
    return took


async def many_sessions(base: str, n: int = 100) -> None:
    """(c): `n` sessions at once, each running the seed example; none may lose an event."""
    code = seed_code()
    t0 = time.perf_counter()
    lat = sorted(await asyncio.gather(*(dense_session(base, code) for _ in range(n))))
    wall = time.perf_counter() - t0
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(
        f"(c) {n} sessions, every stream dense: wall {wall:.2f} s, run -> run_finished "
        f"p50 {statistics.median(lat):.2f} s, p99 {p99:.2f} s"
    )


async def click_latency(base: str, runs: int = 20) -> None:
    """(d): one session, runs one after another (each after the last one ended)."""
    code = seed_code()
    first, worker, done = [], [], []
    async with await connect(base) as ws:
        c = Client(ws)
        for _ in range(runs + 2):
            await asyncio.sleep(0.3)  # a person reads the result before clicking again
            c.events.clear()
            t0 = time.perf_counter()
            await c.send({"type": "run", "code": code})
            marks: dict[str, float] = {}
            while "run_finished" not in marks:
                for event in await c.next_batch(60):
                    now = time.perf_counter() - t0
                    marks.setdefault("first", now)
                    if event["type"] not in ("run_started", "queued", "run_finished"):
                        marks.setdefault("worker", now)
                    if event["type"] == "run_finished":
                        marks["run_finished"] = now
            first.append(marks["first"])
            worker.append(marks.get("worker", marks["run_finished"]))
            done.append(marks["run_finished"])

    def ms(xs: list[float]) -> str:
        xs = sorted(xs[2:])  # the first two warm the server up
        return f"p50 {statistics.median(xs) * 1e3:.0f} ms, max {xs[-1] * 1e3:.0f} ms"

    print(f"(d) one warm session, {runs} runs of the seed example:")
    print(f"  run -> first event     {ms(first)}")
    print(f"  run -> worker's first  {ms(worker)}")
    print(f"  run -> run_finished    {ms(done)}")


async def latency_only(base: str) -> None:
    await wait_up(base)
    await click_latency(base)
    await many_sessions(base)


async def from_store(base: str, pid: int, run_id: str, repeat: int) -> None:
    """(b) again, from a new server process that has the run only in its database."""
    await wait_up(base)
    command = {"type": "resume", "run_id": run_id, "after_seq": -1}
    report(
        "(b) the same replay from the database, after a server restart:",
        [await stream(base, pid, command) for _ in range(repeat)],
    )


HUNDRED_K = """import torch
x = torch.ones(2, requires_grad=True)
y = x
for i in range(33000):
    y = y * 1.0001
y.sum().backward()
"""


def save_ratio(db: Path) -> None:
    """(e): seconds to save one 100k-event run's chunks on an empty store and on one holding
    >= 1 GB of runs (copies of it under other ids), median of 3 each."""
    from server.storage import SqliteRunStore, StoredRun

    with server_process(db) as (base, pid):
        asyncio.run(wait_up(base))
        run = asyncio.run(stream(base, pid, {"type": "run", "code": HUNDRED_K}))
    store = SqliteRunStore(db)
    chunks = store.chunks(run.run_id)
    store.close()
    events = sum(c.count for c in chunks)
    size = sum(len(c.body) for c in chunks)

    def save_three(store: SqliteRunStore, tag: str) -> float:
        times = []
        for i in range(3):
            row = StoredRun(f"{tag}{i}", "code", "ok", {}, time.time(), 1.0, events)
            t0 = time.perf_counter()
            store.save(row, chunks)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    fresh = SqliteRunStore(db.with_name("empty.sqlite3"))
    empty = save_three(fresh, "e")
    fresh.close()
    full = SqliteRunStore(db.with_name("full.sqlite3"))
    n = 0
    while full.usage().bytes < (1 << 30):
        full.save(StoredRun(f"fill{n}", "code", "ok", {}, time.time(), 1.0, events), chunks)
        n += 1
    held = full.usage().bytes
    loaded = save_three(full, "f")
    full.close()
    print(
        f"(e) saving a {events:,}-event run ({size / 2**20:.1f} MiB, {len(chunks)} chunks): "
        f"empty store {empty * 1e3:.0f} ms, store holding {held / 2**30:.2f} GiB "
        f"({n} runs) {loaded * 1e3:.0f} ms: ratio {loaded / empty:.2f} (target <= 1.5)"
    )


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def stalled_readers(db: Path, readers: int = 100) -> None:
    """(f): the server's memory while `readers` clients ask for a ~60 MB run and never read."""
    import socket

    import orjson

    from server.eventlog import Chunk
    from server.storage import SqliteRunStore, StoredRun

    store = SqliteRunStore(db)
    body = orjson.dumps([{"type": "stdout", "text": "x" * 1000, "t": 0}] * 1000)
    store.save(
        StoredRun("big", "code", "ok", {}, time.time(), 1.0, 60_000),
        [Chunk(k * 1000, 1000, body) for k in range(60)],
    )
    store.close()
    with server_process(db) as (base, pid):
        asyncio.run(wait_up(base))
        before = rss_mib(pid)
        host, port = base.split(":")
        socks = []
        for i in range(readers):
            s = socket.create_connection((host, int(port)), source_address=(f"127.0.1.{i + 1}", 0))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(f"GET /api/runs/big HTTP/1.1\r\nHost: {base}\r\n\r\n".encode())
            socks.append(s)
        peak = before
        end = time.monotonic() + 10
        while time.monotonic() < end:
            peak = max(peak, rss_mib(pid))
            time.sleep(0.1)
        refused = sum(1 for s in socks if b" 503 " in s.recv(64))
        for s in socks:
            s.close()
        print(
            f"(f) {readers} stalled readers of a 60 MB run: server {before:.0f} MiB -> peak "
            f"{peak:.0f} MiB (+{peak - before:.0f} MiB); {refused} refused with 503 "
            "(reads at once are bounded)"
        )


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # (c)'s sessions all queue at once: more than the sandbox's default queue (64) holds
    os.environ.setdefault("BACKSCOPE_MAX_QUEUE", "256")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="large runs (and replays)")
    parser.add_argument(
        "--latency", action="store_true", help="only (d) and (c), without and with pre-start"
    )
    parser.add_argument("--storage", action="store_true", help="only (e) and (f)")
    parser.add_argument(
        "--exposed",
        action="store_true",
        help="only the figures of a server you can expose (issue 13): (e), (f) and (c)",
    )
    parser.add_argument("--sessions", type=int, default=0, help="only (c), with N sessions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "r.sqlite3"
        if args.sessions:
            with server_process(db) as (b, p):
                asyncio.run(wait_up(b))
                asyncio.run(many_sessions(b, args.sessions))
            raise SystemExit(0)
        if args.storage or args.exposed:
            save_ratio(db)
            stalled_readers(Path(d) / "readers.sqlite3")
            if args.exposed:
                with server_process(Path(d) / "sessions.sqlite3") as (b, p):
                    asyncio.run(wait_up(b))
                    asyncio.run(many_sessions(b, 100))
            raise SystemExit(0)
        if args.latency:
            for prestart in (False, True, False, True):
                print(f"-- workers pre-started: {prestart}")
                with server_process(db, prestart) as (b, p):
                    asyncio.run(latency_only(b))
            raise SystemExit(0)
        with server_process(db) as (b, p):
            stored = asyncio.run(main(b, p, args.repeat))
        with server_process(db) as (b, p):
            asyncio.run(from_store(b, p, stored, args.repeat))
