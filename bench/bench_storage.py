"""The run store on SQLite and on PostgreSQL (a throwaway local server, fsync off as in the
tests), measured in one run so the two can be compared as ratios:

(a) saving a run as the server does while it runs (begin, an append per flush, finish) with
    the eviction check after each write: ms per run;
(b) reading it back a page at a time (1 MiB pages, as a resume or GET /api/runs does);
(c) WRITERS threads, each its own store (as replicas or runners are), storing runs at once:
    runs/s in all, against one writer;
(d) saving on an empty store vs on one holding FILL_MB of runs (the ratio; <= 1.5 means a
    save costs what the run is, not what the store is).
(e) --durable: appends of one small chunk per transaction (a runner's flush) from WRITERS
    threads at once, on a PostgreSQL server with fsync and synchronous commit on: appends/s
    (counted writes take one lock per database, so this is the store's write ceiling).

    .venv/bin/python bench/bench_storage.py [--events N] [--fill-mb M] [--durable]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.eventlog import Chunk
from server.storage import RUNNING, Retention, RunStore, StoredRun
from server.storage.postgres import PostgresRunStore
from server.storage.sqlite import SqliteRunStore
from tests.postgres_server import running_postgres

RETENTION = Retention(max_store_bytes=1 << 40, max_owner_bytes=1 << 30)
WRITERS = 4


def _chunks(events: int, per_chunk: int = 500) -> list[Chunk]:
    body = [{"type": "node", "t": 1, "name": "MulBackward0", "next": [[1, 0]]}] * per_chunk
    return [
        Chunk(k, per_chunk, orjson.dumps([dict(e, seq=k + i) for i, e in enumerate(body)]))
        for k in range(0, events, per_chunk)
    ]


def _store_run(store: RunStore, run_id: str, chunks: list[Chunk], flushes: int = 10) -> None:
    store.begin(StoredRun(run_id, "code", RUNNING, {}, time.time(), 0.0, 0, owner="o"))
    step = max(1, len(chunks) // flushes)
    groups = [chunks[i : i + step] for i in range(0, len(chunks), step)]
    for group in groups[:-1]:
        store.append(run_id, group)
        store.evict(RETENTION, "o", 0)
    final = StoredRun(run_id, "code", "ok", {}, time.time(), 1.0, chunks[-1].last + 1, owner="o")
    store.finish(final, groups[-1])
    store.evict(RETENTION, "o", 0)


def _median_s(job: Callable[[int], None], repeat: int = 5) -> float:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        job(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(name: str, make: Callable[[], RunStore], chunks: list[Chunk], fill_mb: int) -> None:
    store = make()
    size = sum(len(c.body) for c in chunks)
    save = _median_s(lambda i: _store_run(store, f"a{i}", chunks))

    def read(i: int) -> None:
        after = -1
        while page := store.chunks(f"a{i}", after, None, 1 << 20):
            after = page[-1].last

    read_s = _median_s(read)
    one = _median_s(lambda i: _store_run(store, f"one{i}", chunks), repeat=3)
    stores = [make() for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)

    def writer(w: int) -> None:
        barrier.wait()
        for r in range(3):
            _store_run(stores[w], f"w{w}-{r}", chunks)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    together = time.perf_counter() - t0
    for s in stores:
        s.close()
    n = 0
    while store.usage().bytes < fill_mb << 20:
        store.save(StoredRun(f"fill{n}", "code", "ok", {}, time.time(), 1.0, 1), chunks)
        n += 1
    full = _median_s(lambda i: _store_run(store, f"f{i}", chunks), repeat=3)
    store.close()
    print(
        f"{name:>10}: (a) store a {chunks[-1].last + 1:,}-event run ({size / 2**20:.1f} MiB) "
        f"{save * 1e3:.0f} ms; (b) read it by pages {read_s * 1e3:.0f} ms; "
        f"(c) {WRITERS} writers {WRITERS * 3 / together:.1f} runs/s vs one {1 / one:.1f} runs/s; "
        f"(d) on {fill_mb} MiB held / empty {full / save:.2f}"
    )


def durable_appends(writers: int, seconds: float = 5.0) -> None:
    """(e): appends/s of `writers` threads, each its own store, for `seconds`."""
    durable = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
    small = _chunks(100_000, per_chunk=1)
    with running_postgres(settings=durable) as pg:
        url = pg.create_database()
        stores = [PostgresRunStore(url) for _ in range(writers)]
        counts = [0] * writers
        barrier = threading.Barrier(writers)
        end = [0.0]

        def writer(w: int) -> None:
            run_id = f"d{w}"
            stores[w].begin(StoredRun(run_id, "code", RUNNING, {}, time.time(), 0.0, 0))
            barrier.wait()
            if w == 0:
                end[0] = time.monotonic() + seconds
            while not end[0] or time.monotonic() < end[0]:
                stores[w].append(run_id, [small[counts[w]]])
                counts[w] += 1

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for s in stores:
            s.close()
    print(f"(e) durable PostgreSQL: {writers} writers {sum(counts) / seconds:.0f} appends/s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--fill-mb", type=int, default=200)
    parser.add_argument("--durable", action="store_true")
    args = parser.parse_args()
    if args.durable:
        for writers in (1, WRITERS):
            durable_appends(writers)
        return
    chunks = _chunks(args.events)
    with tempfile.TemporaryDirectory() as tmp, running_postgres() as pg:
        measure("sqlite", lambda: SqliteRunStore(Path(tmp) / "runs.sqlite3"), chunks, args.fill_mb)
        url = pg.create_database()
        measure("postgresql", lambda: PostgresRunStore(url), chunks, args.fill_mb)


if __name__ == "__main__":
    main()
