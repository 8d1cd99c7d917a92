"""Owner tokens: a random id signed with the server's key, kept by the browser in an HttpOnly
cookie. A run belongs to the token (or the authenticated user) that started it.

>>> signer = Signer(b"k" * 32)
>>> token = signer.mint()
>>> signer.verify(token) == token.split(".")[0], signer.verify(token[:-1] + "x")
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

_log = logging.getLogger(__name__)
COOKIE = "backscope_owner"
ACCESS_COOKIE = "backscope_access"
_SIG = 16  # bytes of HMAC-SHA256 kept


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Signer:
    """Mints and checks owner tokens (`<id>.<signature>`), and digests owner keys for storage."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _sign(self, ident: str) -> str:
        return _b64(hmac.new(self._key, ident.encode(), hashlib.sha256).digest()[:_SIG])

    def mint(self) -> str:
        ident = _b64(secrets.token_bytes(16))
        return f"{ident}.{self._sign(ident)}"

    def verify(self, token: str | None) -> str | bool:
        """The token's id when its signature is ours, else False."""
        if not token or token.count(".") != 1 or len(token) > 100:
            return False
        ident, sig = token.split(".")
        return ident if hmac.compare_digest(sig, self._sign(ident)) else False

    def digest(self, owner_key: str) -> str:
        """What storage keeps of an owner key (never the token: a leaked file gives none)."""
        return hmac.new(self._key, b"owner:" + owner_key.encode(), hashlib.sha256).hexdigest()[:32]


def load_key(configured: str | None, folder: Path) -> bytes:
    """The signing key: the configured one, else one kept in `folder/secret_key` (made once,
    readable by this user only) so tokens outlive a restart."""
    if configured:
        return configured.encode()
    path = folder / "secret_key"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another server process made it first
        return path.read_bytes()
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    _log.info("made a new signing key for owner cookies in %s", path)
    return key
