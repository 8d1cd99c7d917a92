"""The run store (server/storage), the same on SQLite and PostgreSQL: a run stored while it
runs, read back page by page, its end, caps and retention, and a run left by a server that is
gone."""

from __future__ import annotations

import time
from typing import Any

import orjson
import pytest

from server.eventlog import Chunk, EventLog, join, stamp
from server.sandbox.batch import Batch
from server.storage import RUNNING, Retention, RunStore, StoredRun

SIZES = (3, 1, 4, 2)  # events per appended batch


def _log(run_id: str = "r1", sizes: tuple[int, ...] = SIZES) -> tuple[EventLog, list[Any]]:
    """A log of batches of `sizes` events, and the events as a client reads them."""
    log = EventLog()
    n = 0
    for size in sizes:
        raws = [b'{"type":"stdout","t":%d,"text":"%d"}' % (10 * i, i) for i in range(n, n + size)]
        log.add(stamp(Batch.decode(b"[" + b",".join(raws) + b"]"), run_id, log.count, 0))
        n += size
    events = [
        {"type": "stdout", "t": 10 * i, "text": str(i), "run_id": run_id, "seq": i}
        for i in range(n)
    ]
    return log, events


def _run(store: RunStore, run_id: str, chunks: int, owner: str = "o") -> None:
    body = orjson.dumps([{"type": "stdout", "text": "x" * 100, "t": 0}] * 10)
    run = StoredRun(run_id, "code", "ok", {}, time.time(), 1.0, chunks * 10, owner=owner)
    store.save(run, [Chunk(k * 10, 10, body) for k in range(chunks)])


def test_the_store_pages_a_saved_run_like_the_live_log(store: RunStore) -> None:
    log, events = _log()
    store.save(StoredRun("r1", "code", "ok", {"a": [1]}, 1.0, 2.0, len(events)), log.chunks)
    for after in range(-1, len(events) + 1):
        for limit in (None, 1, 4, 100):
            want = events[after + 1 :][:limit]
            assert store.events("r1", after, limit) == want, (after, limit)
            assert join(store.chunks("r1", after, limit)) == orjson.dumps(want)
    assert store.chunks("nope") == []
    run = store.get("r1")
    assert run is not None and (run.options, run.n_events, run.status) == ({"a": [1]}, 10, "ok")
    assert store.get("nope") is None


def test_a_read_stops_at_its_byte_budget_and_the_next_page_follows(store: RunStore) -> None:
    """A long run (more chunks than one query of the PostgreSQL store reads) paged by bytes:
    every page holds at least one chunk and the pages join to the whole log."""
    log, events = _log(sizes=(2,) * 100)
    store.save(StoredRun("r1", "code", "ok", {}, 1.0, 2.0, len(events)), log.chunks)
    one = len(log.chunks[0].body)
    after, seen, pages = -1, list[Any](), 0
    while page := store.chunks("r1", after, None, max_bytes=3 * one):
        assert 1 <= len(page) <= 3
        seen += [e for c in page for e in c.events()]
        after, pages = page[-1].last, pages + 1
    assert seen == events and pages == 34
    assert store.events("r1", 150, 7) == events[151:158]


def test_a_run_is_stored_while_it_runs_and_ends_with_its_status(store: RunStore) -> None:
    log, events = _log()
    row = StoredRun("r1", "print(1)", RUNNING, {}, 1.0, 0.0, 0, owner="me", instance="h:1:2")
    store.begin(row)
    store.append("r1", log.chunks[:2])
    stored = store.get("r1")
    assert stored is not None and stored.status == RUNNING and stored.n_events == 4
    assert store.events("r1") == events[:4]
    assert store.unfinished() == [("r1", "h:1:2", pytest.approx(time.time(), abs=3600))]
    final = StoredRun("r1", "print(1)", "ok", {}, 1.0, 5.0, len(events), owner="me", shared=True)
    store.finish(final, log.chunks[2:])
    stored = store.get("r1")
    assert stored is not None
    assert (stored.status, stored.n_events, stored.duration_ms, stored.shared) == (
        "ok",
        10,
        5.0,
        True,
    )
    assert stored.bytes == len(b"print(1)") + sum(len(c.body) for c in log.chunks)
    assert store.events("r1") == events
    assert store.unfinished() == []
    assert store.usage().runs == 1 and store.usage().bytes == stored.bytes


