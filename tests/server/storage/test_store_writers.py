"""Several writers on one store at once (app replicas, runner processes: each its own
connection): no count lost, no run evicted twice or for the same overflow, a run left running
interrupted once. Threads start together at a barrier; nothing here depends on timing."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import orjson
import psycopg

from server.eventlog import Chunk
from server.storage import RUNNING, Retention, RunStore, StoredRun
from server.storage.postgres import PostgresRunStore
from tests.postgres_server import PostgresServer
from tests.server.storage.conftest import Opener

WRITERS = 4


def _together(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run each job in its own thread, released at once; their results (raising the first
    error)."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def _chunk(seq: int, size: int) -> Chunk:
    return Chunk(seq, 1, orjson.dumps([{"type": "stdout", "text": "x" * size, "seq": seq}]))


def test_writers_appending_at_once_lose_no_bytes(open_store: Opener) -> None:
    stores = [open_store() for _ in range(WRITERS)]

    def write(i: int) -> int:
        store, written = stores[i], 0
        for r in range(3):
            run_id = f"w{i}-{r}"
            store.begin(StoredRun(run_id, "code", RUNNING, {}, time.time(), 0, 0, owner=f"k{i}"))
            for seq in range(10):
                chunk = _chunk(seq, 10 * (i + 1))
                store.append(run_id, [chunk])
                written += len(chunk.body)
            final = StoredRun(run_id, "code", "ok", {}, 0, 1, 10, owner=f"k{i}")
            store.finish(final, [])
            written += len(b"code")
        return written

    written = _together([lambda i=i: write(i) for i in range(WRITERS)])
    usage = stores[0].usage()
    assert (usage.runs, usage.bytes) == (3 * WRITERS, sum(written))
    for i in range(WRITERS):
        run = stores[0].get(f"w{i}-2")
        assert run is not None and run.status == "ok" and len(stores[0].events(run.id)) == 10


def test_writers_evicting_at_once_evict_each_run_once_and_only_for_the_overflow(
    open_store: Opener,
) -> None:
    first = open_store()
    for r in range(12):
        body = _chunk(0, 1000)
        first.save(StoredRun(f"r{r:02}", "code", "ok", {}, float(r), 1, 1, owner="o"), [body])
    each = first.usage().bytes // 12
    stores = [first, *(open_store() for _ in range(WRITERS - 1))]
    cap = Retention(max_store_bytes=5 * each, max_owner_bytes=0)
    gone = _together([lambda s=s: s.evict(cap) for s in stores])
    evicted = [run_id for ids in gone for run_id in ids]
    assert sorted(evicted) == [f"r{r:02}" for r in range(7)]  # the oldest, each once
    assert (first.usage().runs, first.usage().bytes) == (5, 5 * each)


def test_a_run_interrupted_by_several_servers_at_once_ends_once(open_store: Opener) -> None:
    stores = [open_store() for _ in range(WRITERS)]
    stores[0].begin(StoredRun("r1", "code", RUNNING, {}, time.time(), 0, 0))
    stores[0].append("r1", [_chunk(0, 10), _chunk(1, 10)])
    done = _together([lambda s=s: s.interrupt("r1", "interrupted") for s in stores])
    assert sorted(done) == [False] * (WRITERS - 1) + [True]
    events = stores[0].events("r1")
    assert [e["seq"] for e in events] == [0, 1, 2] and events[-1]["type"] == "run_finished"


def test_a_run_shared_while_it_is_written_keeps_both(open_store: Opener) -> None:
    writer, reader = open_store(), open_store()
    writer.begin(StoredRun("r1", "code", RUNNING, {}, time.time(), 0, 0))

    def append() -> None:
        for seq in range(20):
            writer.append("r1", [_chunk(seq, 10)])

    def share() -> None:
        for _ in range(20):
            reader.mark_shared("r1")

    _together([append, share])
    run = reader.get("r1")
    assert run is not None and run.shared and run.n_events == 20
    assert _held(reader) == run.bytes


def _held(store: RunStore) -> int:
    return store.usage().bytes


def test_connections_the_database_dropped_are_replaced_before_use(
    postgres: PostgresServer,
) -> None:
    """A restart or failover of the PostgreSQL server ends every session: the store's next
    writes and reads go through new connections instead of failing."""
    store = PostgresRunStore(postgres.create_database())
    store.begin(StoredRun("r1", "code", RUNNING, {}, time.time(), 0, 0))
    _together([lambda: store.get("r1") for _ in range(4)])  # several pooled connections
    with psycopg.connect(postgres.url(), autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE pid != pg_backend_pid() AND backend_type = 'client backend'"
        ).fetchone()
    assert ended is not None and ended[0] >= 1
    store.append("r1", [_chunk(0, 10)])
    assert [e["seq"] for e in store.events("r1")] == [0]
    store.close()
