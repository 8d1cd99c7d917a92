"""`backscope trace`: JSON Lines valid against the schema, exit status, stdin, event cap."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from protocol import PROTOCOL_VERSION
from protocol.check import validate_event
from server.cli import main
from tests.trace.snippets import FAILING, RUNNABLE


def _run(tmp_path: Path, code: str, *flags: str) -> tuple[int, list[dict[str, Any]]]:
    src = tmp_path / "snippet.py"
    src.write_text(code, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    rc = main(["trace", str(src), "-o", str(out), *flags])
    return rc, [orjson.loads(line) for line in out.read_bytes().splitlines()]


def _check(events: list[dict[str, Any]]) -> None:
    assert [e["seq"] for e in events] == list(range(len(events)))
    assert len({e["run_id"] for e in events}) == 1
    for e in events:
        validate_event(e)
    assert events[0]["type"] == "run_started" and events[0]["version"] == PROTOCOL_VERSION
    assert events[-1]["type"] == "run_finished"
    assert events[-1]["events"] == len(events)


def test_trace_file(tmp_path: Path) -> None:
    rc, events = _run(tmp_path, RUNNABLE["hooks"])
    assert rc == 0
    _check(events)
    assert events[-1]["status"] == "ok"
    assert any(e["type"] == "hook_fired" for e in events)
    src = str(tmp_path / "snippet.py")
    assert next(e for e in events if e["type"] == "tensor")["tensor"]["line"] == 2, src


def test_trace_error_exits_nonzero(tmp_path: Path) -> None:
    rc, events = _run(tmp_path, FAILING["error_in_backward"])
    assert rc == 1
    _check(events)
    assert events[-2]["type"] == "error" and events[-1]["status"] == "error"


def test_trace_pause_backward(tmp_path: Path) -> None:
    rc, events = _run(tmp_path, RUNNABLE["branches"], "--pause-backward")
    assert rc == 0
    _check(events)
    enters = [e["node"] for e in events if e["type"] == "node_enter"]
    assert [e["node"] for e in events if e["type"] == "paused"] == enters


def test_trace_max_events(tmp_path: Path) -> None:
    rc, events = _run(tmp_path, RUNNABLE["branches"], "--max-events", "10")
    assert rc == 0
    _check(events)
    assert len(events) == 10 and events[-1]["status"] == "limit"


def test_trace_stdin(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("import torch\nprint(torch.ones(2) * 3)\n"))
    out = tmp_path / "o.jsonl"
    assert main(["trace", "-", "-o", str(out)]) == 0
    events = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    _check(events)
    assert [e["text"] for e in events if e["type"] == "stdout"] == ["tensor([3., 3.])\n"]


def test_a_reader_that_leaves_early_ends_the_trace_quietly(tmp_path: Path) -> None:
    """`backscope trace f.py | head -c 100`: no traceback, the run ends with status 1."""
    src = tmp_path / "long.py"
    src.write_text(
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x\n"
        "for _ in range(2000):\n    y = (y * 1.0001).tanh()\ny.sum().backward()\n"
    )
    exe = Path(sys.executable).with_name("backscope")
    with subprocess.Popen(
        [exe, "trace", str(src)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.read(100)
        proc.stdout.close()  # the reader leaves while events are still being written
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 1
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
