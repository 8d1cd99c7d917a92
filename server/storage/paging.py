"""Reading a stored run a page at a time, in a thread, as the consumer asks for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from server.eventlog import Chunk
from server.storage.interface import RunStore

# What one read of a stored run holds in memory at most (plus one chunk): a run's log can be
# large, and many clients reading it at once must not each load all of it.
PAGE_BYTES = 1 << 20


async def pages(
    store: RunStore,
    run_id: str,
    after: int = -1,
    limit: int | None = None,
    page_bytes: int = PAGE_BYTES,
) -> AsyncIterator[Chunk]:
    """The chunks of a stored run after `after` (at most `limit` events)."""
    while limit is None or limit > 0:
        page = await asyncio.to_thread(store.chunks, run_id, after, limit, page_bytes)
        if not page:
            return
        for chunk in page:
            yield chunk
        after = page[-1].last
        if limit is not None:
            limit -= sum(chunk.count for chunk in page)
