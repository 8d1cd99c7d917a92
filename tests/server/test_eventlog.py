"""The run log's chunks: numbering events in their own bytes, cutting chunks for resume and
paging, and storing them (including files written by the one-row-per-event layout)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from server.eventlog import Chunk, EventLog, join, stamp
from server.sandbox.batch import Batch, BatchError

SIZES = (3, 1, 4, 2)  # events per appended batch


def _batch(*events: bytes) -> Batch:
    return Batch.decode(b"[" + b",".join(events) + b"]")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)


def _log() -> tuple[EventLog, list[dict[str, Any]]]:
    """A log of batches of SIZES events, and the events as a client reads them."""
    log = EventLog()
    n = 0
    for size in SIZES:
        raws = [b'{"type":"stdout","t":%d,"text":"%d"}' % (10 * i, i) for i in range(n, n + size)]
        log.add(stamp(_batch(*raws), "r1", log.count, 0))
        n += size
    events = [
        {"type": "stdout", "t": 10 * i, "text": str(i), "run_id": "r1", "seq": i} for i in range(n)
    ]
    return log, events


def test_stamp_appends_run_id_seq_and_a_missing_t_to_the_workers_own_bytes() -> None:
    node = b'{"type":"stdout","t":5,"text":"1"}'
    chunk = stamp(_batch(node, b'{"type":"stdout","text":"hi"}'), "r1", 7, 99)
    assert (chunk.first, chunk.count, chunk.last) == (7, 2, 8)
    assert orjson.loads(chunk.body) == [
        {"type": "stdout", "t": 5, "text": "1", "run_id": "r1", "seq": 7},
        {"type": "stdout", "text": "hi", "run_id": "r1", "seq": 8, "t": 99},
    ]
    assert chunk.body.startswith(b"[" + node[:-1] + b',"run_id":')


@pytest.mark.parametrize(
    ("event", "t"),
    [
        (b'{"type":"stdout","text":"x","t":1,"seq":0}', 1),
        (b'{"type":"stdout","text":"x","t":1,"run_id":"another-run"}', 1),
        (b'{"type":"stdout","text":"x","t":1,"se\\u0071":0}', 1),  # an escaped key is still `seq`
        (b'{"type":"stdout","text":"x","t":"soon"}', 42),
        (b'{"type":"stdout","text":"x","t":null}', 42),
        (b'{"type":"stdout","text":"x","t":1.5}', 42),
        (b'{"type":"stdout","text":"x","t":true}', 42),
        (
            b'{"type":"stdout","text":"x","t":1,"t":"x"}',
            42,
        ),  # the last duplicate is what clients read
        (b' { "type" : "stdout" , "text" : "x" , "t" : 4 } ', 4),
    ],
)
def test_the_servers_run_id_seq_and_t_are_the_only_ones_a_client_reads(
    event: bytes, t: int
) -> None:
    body = stamp(_batch(event), "r1", 3, 42).body
    (seen,) = json.loads(body, object_pairs_hook=_no_duplicate_keys)
    assert (seen["type"], seen["run_id"], seen["seq"], seen["t"]) == ("stdout", "r1", 3, t)


@pytest.mark.parametrize(
    "body",
    [
        b'[{"type":"a","x":"\xff"}]',  # invalid UTF-8 inside a string
        b'[{"type":"a","x":"\\ud800"}]',  # a lone surrogate
        b'[{"type":"a","type":5}]',  # the last `type` is the one a client reads
        b'[{"type":"a","x":' + b"[" * 5000 + b"]" * 5000 + b"}]",
        b'[{"type":"a"},]',
        b'[{"type":"a","x":NaN}]',
        b'[{"type":"a"}] trailing',
        b'[{"type":"a"}, 3]',
    ],
)
def test_batches_refuse_what_a_strict_json_parser_would(body: bytes) -> None:
    with pytest.raises(BatchError):
        Batch.decode(body)


def test_a_batch_iterates_as_the_events_it_holds() -> None:
    events: list[dict[str, Any]] = [
        {"type": "stdout", "text": "é\n", "t": 1},
        {"type": "error", "message": "x"},
    ]
    assert list(Batch.of(events)) == events
    assert [h.type for h in Batch.of(events).heads] == ["stdout", "error"]


def test_the_log_refuses_a_chunk_out_of_order() -> None:
    log, _ = _log()
    with pytest.raises(ValueError, match="starts at seq"):
        log.add(Chunk(3, 1, b'[{"type":"stdout"}]'))


def test_resume_and_paging_cut_chunks_exactly_at_any_seq() -> None:
    log, events = _log()
    for after in range(-1, len(events) + 1):
        for limit in (None, 1, 2, 3, 5, 100):
            want = events[after + 1 :][:limit]
            chunks = log.after(after, limit)
            assert [e for c in chunks for e in c.events()] == want, (after, limit)
            assert [(c.first, c.count) for c in chunks] == [
                (c.events()[0]["seq"], len(c.events())) for c in chunks
            ]
            # a page or a frame is the chunks' bytes joined: the same as serializing the list
            assert join(chunks) == orjson.dumps(want)


def test_a_bounded_read_after_the_end_of_a_large_chunk_gets_the_next_one() -> None:
    """The chunk found by bisection ends at `after`: its bytes must not use up the read's
    budget (a 1 MB run_started hid every later event from a resume)."""
    log = EventLog()
    big = b'{"type":"stdout","t":0,"text":"' + b"x" * 5000 + b'"}'
    log.add(stamp(_batch(big), "r1", 0, 0))
    log.add(stamp(_batch(b'{"type":"stdout","t":1,"text":"y"}'), "r1", 1, 0))
    chunks = log.after(0, max_bytes=1000)
    assert [e["text"] for c in chunks for e in c.events()] == ["y"]
