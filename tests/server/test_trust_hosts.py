"""Origins and hosts against the real server (issue 13, item 1): a page on another site, or a
name that rebinds to this machine, can neither run code nor read runs; the server's own page
and configured origins can. Fuzzed over Host and Origin headers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import web
from tests.server.live import Client, connect, live_server, run_to_end

PRINT = "print('ran')"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("hosts") / "runs.sqlite3"
    with live_server(
        db, allowed_origins=["https://notebook.example"], rate_limit_burst=10_000
    ) as base:
        yield base


async def _attempt(base: str, origin: str | None, host: str | None = None) -> tuple[str, Any]:
    """('ran', events) when a run went through, ('closed', (code, reason)) when refused."""
    headers = {"Host": host} if host is not None else {}
    ws = await connect(base, origin=origin, **headers)
    c = Client(ws)
    try:
        await c.send({"type": "run", "code": PRINT})
        await c.until("run_finished")
        return "ran", c.events
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None
        return "closed", (closed.rcvd.code, closed.rcvd.reason)
    finally:
        await ws.close()


def test_a_cross_site_websocket_is_closed_with_a_reason_and_runs_nothing(server: str) -> None:
    kind, (code, reason) = asyncio.run(_attempt(server, "http://evil.example"))
    assert kind == "closed" and code == 1008
    assert "origin http://evil.example is not allowed" in reason
    assert "BACKSCOPE_ALLOWED_ORIGINS" in reason


def test_the_servers_own_page_and_configured_origins_run(server: str) -> None:
    port = server.split(":")[1]
    for origin, host in (
        (f"http://{server}", None),
        (f"http://localhost:{port}", f"localhost:{port}"),
        ("https://notebook.example", None),
        (None, None),  # not a browser: browsers always send Origin on a websocket
    ):
        kind, events = asyncio.run(_attempt(server, origin, host))
        assert kind == "ran", (origin, events)
        assert events[-1]["status"] == "ok"


def test_a_rebinding_host_name_is_refused_for_pages_reads_and_sockets(server: str) -> None:
    """DNS rebinding: evil.example resolves to 127.0.0.1, so its page's origin matches its
    Host header; only the Host check stops it."""
    port = server.split(":")[1]
    run_id = asyncio.run(run_to_end(server, PRINT))[0]["run_id"]
    evil = f"evil.example:{port}"
    for path in ("/", f"/api/runs/{run_id}", "/api/examples"):
        response = web.get(f"http://{server}{path}", headers={"Host": evil})
        assert response.status_code == 403, path
        assert "host evil.example" in response.text and "BACKSCOPE_ALLOWED_HOSTS" in response.text
    kind, (code, reason) = asyncio.run(_attempt(server, f"http://{evil}", evil))
    assert (kind, code) == ("closed", 1008) and "host evil.example" in reason


def test_a_null_origin_is_refused(server: str) -> None:
    kind, (code, _) = asyncio.run(_attempt(server, "null"))
    assert (kind, code) == ("closed", 1008)


NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,12}(\.[a-z]{2,6}){0,2}", fullmatch=True)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    origin_host=NAMES,
    scheme=st.sampled_from(["http", "https", "ws", "file", "chrome-extension"]),
    port=st.one_of(st.none(), st.integers(1, 65535)),
    host=st.one_of(st.none(), NAMES),
)
def test_fuzzed_origins_and_hosts_run_only_when_same_origin_and_local(
    server: str, origin_host: str, scheme: str, port: int | None, host: str | None
) -> None:
    """Whatever the headers, a run goes through only when the Host is a local name and the
    Origin is the server's own or the configured one."""
    our_port = int(server.split(":")[1])
    origin = f"{scheme}://{origin_host}" + (f":{port}" if port is not None else "")
    host_header = None if host is None else f"{host}:{our_port}"
    kind, _ = asyncio.run(_attempt(server, origin, host_header))
    effective_host = host if host is not None else "127.0.0.1"
    local = effective_host in ("localhost", "127.0.0.1")
    default_port = {"http": 80, "https": 443}.get(scheme)
    same = (
        scheme in ("http", "https")
        and origin_host == effective_host
        and (port if port is not None else default_port) == our_port
    )
    configured = origin == "https://notebook.example"
    assert (kind == "ran") == (local and (same or configured)), (origin, host_header, kind)