def test_a_run_left_running_is_interrupted_once_after_its_last_saved_event(
    store: RunStore,
) -> None:
    log, events = _log()
    store.begin(StoredRun("r1", "x", RUNNING, {}, 1.0, 0.0, 0))
    store.append("r1", log.chunks[:2])
    assert store.interrupt("r1", "interrupted") is True
    assert store.interrupt("r1", "interrupted") is False  # not running any more
    assert store.interrupt("nope", "interrupted") is False
    got = store.events("r1")
    assert got[:4] == events[:4]
    assert got[4]["type"] == "run_finished" and got[4]["status"] == "interrupted"
    assert (got[4]["seq"], got[4]["events"]) == (4, 5)
    run = store.get("r1")
    assert run is not None and (run.status, run.n_events) == ("interrupted", 5)
    # a run that saved nothing yet ends with run_finished alone
    store.begin(StoredRun("r2", "x", RUNNING, {}, 1.0, 0.0, 0))
    assert store.interrupt("r2", "interrupted")
    assert [e["seq"] for e in store.events("r2")] == [0]


def test_save_replaces_a_run_of_the_same_id(store: RunStore) -> None:
    _run(store, "r1", 5)
    _run(store, "r1", 2)
    run = store.get("r1")
    assert run is not None and run.n_events == 20 and len(store.events("r1")) == 20
    assert store.usage().runs == 1 and store.usage().bytes == run.bytes


def test_retention_and_caps_at_the_store(store: RunStore) -> None:
    for i in range(6):
        _run(store, f"r{i}", 10, owner="a" if i < 4 else "b")
    each = store.get("r0").bytes  # type: ignore[union-attr]
    assert store.usage().bytes == 6 * each
    # over the store's cap: the oldest runs of whoever holds the most (a: 4 runs, then 3)
    assert store.evict(Retention(max_store_bytes=4 * each, max_owner_bytes=0)) == ["r0", "r1"]
    store.mark_shared("r2")
    # never-shared runs first; a tie between holders goes to the oldest run
    assert store.evict(Retention(max_store_bytes=3 * each, max_owner_bytes=0)) == ["r3"]
    # b holds two now, a one (shared)
    assert store.evict(Retention(max_store_bytes=2 * each, max_owner_bytes=0)) == ["r4"]
    assert store.evict(Retention(1 << 40, 0, max_age_s=1e-9)) == ["r2", "r5"]
    assert store.usage().runs == 0 and store.usage().bytes == 0
    assert store.events("r0") == []


def test_a_key_over_its_share_loses_its_own_oldest_runs_and_a_running_one_is_kept(
    store: RunStore,
) -> None:
    store.begin(StoredRun("live", "x", RUNNING, {}, 0.0, 0.0, 0, owner="a"))
    for i in range(3):
        _run(store, f"a{i}", 10, owner="a")
    _run(store, "b0", 10, owner="b")
    each = store.get("a0").bytes  # type: ignore[union-attr]
    # a's share: two runs and the running one's code (1 byte), counting the save to come
    share = Retention(1 << 40, max_owner_bytes=2 * each + 1)
    gone = store.evict(share, quota="a", incoming=each)
    assert gone == ["a0", "a1"]
    assert store.get("live") is not None and store.get("b0") is not None
    # nothing left to evict but the running run: eviction stops rather than take it
    assert store.evict(Retention(max_store_bytes=1, max_owner_bytes=0)) == ["a2", "b0"]
    assert store.get("live") is not None


def test_a_closed_store_refuses_writes(store: RunStore) -> None:
    store.close()
    with pytest.raises(RuntimeError, match="closed"):
        _run(store, "r1", 1)
