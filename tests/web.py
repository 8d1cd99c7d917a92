"""HTTP calls the tests make to a live server, with one stated timeout.

httpx waits 5 s by default. A loaded CI machine (two cores, six test workers, sandboxes and a
browser beside them) can stall a response that long, and the tests assert what the server
answers, never how fast: so every call waits generously here, and a hung server still fails."""

from __future__ import annotations

import functools
from typing import Any

import httpx

TIMEOUT = httpx.Timeout(60.0)

get = functools.partial(httpx.get, timeout=TIMEOUT)
post = functools.partial(httpx.post, timeout=TIMEOUT)


def client(**kwargs: Any) -> httpx.Client:
    return httpx.Client(timeout=TIMEOUT, **kwargs)


def async_client(**kwargs: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=TIMEOUT, **kwargs)
