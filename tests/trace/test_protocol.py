"""The protocol module: commands, typed errors, and the generated TypeScript staying fresh."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from server import protocol

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import gen_ts_types  # noqa: E402


def test_generated_typescript_is_fresh() -> None:
    committed = (ROOT / "frontend" / "src" / "protocol.ts").read_text(encoding="utf-8")
    assert committed == gen_ts_types.generate(), "run: python tools/gen_ts_types.py"


def test_generated_typescript_covers_every_type() -> None:
    text = gen_ts_types.generate()
    for adapter in (protocol.EVENT, protocol.COMMAND):
        for tag in adapter.json_schema()["discriminator"]["mapping"]:
            assert f'type: "{tag}";' in text


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
    cmd = protocol.parse_command(raw)
    assert not isinstance(cmd, protocol.CommandError)
    assert cmd.type == orjson.loads(raw)["type"]


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "{",
        "[]",
        "42",
        '{"type": "launch"}',
        '{"no_type": 1}',
        '{"type": "tensor_values"}',
        '{"type": "resume", "after_seq": "x"}',
        '{"type": "step", "extra": 1}',
        b"\xff\xfe",
    ],
)
def test_malformed_commands_give_typed_errors(raw: str | bytes) -> None:
    err = protocol.parse_command(raw, run_id="r1", seq=7, t=5)
    assert isinstance(err, protocol.CommandError)
    assert (err.type, err.run_id, err.seq) == ("command_error", "r1", 7)
    protocol.EVENT.validate_python(err.model_dump())


def test_events_refuse_unknown_fields_and_types() -> None:
    good = {"type": "stdout", "run_id": "r", "seq": 0, "t": 0, "text": "hi"}
    protocol.EVENT.validate_python(good)
    with pytest.raises(ValueError):
        protocol.EVENT.validate_python({**good, "surprise": 1})
    with pytest.raises(ValueError):
        protocol.EVENT.validate_python({**good, "type": "nope"})
