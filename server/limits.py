"""Per-client limits: runs started (token buckets), open connections and concurrent HTTP reads
(counters). Each is keyed by the client's quota key (its user, forwarded address or owner
token: see trust/identity.py) and, as a safety net against a client minting owner tokens,
by its address with a larger allowance."""

from __future__ import annotations

import time
from collections import Counter


class RateLimiter:
    """A token bucket per key."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = burst
        self.rate = per_minute / 60.0
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:  # forget full buckets: they hold nothing
            self._buckets = {k: v for k, v in self._buckets.items() if v[0] < self.burst - 1}
        return True


class Counted:
    """How many of something each key holds at once, with a cap per key and one in all."""

    def __init__(self, per_key: int, total: int | None = None) -> None:
        self.per_key = per_key
        self.total = total
        self._held: Counter[str] = Counter()
        self._all = 0

    def take(self, *keys: str, factor: tuple[int, ...] = ()) -> bool:
        """Take one for every key (key i may hold per_key * factor[i]); False: none taken."""
        if self.total is not None and self._all >= self.total:
            return False
        for i, key in enumerate(keys):
            cap = self.per_key * (factor[i] if i < len(factor) else 1)
            if self._held[key] >= cap:
                return False
        for key in keys:
            self._held[key] += 1
        self._all += 1
        return True

    def held(self, key: str) -> int:
        return self._held[key]

    def give(self, *keys: str) -> None:
        for key in keys:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]
        self._all -= 1


class ClientLimits:
    """The limits one server applies to its clients."""

    # an address may do this many times what one client may (several browsers behind it)
    ADDRESS_FACTOR = 8

    def __init__(
        self,
        burst: int,
        per_minute: float,
        connections: int,
        http_reads: int,
        http_reads_per_client: int,
    ) -> None:
        self.runs = RateLimiter(burst, per_minute)
        self.address_runs = RateLimiter(burst * self.ADDRESS_FACTOR, per_minute * 8)
        self.connections = Counted(connections)
        self.reads = Counted(http_reads_per_client, http_reads)

    @staticmethod
    def keys(quota: str, address: str, factor: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The keys a client's use counts against (its quota key, and its address unless that
        is the quota key already), each with how many times the per-client cap it may hold."""
        by_address = f"addr:{address}"
        if quota == by_address:
            return (by_address,), (1,)
        return (quota, by_address), (1, factor)

    def take_read(self, quota: str, address: str) -> bool:
        """A read of a run over HTTP may start (tokens are free, so an address holds no more
        reads than one client: a read is short unless its client stalls it)."""
        keys, factor = self.keys(quota, address, 1)
        return self.reads.take(*keys, factor=factor)

    def give_read(self, quota: str, address: str) -> None:
        self.reads.give(*self.keys(quota, address, 1)[0])

    def allow_run(self, quota: str, address: str) -> bool:
        if quota == f"addr:{address}":  # keyed by the address already
            return self.runs.allow(quota)
        return self.runs.allow(quota) and self.address_runs.allow(address)
