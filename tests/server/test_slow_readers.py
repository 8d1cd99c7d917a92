"""Clients that ask and do not read, against a real server process (issue 13, items 3 and 6):
resumes on a live 100k-event run from a socket that never reads, replies a socket never
reads, and 100 stalled HTTP readers of a large run. The server's memory stays bounded (a
property with a generous bound: each reader may hold about one frame, ~1 MB; the old server
grew by 245 MB and 2.2 GB here) and it keeps serving others."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import httpx
import orjson
import pytest
import websockets

from server.eventlog import Chunk
from server.storage import SqliteRunStore, StoredRun
from server.trust.tokens import COOKIE
from tests import web
from tests.server.live import (
    Client,
    connect,
    live_server,
    rss_kib,
    run_to_end,
    server_process,
)

MiB = 1024
# ~120k events, then a sleep that keeps the run live (the server's clock is set far away)
LIVE_BIG = """import time, torch
x = torch.ones(2, requires_grad=True)
y = x
for i in range(40000):
    y = y * 1.0001
y.sum().backward()
print("ready", flush=True)
time.sleep(1e6)
"""
FAR = {"BACKSCOPE_WALL_SECONDS": "900", "BACKSCOPE_CPU_SECONDS": "600"}


def _settle(pid: int, seconds: float = 2.0) -> int:
    """The largest RSS seen over a short look (what the process holds once work is queued)."""
    peak, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        peak = max(peak, rss_kib(pid))
        time.sleep(0.1)
    return peak


def _serves_others(base: str) -> None:
    assert httpx.get(f"http://{base}/healthz", timeout=120).json()["status"] == "ok"
    events = asyncio.run(run_to_end(base, "print(6 * 7)"))
    assert events[-1]["status"] == "ok"


def test_resumes_from_a_socket_that_never_reads_cost_one_frame(tmp_path: Path) -> None:
    with server_process(tmp_path / "runs.sqlite3", FAR) as (base, proc):

        async def go() -> int:
            owner = Client(await connect(base))
            await owner.send({"type": "run", "code": LIVE_BIG})
            await owner.until("stdout", timeout=600)
            run_id = owner.events[0]["run_id"]
            assert owner.events[-1]["seq"] > 100_000
            before = _settle(proc.pid, 0.5)
            # 300 resumes of the whole log, and it never reads (past one queued frame)
            ws = await websockets.connect(f"ws://{base}/ws", max_queue=1)
            frame = orjson.dumps({"type": "resume", "run_id": run_id, "after_seq": -1})
            for _ in range(300):
                await ws.send(frame.decode())
            grown = await asyncio.to_thread(_settle, proc.pid) - before
            await asyncio.to_thread(_serves_others, base)
            await owner.send({"type": "stop"})
            assert (await owner.until("run_finished", timeout=600))["status"] == "killed"
            ws.transport.abort()
            await owner.ws.close()
            return grown

        grown = asyncio.run(go())
    assert grown < 64 * MiB, f"server grew {grown / MiB:.0f} MiB"


def test_a_socket_that_does_not_read_its_replies_is_dropped(tmp_path: Path) -> None:
    with server_process(tmp_path / "runs.sqlite3") as (base, proc):
        before = rss_kib(proc.pid)

        async def go() -> bool:
            ws = await websockets.connect(f"ws://{base}/ws", max_queue=1)
            bad = "{" + "x" * 2000  # each gets a typed error echoing 1000 characters of it
            try:
                for _ in range(40_000):  # ~40 MB of replies it never reads
                    await ws.send(bad)
                while True:
                    await asyncio.wait_for(ws.recv(), 60)
            except websockets.ConnectionClosed as closed:
                # cut by the server: no closing handshake (it would wait behind the replies)
                return closed.rcvd is None
            finally:
                ws.transport.abort()

        assert asyncio.run(go())
        grown = _settle(proc.pid) - before
        _serves_others(base)
    assert grown < 64 * MiB, f"server grew {grown / MiB:.0f} MiB"


def _big_run(db: Path, megabytes: int) -> str:
    """A stored run of about `megabytes` MB (written straight to the store: the reads are the
    test, not the run)."""
    store = SqliteRunStore(db)
    n = megabytes * 1000
    events = [
        {"type": "stdout", "text": "x" * 1000, "t": 0, "run_id": "big", "seq": i} for i in range(n)
    ]
    chunks = [Chunk(k, 1000, orjson.dumps(events[k : k + 1000])) for k in range(0, n, 1000)]
    store.save(StoredRun("big", "print()", "ok", {}, time.time(), 1.0, n), chunks)
    store.close()
    return "big"


def _stall(base: str, path: str, source: str) -> socket.socket:
    host, port = base.split(":")
    s = socket.create_connection((host, int(port)), source_address=(source, 0))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: {base}\r\n\r\n".encode())
    return s


@pytest.mark.parametrize("readers", [100])
def test_stalled_http_readers_of_a_large_run_hold_bounded_memory(
    tmp_path: Path, readers: int
) -> None:
    db = tmp_path / "runs.sqlite3"
    run_id = _big_run(db, 60)
    with server_process(db) as (base, proc):
        before = _settle(proc.pid, 0.5)
        socks = [_stall(base, f"/api/runs/{run_id}", f"127.0.1.{i + 1}") for i in range(readers)]
        grown = _settle(proc.pid, 5.0) - before
        _serves_others(base)
        # beyond the bound on reads at once, a read is refused, not queued in memory
        statuses = [s.recv(64).split(b" ")[1] for s in socks]
        for s in socks:
            s.close()
        assert statuses.count(b"503") >= readers - 32, statuses
        # once the server has seen them go, reads are served again
        url = f"http://{base}/api/runs/{run_id}/events"
        while (page := web.get(url, params={"limit": 5})).status_code == 503:
            time.sleep(0.2)
        assert [e["seq"] for e in page.json()] == [0, 1, 2, 3, 4]
    assert grown < 128 * MiB, f"server grew {grown / MiB:.0f} MiB"


def test_owner_tokens_do_not_multiply_one_addresss_reads(tmp_path: Path) -> None:
    """Tokens are free (a page load mints one): stalled reads under several tokens from one
    address still count against that address, and another address is served."""
    db = tmp_path / "runs.sqlite3"
    run_id = _big_run(db, 20)
    with live_server(db, max_http_reads=32, max_http_reads_per_client=4) as base:
        host, port = base.split(":")
        socks = []
        for _ in range(3):
            cookie = web.get(f"http://{base}/", headers={"Accept": "text/html"}).cookies[COOKIE]
            for _ in range(4):
                s = socket.create_connection((host, int(port)), source_address=("127.0.3.1", 0))
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(
                    f"GET /api/runs/{run_id} HTTP/1.1\r\nHost: {base}\r\n"
                    f"Cookie: {COOKIE}={cookie}\r\n\r\n".encode()
                )
                socks.append(s)
        statuses = [s.recv(64).split(b" ")[1] for s in socks]
        for s in socks:
            s.close()
    assert statuses.count(b"200") <= 4, statuses
