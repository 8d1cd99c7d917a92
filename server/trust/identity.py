"""Who a request comes from: the owner of the runs it starts, and the key its limits count
against.

- Behind a trusted proxy (`trusted_proxies`), the client's address is the forwarded one
  (X-Forwarded-For, the nearest address that is not a trusted proxy), and an `auth_header`
  it sets names the user: runs then belong to that user and limits are per user.
- Otherwise runs belong to the browser's owner token (a signed HttpOnly cookie the server
  sets on a page load); limits are per token, behind a trusted proxy per forwarded address.
  A client without a token (a script) owns its runs for that connection only, and its limits
  are its address's.
Headers from a peer that is not a trusted proxy are never believed.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

from server.limits import RateLimiter
from server.trust.tokens import COOKIE, Signer

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Identity:
    """`owner`: digest of the owner key (kept with runs; a command must match it). `quota`:
    the key its limits count against. `address`: the client's (forwarded) address. `token`:
    an owner token to give the client (it came without a valid one)."""

    owner: str
    quota: str
    address: str
    user: str | None = None
    token: str | None = None
    secure: bool = False


def cookies(headers: list[tuple[bytes, bytes]]) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in headers:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header is no cookie
                continue
    return {k: m.value for k, m in jar.items()}


def header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return None


class Identifier:
    """Turns a request's scope into an Identity, as configured."""

    def __init__(
        self,
        signer: Signer,
        trusted_proxies: list[str],
        auth_header: str | None,
        mint_burst: int = 50,
        mints_per_minute: float = 20.0,
    ) -> None:
        self.signer = signer
        self.mints = RateLimiter(mint_burst, mints_per_minute)
        self.proxies: list[Network] = [
            ipaddress.ip_network(p, strict=False) for p in trusted_proxies
        ]
        self.auth_header = auth_header.lower().encode() if auth_header else None

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.proxies)

    def _forwarded(self, value: str | None, peer: str) -> str:
        """The nearest address in X-Forwarded-For that is not one of our proxies."""
        hops = [h.strip() for h in (value or "").split(",") if h.strip()]
        for hop in reversed(hops):
            if not self._trusted(hop):
                return hop[:64]
        return hops[0][:64] if hops else peer

    def identify(self, scope: MutableMapping[str, Any]) -> Identity:
        headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
        client = scope.get("client")
        peer = str(client[0]) if client else "?"
        via_proxy = self._trusted(peer)
        address = self._forwarded(header(headers, b"x-forwarded-for"), peer) if via_proxy else peer
        scheme = scope.get("scheme", "http")
        if via_proxy:
            scheme = (header(headers, b"x-forwarded-proto") or scheme).split(",")[0].strip()
        secure = scheme in ("https", "wss")
        user = header(headers, self.auth_header) if via_proxy and self.auth_header else None
        if user:
            key = "user:" + user[:256]
            return Identity(self.signer.digest(key), key, address, user=user, secure=secure)
        by_address = f"addr:{address}"
        ident = self.signer.verify(cookies(headers).get(COOKIE))
        if ident:  # a client that kept its token: its own limits (behind a proxy: its address)
            owner = self.signer.digest(f"token:{ident}")
            return Identity(owner, by_address if via_proxy else f"token:{owner}", address)
        # No token yet. A page load gets one (at most `mints` per address: tokens are free,
        # and each is a set of limits of its own; health probes and scripts' API calls get
        # none); a connection without one owns its runs alone and counts against its address.
        token = None
        if _page_load(scope, headers) and self.mints.allow(address):
            token = self.signer.mint()
        owner = self.signer.digest(f"conn:{secrets.token_hex(16)}")
        return Identity(owner, by_address, address, token=token, secure=secure)

    def cookie(self, identity: Identity) -> str | None:
        """The Set-Cookie value giving the client its owner token (None when it has one)."""
        if identity.token is None:
            return None
        secure = "; Secure" if identity.secure else ""
        return (
            f"{COOKIE}={identity.token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax{secure}"
        )


def _page_load(scope: MutableMapping[str, Any], headers: list[tuple[bytes, bytes]]) -> bool:
    """A browser loading a page (what asks for HTML), the moment to hand out an owner token."""
    if scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    return "text/html" in (header(headers, b"accept") or "")
