"""Which `Host` and `Origin` a request may carry (Jupyter's `local_hostnames` and
`allow_origin`): the defence against other web pages (cross-site websockets) and against DNS
rebinding (a page whose own name resolves to this server).

>>> policy = HostPolicy.for_bind("127.0.0.1", extra_hosts=[], origins=[])
>>> policy.host_allowed("localhost:8000"), policy.host_allowed("evil.example:8000")
(True, False)
>>> policy.origin_allowed("http://localhost:8000", "localhost:8000")
True
>>> policy.origin_allowed("http://evil.example", "localhost:8000")
False
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
_WILDCARDS = ("0.0.0.0", "::", "")


def split_host(host: str) -> str:
    """The name or address of a Host header, lower case, without port or IPv6 brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


@dataclass(frozen=True)
class HostPolicy:
    """Allowed host names, whether any IP literal is allowed, and extra allowed origins."""

    names: frozenset[str]
    any_ip: bool  # bound to every interface: a client may use any of the machine's addresses
    any_host: bool  # "*" configured: no host check (behind a proxy that checks it)
    origins: frozenset[str]
    any_origin: bool

    @classmethod
    def for_bind(cls, bind: str, extra_hosts: list[str], origins: list[str]) -> HostPolicy:
        names = {split_host(h) for h in (*LOCAL_NAMES, *extra_hosts) if h and h != "*"}
        if bind not in _WILDCARDS:
            names.add(split_host(bind))
        return cls(
            names=frozenset(names),
            any_ip=bind in _WILDCARDS,
            any_host="*" in extra_hosts,
            origins=frozenset(o.rstrip("/").lower() for o in origins if o != "*"),
            any_origin="*" in origins,
        )

    def host_allowed(self, host: str | None) -> bool:
        """A name on the list, or an IP literal this server answers on. An IP literal cannot
        be a rebinding attack (that needs a name the attacker's DNS answers for); a loopback
        one is always this machine."""
        if self.any_host:
            return True
        if not host:
            return False
        name = split_host(host)
        if name in self.names:
            return True
        ip = _ip(name)
        return ip is not None and (ip.is_loopback or self.any_ip)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """No Origin (not a browser: browsers always send one on websockets and unsafe
        methods), this server's own (same host and port as the Host header), or a configured
        one. `null` (sandboxed frames, files) is never allowed unless listed."""
        if origin is None:
            return True
        origin = origin.strip().rstrip("/").lower()
        if self.any_origin or origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not parts.netloc or not host:
            return False
        return _netloc(parts.netloc, parts.scheme) == _netloc(host.lower(), parts.scheme)


def _netloc(netloc: str, scheme: str) -> str:
    """host:port with the scheme's default port made explicit."""
    name = split_host(netloc)
    port = ""
    tail = netloc.rsplit("]", 1)[-1] if netloc.startswith("[") else netloc
    if ":" in tail:
        port = tail.rsplit(":", 1)[1]
    port = port or ("443" if scheme == "https" else "80")
    return f"{name}:{port}"
