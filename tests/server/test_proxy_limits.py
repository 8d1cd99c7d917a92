"""Behind a proxy (issue 13, item 13), against the real server: limits are per user (a
trusted proxy's auth header, or its forwarded address), not one limit for everyone behind
the proxy; headers from anyone but a configured proxy are ignored."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.server.live import Client, connect, live_server, owner_cookie

PROXY = "127.0.0.1"  # the test's connections come from here: it plays the proxy


async def _runs_allowed(base: str, n: int, **headers: str) -> list[str]:
    """Start `n` runs on one socket (replacing each other); the refusals' codes."""
    c = Client(await connect(base, **headers))
    for _ in range(n):
        await c.send({"type": "run", "code": "print(1)", "replace": True})
    codes = []
    while True:
        try:
            batch = await c.next_batch(3)
        except TimeoutError:
            break
        codes += [e["message"].split(":")[0] for e in batch if e["type"] == "command_error"]
    await c.ws.close()
    return codes


def test_forwarded_clients_behind_a_trusted_proxy_each_have_their_own_limit(
    tmp_path: Path,
) -> None:
    with live_server(
        tmp_path / "runs.sqlite3",
        trusted_proxies=[PROXY],
        rate_limit_burst=2,
        rate_limit_per_minute=0.001,  # no refill while the test runs
    ) as base:
        alice = asyncio.run(_runs_allowed(base, 3, **{"X-Forwarded-For": "203.0.113.7"}))
        bob = asyncio.run(_runs_allowed(base, 2, **{"X-Forwarded-For": "198.51.100.9"}))
        alice_again = asyncio.run(_runs_allowed(base, 1, **{"X-Forwarded-For": "203.0.113.7"}))
    assert alice == ["rate_limited"]  # her third run
    assert bob == []  # not behind her limit, though both come through the same proxy
    assert alice_again == ["rate_limited"]  # a new socket is the same client


def test_forwarded_headers_from_an_untrusted_peer_are_ignored(tmp_path: Path) -> None:
    with live_server(
        tmp_path / "runs.sqlite3",
        trusted_proxies=["10.9.9.9"],
        rate_limit_burst=2,
        rate_limit_per_minute=0.001,  # no refill while the test runs
    ) as base:
        first = asyncio.run(_runs_allowed(base, 2, **{"X-Forwarded-For": "203.0.113.1"}))
        spoofed = asyncio.run(_runs_allowed(base, 1, **{"X-Forwarded-For": "203.0.113.2"}))
    assert first == [] and spoofed == ["rate_limited"]  # both are this address


def test_an_authenticated_user_owns_runs_across_browsers(tmp_path: Path) -> None:
    """With an auth header from the trusted proxy, runs belong to the user: another browser
    of the same user may control them, another user may not."""
    pausing = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n"

    async def go(base: str) -> tuple[str, str]:
        ann = {"X-Forwarded-User": "ann"}
        first = Client(await connect(base, **ann))
        await first.send({"type": "run", "code": pausing, "options": {"pause_in_backward": True}})
        await first.until("paused")
        run_id = first.events[0]["run_id"]
        replies = []
        for who in ({"X-Forwarded-User": "bob"}, ann):
            c = Client(await connect(base, cookie=owner_cookie(base), **who))
            await c.send({"type": "resume", "run_id": run_id})
            await c.until("paused")
            await c.send({"type": "continue"})
            batch: list[dict[str, Any]] = []
            while not any(e["type"] in ("command_error", "run_finished") for e in batch):
                batch = await c.next_batch(60)
            replies.append(
                next(e["message"].split(":")[0] for e in batch if e["type"] == "command_error")
                if any(e["type"] == "command_error" for e in batch)
                else "finished"
            )
            await c.ws.close()
        await first.ws.close()
        return replies[0], replies[1]

    with live_server(
        tmp_path / "runs.sqlite3", trusted_proxies=[PROXY], auth_header="X-Forwarded-User"
    ) as base:
        bob, ann_elsewhere = asyncio.run(go(base))
    assert (bob, ann_elsewhere) == ("read_only", "finished")


def test_an_auth_header_from_an_untrusted_peer_owns_nothing(tmp_path: Path) -> None:
    async def go(base: str) -> str:
        first = Client(await connect(base, **{"X-Forwarded-User": "ann"}))
        await first.send({"type": "run", "code": "import time\ntime.sleep(1e6)"})
        await first.until("run_started")
        run_id = first.events[0]["run_id"]
        c = Client(await connect(base, **{"X-Forwarded-User": "ann"}))
        await c.send({"type": "resume", "run_id": run_id})
        await c.until("run_started")
        await c.send({"type": "stop"})
        [reply] = await c.next_batch(30)
        await first.send({"type": "stop"})
        await first.until("run_finished")
        for ws in (c.ws, first.ws):
            await ws.close()
        return str(reply["message"]).split(":")[0]

    with live_server(
        tmp_path / "runs.sqlite3", trusted_proxies=["10.9.9.9"], auth_header="X-Forwarded-User"
    ) as base:
        assert asyncio.run(go(base)) == "read_only"
