"""The protocol package: commands, validation, derived vocabularies, generated files fresh."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import orjson
import pytest

import protocol
from protocol import check

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import gen_ts_types  # noqa: E402


def test_generated_typescript_is_fresh() -> None:
    committed = (ROOT / "frontend" / "src" / "protocol.ts").read_text(encoding="utf-8")
    assert committed == gen_ts_types.generate(), "run: python tools/gen_ts_types.py"


def test_generated_json_schema_is_fresh() -> None:
    committed = (ROOT / "protocol" / "schema.json").read_text(encoding="utf-8")
    assert committed == gen_ts_types.generate_schema(), "run: python tools/gen_ts_types.py"


def test_generated_typescript_covers_every_type() -> None:
    text = gen_ts_types.generate()
    for cls in (*protocol.EVENTS, *protocol.COMMANDS):
        assert f'type: "{protocol.type_of(cls)}";' in text
    # on the wire every event has the server's run_id and seq
    assert 'export interface Stdout {\n  type: "stdout";\n  t: number;\n  run_id: string;' in text


def test_protocol_imports_nothing_heavy_or_of_ours() -> None:
    # the worker imports it on the tracer's path: plain typing only (check.py is the server's)
    for path in (ROOT / "protocol").glob("*.py"):
        if path.name == "check.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                mod = node.module if isinstance(node, ast.ImportFrom) else None
                for name in [*names, *([mod] if mod else [])]:
                    root = name.split(".")[0]
                    assert root in {"typing", "dataclasses", "protocol"}, (path.name, name)


def test_vocabularies_are_derived_from_the_classes() -> None:
    assert {
        "step",
        "continue",
        "pause",
        "stop",
        "set_breakpoints",
        "tensor_values",
    } == protocol.RUN_COMMAND_TYPES
    assert {"stdout", "stderr"} == protocol.TEXT_EVENT_TYPES
    assert protocol.SERVER_EVENT_TYPES.isdisjoint(protocol.WORKER_EVENT_TYPES)
    assert len(protocol.EVENTS) == len({protocol.type_of(c) for c in protocol.EVENTS})


@pytest.mark.parametrize(
    "raw",
    [
        b'{"type": "step"}',
        '{"type": "set_breakpoints", "breakpoints": [{"op": "MulBackward0"}, {"on_nan": true}]}',
        '{"type": "resume", "run_id": "abc", "after_seq": 41}',
        '{"type": "tensor_values", "tensor_id": 3}',
        '{"type": "run", "code": "import torch", "options": {"pause_in_backward": true}}',
        '{"type": "continue"}',
        '{"type": "pause"}',
        '{"type": "stop"}',
    ],
)
def test_commands_parse(raw: str | bytes) -> None:
    cmd = check.parse_command(raw)
    assert cmd["type"] == orjson.loads(raw)["type"]


def test_command_defaults_are_filled_in() -> None:
    cmd = check.parse_command('{"type": "run", "code": "x"}')
    assert cmd["replace"] is False
    assert cmd["options"]["inline_limit"] == 64 and cmd["options"]["breakpoints"] == []
    assert check.parse_command('{"type": "resume", "run_id": "r"}')["after_seq"] == -1


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "{",
        "[]",
        "42",
        '{"type": "launch"}',
        '{"type": "halt", "why": "timeout"}',  # the server's to the worker, never a client's
        '{"no_type": 1}',
        '{"type": "tensor_values"}',
        '{"type": "resume", "after_seq": "x"}',
        '{"type": "step", "extra": 1}',
        '{"type": "tensor_values", "tensor_id": 18446744073709551616}',
        b"\xff\xfe",
    ],
)
def test_malformed_commands_are_refused_with_a_reason(raw: str | bytes) -> None:
    with pytest.raises(check.ProtocolError) as info:
        check.parse_command(raw)
    assert str(info.value)


def test_events_refuse_unknown_fields_types_and_missing_stamps() -> None:
    good = {"type": "stdout", "run_id": "r", "seq": 0, "t": 0, "text": "hi"}
    check.validate_event(good)
    for bad in (
        {**good, "surprise": 1},
        {**good, "type": "nope"},
        {**good, "text": 3},
        {k: v for k, v in good.items() if k != "seq"},
    ):
        with pytest.raises(check.ProtocolError):
            check.validate_event(bad)


def test_worker_batches_are_checked_but_stamps_are_the_servers() -> None:
    # whatever a worker puts in t/run_id/seq is overridden by the server, so it passes here
    check.check_worker_batch(b'[{"type":"stdout","text":"x","seq":"a","run_id":7,"t":"soon"}]')
    with pytest.raises(check.ProtocolError):
        check.check_worker_batch(b'[{"type":"error","t":0,"source":"sandbox","kind":"timeout"}]')
    with pytest.raises(check.ProtocolError):
        check.check_worker_batch(b'[{"type":"run_finished","status":"ok","events":0}]')
