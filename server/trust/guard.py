"""The ASGI middleware in front of every route: Host and Origin checks, the access token, and
who the request comes from (`scope["state"]["identity"]`, plus the owner cookie to set).

Every HTTP response is also held to `send_stall_s`: a client that takes nothing for that long
loses its connection. A refused websocket is accepted and closed at once with code 1008 and a
reason saying what to configure (a browser shows a plain 403 handshake failure without any
reason); a refused HTTP
request gets 403 (401 for a missing access token) with the same text.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Any
from urllib.parse import parse_qs, urlencode

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.trust.hosts import HostPolicy
from server.trust.identity import Identifier, cookies, header
from server.trust.tokens import ACCESS_COOKIE

POLICY_VIOLATION = 1008
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_OPEN_PATHS = frozenset({"/healthz"})  # liveness probes need no token


def _clip(text: str | None, n: int = 40) -> str:
    text = text or "(none)"
    return text if len(text) <= n else text[: n - 1] + "…"


class Guard:
    """Checks each request before the app sees it (see the module's docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        policy: HostPolicy,
        identifier: Identifier,
        access_token: str | None = None,
        send_stall_s: float = 120.0,
    ) -> None:
        self.app = app
        self.policy = policy
        self.identifier = identifier
        self.access_token = access_token
        self.send_stall_s = send_stall_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
        host = header(headers, b"host")
        origin = header(headers, b"origin")
        refusal: tuple[int, str] | None = None
        if sum(1 for k, _ in headers if k == b"host") > 1:
            refusal = (400, "more than one Host header")
        elif not self.policy.host_allowed(host):
            refusal = (403, f"host {_clip(host)} is not allowed here (BACKSCOPE_ALLOWED_HOSTS)")
        elif (kind == "websocket" or scope.get("method") not in _SAFE_METHODS) and not (
            self.policy.origin_allowed(origin, host)
        ):
            refusal = (403, f"origin {_clip(origin)} is not allowed (BACKSCOPE_ALLOWED_ORIGINS)")
        elif self.access_token and scope.get("path") not in _OPEN_PATHS:
            given = self._token_given(scope, headers)
            # (as bytes: compare_digest refuses str with non-ASCII characters)
            if given is None or not hmac.compare_digest(given.encode(), self.access_token.encode()):
                refusal = (401, "this server needs its access token (open the link with ?token=)")
            elif kind == "http" and _query_token(scope) is not None:
                await self._store_token(scope, send, given)
                return
        if refusal is not None:
            if kind == "websocket":
                await _close_websocket(receive, send, refusal[1])
            else:
                await _http_error(send, *refusal)
            return
        identity = self.identifier.identify(scope)
        state = scope.setdefault("state", {})
        state["identity"] = identity
        if kind == "websocket":
            state["abort"] = aborter(send)
        cookie = self.identifier.cookie(identity)
        if kind == "websocket":
            # the websocket route sets the cookie on its accept; `send` stays the server's own
            await self.app(scope, receive, send)
            return
        # (Starlette's outermost middleware wraps an HTTP `send`, hiding the transport: the
        # server's protocol puts its abort in the request's state, trust/connections.py)
        abort = state.get("abort") or aborter(send)
        stall_s = self.send_stall_s

        async def guarded(message: Message) -> None:
            if cookie is not None and message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [
                    *message.get("headers", []),
                    (b"set-cookie", cookie.encode("latin-1")),
                ]
            # a client that takes nothing for stall_s loses its connection (and what the
            # response holds: a file, a read slot); the server then drops what is left unsent
            try:
                async with asyncio.timeout(stall_s):  # (not wait_for: see feeds.Sender)
                    await send(message)
            except TimeoutError:
                abort()

        await self.app(scope, receive, guarded)

    def _token_given(self, scope: Scope, headers: list[tuple[bytes, bytes]]) -> str | None:
        auth = header(headers, b"authorization")
        if auth and auth.lower().startswith("bearer "):
            return auth[7:].strip()
        query = _query_token(scope)
        if query is not None:
            return query
        return cookies(headers).get(ACCESS_COOKIE)

    async def _store_token(self, scope: Scope, send: Send, token: str) -> None:
        """`?token=` on a page: keep it in a cookie and reload without it in the address."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        query.pop("token", None)
        rest = urlencode(query, doseq=True)
        # one leading slash: "//host/..." would send the browser to another site
        path = "/" + (scope.get("root_path", "") + scope.get("path", "/")).lstrip("/\\")
        location = path + (f"?{rest}" if rest else "")
        cookie = f"{ACCESS_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", location.encode("latin-1")),
                    (b"set-cookie", cookie.encode("latin-1")),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def aborter(send: Send) -> Any:
    """A function that cuts a websocket's connection without a closing handshake, for a peer
    that does not read (a close frame would wait behind what it does not read). The server's
    own `send` is a method of its connection protocol, which holds the transport (uvicorn);
    with another server, nothing is cut here and the peer is left to the server's timeouts."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    abort = getattr(transport, "abort", None)
    return abort if callable(abort) else (lambda: None)


def _query_token(scope: Scope) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("token")
    return values[0] if values else None


async def _close_websocket(receive: Receive, send: Send, reason: str) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    # a close reason is at most 123 bytes
    short = reason.encode()[:120].decode(errors="ignore")
    await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": short})


async def _http_error(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def identity_of(scope: dict[str, Any]) -> Any:
    """The Identity the guard put on a request."""
    return scope["state"]["identity"]
