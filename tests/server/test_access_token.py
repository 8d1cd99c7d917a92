"""Authentication in front of the server (issue 13, item 7's deployment setting): with an
access token set, nothing but /healthz answers without it; a page link with ?token= keeps it
in a cookie; scripts send it as a Bearer header."""

from __future__ import annotations

import asyncio
from pathlib import Path

import websockets

from tests import web
from tests.server.live import Client, connect, live_server

TOKEN = "s3cret-token"


def test_without_the_token_only_health_answers(tmp_path: Path) -> None:
    async def refused(base: str) -> tuple[int, str]:
        ws = await connect(base)
        try:
            await ws.recv()
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
        raise AssertionError("the socket stayed open")

    with live_server(tmp_path / "runs.sqlite3", access_token=TOKEN) as base:
        assert web.get(f"http://{base}/healthz").status_code == 200
        for path in ("/", "/api/examples", "/api/runs/x"):
            assert web.get(f"http://{base}{path}").status_code == 401, path
            wrong = {"Authorization": "Bearer nope-\u00e9".encode("latin-1")}
            assert web.get(f"http://{base}{path}", headers=wrong).status_code == 401
        code, reason = asyncio.run(refused(base))
    assert code == 1008 and "access token" in reason


def test_a_token_link_becomes_a_cookie_and_a_bearer_header_works(tmp_path: Path) -> None:
    with live_server(tmp_path / "runs.sqlite3", access_token=TOKEN) as base:
        with web.client(base_url=f"http://{base}") as browser:
            first = browser.get(f"/?token={TOKEN}&run=abc")
            assert first.status_code == 303
            assert first.headers["location"] == "/?run=abc"  # the token leaves the address
            assert browser.get("/api/examples").status_code == 200  # the cookie carries it
            evil = browser.get(f"http://{base}//evil.example/?token={TOKEN}")
            assert evil.headers["location"].startswith("/evil.example")
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert web.get(f"http://{base}/api/examples", headers=bearer).status_code == 200

        async def run() -> str:
            c = Client(await connect(base, **bearer))
            await c.send({"type": "run", "code": "print(1)"})
            finished = await c.until("run_finished")
            await c.ws.close()
            return str(finished["status"])

        assert asyncio.run(run()) == "ok"
