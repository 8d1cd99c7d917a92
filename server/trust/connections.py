"""Connections before the app sees a request: how many one peer (and all peers) may hold open,
and how long a request head may take.

uvicorn keeps a connection that has not finished its request head open for ever (its
keep-alive timer starts only after a response, and any byte received cancels it), and accepts
connections until the process runs out of file descriptors: a few thousand half-sent requests
from one client would keep the server from opening its database, a sandbox's pipes or another
client's socket. This protocol closes a connection whose request head is not complete within
`request_head_s` (of connecting, or of its previous response), and refuses (closes at once) a
connection past `max_connections_per_address` from one peer address (trusted proxies, whose
clients all share their address, are not counted) or past `max_open_connections` in all.

>>> config = uvicorn.Config(app, http=GuardedHttpProtocol, **UVICORN_WS)   # see server/cli.py
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
import weakref
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

# descriptors kept for everything else than client sockets (the database, sandboxes' pipes)
_RESERVED_FDS = 256


@dataclass(frozen=True)
class ConnectionLimits:
    """What one server allows before a request (from its Settings; defaults without one)."""

    request_head_s: float = 10.0
    per_address: int = 512
    total: int = 0  # 0: from the open-file limit
    trusted: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    @classmethod
    def of(cls, app: Any) -> ConnectionLimits:
        """The limits of the app's settings (a FastAPI app from create_app), else defaults."""
        settings = getattr(getattr(app, "state", None), "settings", None)
        if settings is None:
            return cls()
        return cls(
            settings.request_head_s,
            settings.max_connections_per_address,
            settings.max_open_connections,
            tuple(ipaddress.ip_network(p, strict=False) for p in settings.trusted_proxies),
        )

    def total_cap(self) -> int:
        if self.total:
            return self.total
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return 1 << 20
        return max(64, soft - _RESERVED_FDS)

    def counted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in net for net in self.trusted)


class _Peers:
    """Open transports per peer address of one server (weakly held: a closed one is gone)."""

    def __init__(self) -> None:
        self.by_address: dict[str, weakref.WeakSet[asyncio.BaseTransport]] = {}

    def open_from(self, address: str) -> weakref.WeakSet[asyncio.BaseTransport]:
        held = self.by_address.get(address)
        if held is None:
            if len(self.by_address) > 10_000:  # forget addresses that hold nothing
                self.by_address = {a: s for a, s in self.by_address.items() if len(s)}
            held = self.by_address[address] = weakref.WeakSet()
        return held


# per server (its uvicorn ServerState), so that servers in one process (tests) count apart
_PEERS: weakref.WeakKeyDictionary[Any, _Peers] = weakref.WeakKeyDictionary()
_LIMITS: weakref.WeakKeyDictionary[Any, ConnectionLimits] = weakref.WeakKeyDictionary()


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the limits of the module's docstring."""

    def __init__(self, config: Any, server_state: Any, app_state: Any, **kw: Any) -> None:
        super().__init__(config, server_state, app_state, **kw)
        limits = _LIMITS.get(config)
        if limits is None:
            limits = _LIMITS[config] = ConnectionLimits.of(config.app)
        self._limits = limits
        self._peers = _PEERS.setdefault(server_state, _Peers())
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if len(self.connections) >= self._limits.total_cap():
            transport.abort()  # (nothing sent: the server has no room to say more)
            return
        if self._limits.counted(address):
            held = self._peers.open_from(address)
            if len(held) >= self._limits.per_address:
                for old in [t for t in held if t.is_closing()]:
                    held.discard(old)
            if len(held) >= self._limits.per_address:
                transport.abort()
                return
            held.add(transport)
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self._limits.request_head_s, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        # how the guard cuts off a client that stops reading (trust/guard.py)
        self.scope["state"]["abort"] = self.transport.abort

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a pipelined request whose head has come already
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()  # the next request's head (keep-alive) is held to the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.transport is not None:
            super().connection_lost(exc)
