"""Connections before a request (server/trust/connections.py): a half-sent request head is
closed, and one address cannot hold every file descriptor of the server."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests import web
from tests.server.live import live_server

HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def _half_request(base: str, source: str = "127.0.0.1") -> socket.socket:
    host, port = base.split(":")
    s = socket.create_connection((host, int(port)), source_address=(source, 0))
    s.sendall(HALF_HEAD)
    return s


def _closed_by_server(s: socket.socket, within_s: float) -> bool:
    """Whether the server closed the connection (EOF or reset) within `within_s`."""
    s.settimeout(within_s)
    try:
        return s.recv(4096) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def _open_after(held: list[socket.socket], at_most: int, within_s: float = 60.0) -> int:
    """How many of `held` the server left open, once at most `at_most` are (or time is up)."""
    closed: set[int] = set()
    deadline = time.monotonic() + within_s
    while True:
        ready, _, _ = select.select([s for s in held if s.fileno() not in closed], [], [], 0.2)
        for s in ready:
            if _closed_by_server(s, within_s=0.1):
                closed.add(s.fileno())
        left = len(held) - len(closed)
        if left <= at_most or time.monotonic() > deadline:
            return left


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    held: list[socket.socket] = []
    yield held
    for s in held:
        s.close()


def test_a_request_head_never_finished_is_closed(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    with live_server(tmp_path / "r.sqlite3", request_head_s=1.0) as base:
        slow = _half_request(base)
        sockets.append(slow)
        # bytes trickle in (a slow-loris), yet the head is never complete: the server closes it
        for _ in range(3):
            time.sleep(0.4)
            try:
                slow.sendall(b"a")
            except OSError:
                break
        assert _closed_by_server(slow, within_s=60)
        # a whole request in time is answered (and a keep-alive one, again)
        with web.client() as client:
            assert client.get(f"http://{base}/healthz").status_code == 200
            assert client.get(f"http://{base}/healthz").status_code == 200


def test_one_address_cannot_hold_every_connection(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    # a head timeout far beyond the test: only the caps close anything here
    with live_server(
        tmp_path / "r.sqlite3", request_head_s=600.0, max_connections_per_address=20
    ) as base:
        for _ in range(40):
            sockets.append(_half_request(base, "127.0.0.3"))
        assert _open_after(sockets, at_most=20) <= 20
        # another address is served meanwhile
        transport = httpx.HTTPTransport(local_address="127.0.0.4")
        with web.client(transport=transport) as client:
            assert client.get(f"http://{base}/healthz").status_code == 200


def test_the_server_keeps_descriptors_for_itself(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    with live_server(tmp_path / "r.sqlite3", request_head_s=600.0, max_open_connections=30) as base:
        for i in range(60):
            sockets.append(_half_request(base, f"127.0.2.{i + 1}"))
        assert _open_after(sockets, at_most=30) <= 30
        for s in sockets:
            s.close()
        sockets.clear()
        # once they are gone, the server takes connections again
        deadline = time.monotonic() + 60
        while True:
            try:
                assert web.get(f"http://{base}/healthz").status_code == 200
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


def _held_by_a_process(local_port: int, remote_port: int) -> bool:
    """Whether a process still has a socket of this loopback connection open (an orphaned one,
    closed by its owner while the kernel still holds unsent data, has inode 0)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == local_port and int(remote.split(":")[1], 16) == (
            remote_port
        ):
            return inode != "0"
    return False


def test_a_reader_that_stops_reading_a_page_file_is_cut_off(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    """Any HTTP response, not only a run's (routers/runs.py bounds those itself): a client
    that takes nothing for `send_stall_s` loses its connection (and the file it held)."""
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>t</title>")
    (dist / "big.js").write_bytes(b"x" * (32 << 20))
    with live_server(tmp_path / "r.sqlite3", frontend_dist=dist, send_stall_s=1.0) as base:
        host, port = base.split(":")
        s = socket.create_connection((host, int(port)))
        sockets.append(s)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(f"GET /big.js HTTP/1.1\r\nHost: {base}\r\n\r\n".encode())
        assert s.recv(12) == b"HTTP/1.1 200"
        # it reads nothing more: the server's writes stall, and it lets the connection go
        mine = s.getsockname()[1]
        deadline = time.monotonic() + 60
        while _held_by_a_process(int(port), mine) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _held_by_a_process(int(port), mine)
