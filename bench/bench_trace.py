"""Tracing cost: the 100-op chain and MLP steps with the tracer on vs off (issue 15's target:
<= 1.5x).

With tracing on, events are built in batches and serialized with orjson (as the sandbox
worker does), so the ratio includes the whole cost of producing the stream. Also reports the
cost of the no-tracer check itself (one `observer.tracer()` call per op), and two floors measured in the same
run: a tracer that only keeps one tuple of references per op and per backward step (the least
any in-process capture does), and orjson serializing the run's finished events alone (the least
any design that writes the JSON stream in the traced process pays).

    .venv/bin/python bench/bench_trace.py
"""

from __future__ import annotations

from _common import fmt  # first: pins BLAS to one thread before numpy loads

# isort: split
import time
import timeit
from typing import Any

import bench_engine
import numpy as np
import orjson

import engine
from engine.autograd import observer
from engine.tracing import Tracer, values
from engine.tracing.stepper import Backward

TARGET = 1.5


def traced(fn: Any, counts: list[int]) -> Any:
    """`fn` run under a fresh tracer whose sink serializes every batch to JSON (as the worker
    does); `counts` gets the number of events of each call."""

    def sink(batch: list[dict[str, Any]]) -> None:
        orjson.dumps(batch, option=orjson.OPT_SERIALIZE_NUMPY)

    def run() -> None:
        counts.append(trace_once(fn, sink).count)

    return run


def trace_once(fn: Any, sink: Any) -> Tracer:
    """Run `fn` once under a fresh tracer handing its batches to `sink`."""
    tr = Tracer(sink, bench_engine.__file__, {"arrays": True})  # as the worker's
    tr.backward = Backward(tr, None, {})
    observer.install(tr)
    try:
        fn()
        tr.flush()
    finally:
        observer.install(None)
    return tr


class RefsOnly:
    """The least a tracer can do: keep one tuple of references per op and per backward step
    (no snippet line, no copies, nothing built); every other observer call does nothing."""

    def __init__(self) -> None:
        self.buf: list[Any] = []

    def node_made(self, node: Any, outputs: Any, inputs: Any) -> None:
        self.buf.append((node, outputs, inputs))

    def drive(self, steps: Any) -> None:
        add = self.buf.append
        for step in steps:
            add(step)

    def __getattr__(self, name: str) -> Any:
        return _nothing


def _nothing(*args: Any) -> None:
    return None


def refs_only(fn: Any) -> Any:
    """`fn` run under a `RefsOnly` tracer."""

    def run() -> None:
        observer.install(RefsOnly())
        try:
            fn()
        finally:
            observer.install(None)

    return run


def parts(fn: Any) -> tuple[Any, Any]:
    """Two functions that each redo one part of a traced run of `fn` on its recorded inputs:
    orjson serializing the run's finished events, and summarizing the run's large arrays."""
    batches: list[list[dict[str, Any]]] = []
    groups: list[list[np.ndarray[Any, Any]]] = []  # each flush's arrays, summarized together
    summarize_all = values.summarize_all

    def keep(jobs: list[tuple[np.ndarray[Any, Any], Any]]) -> None:
        groups.append([a.copy() for a, _ in jobs])
        summarize_all(jobs)

    values.summarize_all = keep
    try:
        trace_once(fn, batches.append)
    finally:
        values.summarize_all = summarize_all

    def dumps() -> None:
        for batch in batches:
            orjson.dumps(batch, option=orjson.OPT_SERIALIZE_NUMPY)

    def summaries() -> None:
        for group in groups:
            summarize_all([(a, {}) for a in group])

    return dumps, summaries


def protocol_check(fn: Any) -> tuple[Any, Any]:
    """Two functions over the frames a traced run of `fn` sends: the server reading them
    (Batch.decode) and reading them with the protocol check (`Batch.check_worker`)."""
    from server.sandbox.batch import Batch

    bodies: list[bytes] = []
    trace_once(fn, lambda b: bodies.append(orjson.dumps(b, option=orjson.OPT_SERIALIZE_NUMPY)))

    def read() -> None:
        for body in bodies:
            Batch.decode(body)

    def read_checked() -> None:
        for body in bodies:
            Batch.decode(body).check_worker(body)

    return read, read_checked


def check_cost() -> float:
    """Seconds per `observer.tracer()` check, as an op makes it (the whole no-tracer cost of
    one op)."""
    n = 2_000_000
    stmt = "t = observer.tracer()\nif t is not None: pass"
    base = timeit.timeit("pass", number=n)
    return (timeit.timeit(stmt, globals={"observer": observer}, number=n) - base) / n


def interleaved(off: Any, on: Any, rounds: int, min_time: float = 0.05) -> tuple[float, float]:
    """Seconds per call of `off` and `on`: the fastest of rounds measured in alternation (other
    processes on a shared machine only ever add time, so the minimum is the steadiest)."""
    off()
    on()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            off()
        if time.perf_counter() - t0 >= min_time:
            break
        n *= 2
    a, b = [], []
    for _ in range(rounds):
        for fn, acc in ((off, a), (on, b)):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            acc.append((time.perf_counter() - t0) / n)
    return min(a), min(b)


def main() -> None:
    x0 = np.random.default_rng(2).standard_normal(16).astype(np.float32)
    cases = [("100-op chain forward+backward", bench_engine.chain(engine, x0), 11)]
    for sizes, batch in (((784, 256, 10), 64), ((1024, 1024, 1024, 10), 256)):
        name = f"MLP step B{batch} {'-'.join(map(str, sizes))}"
        cases.append((name, bench_engine.mlp(engine, sizes, batch), 7))
    print(f"no-tracer check per op: {check_cost() * 1e9:.1f} ns (target <= 100 ns)")
    for name, fn, rounds in cases:
        counts: list[int] = []
        off, on = interleaved(fn, traced(fn, counts), rounds)
        verdict = "ok" if on / off <= TARGET else "MISSED"
        n = counts[-1]
        print(
            f"{name:36s} off={fmt(off)} on={fmt(on)}  on/off = {on / off:5.2f}x "
            f"(target <= {TARGET}x) {verdict}; {n} events, {(on - off) / n * 1e6:.2f} us/event"
        )
        off2, refs = interleaved(fn, refs_only(fn), rounds)
        dumps, summaries = parts(fn)
        json_t, summ_t = interleaved(dumps, summaries, rounds)
        print(
            f"{'':36s} floors: refs-only capture {refs / off2:5.2f}x; alone, as a fraction "
            f"of untraced: orjson of the stream {json_t / off2:4.2f}, the large-tensor "
            f"summaries {summ_t / off2:4.2f}"
        )
        read, checked = protocol_check(fn)
        read_t, checked_t = interleaved(read, checked, rounds)
        print(
            f"{'':36s} server side: the protocol check of the stream adds "
            f"{(checked_t - read_t) / n * 1e9:.0f} ns/event to reading it "
            f"({(checked_t - read_t) / (on - off):.2f} of the tracing cost)"
        )


if __name__ == "__main__":
    main()
