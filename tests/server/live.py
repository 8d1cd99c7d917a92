"""A real backscope server on a loopback port, in a thread, for websocket tests."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvicorn
import websockets
from websockets.typing import Origin

from server.app import create_app
from server.cli import UVICORN_WS
from server.sandbox.reaper import pids_of_uid
from server.settings import Settings
from server.trust.tokens import COOKIE
from tests import web


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(db: Path, **overrides: Any) -> Iterator[str]:
    """Serve `create_app()` on 127.0.0.1 until the block ends; yields the base URL."""
    with serve(create_app(Settings(db_path=db, **overrides))) as base:
        yield base


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Serve `app` on 127.0.0.1 until the block ends (and its shutdown has run)."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_WS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


class Client:
    """A websocket client speaking the protocol: JSON commands in, JSON arrays of events out."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    async def send(self, command: dict[str, Any] | str | bytes) -> None:
        if isinstance(command, dict):
            command = orjson.dumps(command).decode()
        await self.ws.send(command)

    async def next_batch(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        batch = orjson.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        assert isinstance(batch, list) and batch, batch
        self.events.extend(batch)
        return batch  # type: ignore[no-any-return]

    async def until(self, kind: str, timeout: float = 60.0) -> dict[str, Any]:
        """Read until an event of `kind` arrives; return it."""
        end = time.monotonic() + timeout
        while True:
            for ev in await self.next_batch(max(0.1, end - time.monotonic())):
                if ev["type"] == kind:
                    return ev


async def connect(
    base: str, origin: str | None = None, cookie: str | None = None, **headers: str
) -> Any:
    """A websocket to the server; `origin` as a browser page would send it, `cookie` the
    owner cookie's value (see `owner_cookie`)."""
    extra = dict(headers)
    if cookie is not None:
        extra["Cookie"] = f"{COOKIE}={cookie}"
    ip, port = base.rsplit(":", 1)
    # a Host header of its own: the address goes in the URI, the socket to the server
    name = extra.pop("Host", base)
    return await websockets.connect(
        f"ws://{name}/ws",
        host=ip,
        port=int(port),
        max_size=None,
        origin=Origin(origin) if origin is not None else None,
        additional_headers=extra or None,
    )


def owner_cookie(base: str) -> str:
    """A fresh owner token, as a browser gets it by loading the page."""
    response = web.get(f"http://{base}/", headers={"Accept": "text/html"})
    token = response.cookies.get(COOKIE)
    assert token, response.headers
    return str(token)


def run_events(events: list[dict[str, Any]], run_id: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("run_id") == run_id]


def assert_dense(events: list[dict[str, Any]]) -> None:
    """seq runs 0, 1, 2, ... with no gap or repeat; first run_started, last run_finished."""
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert events[0]["type"] == "run_started"
    assert events[-1]["type"] == "run_finished"


async def run_to_end(base: str, code: str, timeout: float = 180.0, **options: Any) -> list[Any]:
    """Run `code` on a fresh connection and return its events, run_finished included."""
    async with await connect(base) as ws:
        c = Client(ws)
        await c.send({"type": "run", "code": code, "options": options})
        await c.until("run_finished", timeout=timeout)
        return c.events


def assert_serving(base: str, application: Any) -> None:
    """/healthz answers ok and no process of any slot uid is left."""
    assert web.get(f"http://{base}/healthz").json()["status"] == "ok"
    runner = application.state.runner
    assert [p for uid in runner.slot_uids() for p in pids_of_uid(uid)] == []


SERVE = """import sys, uvicorn
from server.app import create_app
from server.cli import UVICORN_WS
from server.settings import Settings
app = create_app(Settings(db_path=sys.argv[1]))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", **UVICORN_WS)
"""
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def server_process(db: Path, env: dict[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """The app under uvicorn in a child process (as deployed: signals reach it); yields its
    address and the Popen. Stopped with SIGTERM at the end if still running."""
    import os
    import subprocess
    import sys

    port = free_port()
    environ = {**os.environ, **(env or {})}
    log = db.with_name(db.name + f".{port}.log")
    with open(log, "w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(db), str(port)], cwd=ROOT, env=environ, stderr=err
        )
    base = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(f"http://{base}/healthz", timeout=5)
            break
        except httpx.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"server did not start: {log.read_text()}") from None
            time.sleep(0.1)
    try:
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=120)


def rss_kib(pid: int) -> int:
    """Resident memory of a process (VmRSS), KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")
