"""`with backscope.watch():` in a user's script: what happens inside the block streams to this
process's page (a run whose badge says PyTorch), the block's lines are the script's lines, an
error inside it is recorded with PyTorch's message and still raised to the script, and what
the script does outside the block is not recorded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from protocol.check import validate_event
from tests.torch.harness import ROOT, of

SCRIPT = """\
import sys
import torch
import backscope

before = torch.ones(2, requires_grad=True) * 5
with backscope.watch(open=False) as w1:
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
try:
    with backscope.watch(open=False) as w2:
        a = torch.ones(2, requires_grad=True)
        b = a.exp()
        b.add_(1)
        b.sum().backward()
except RuntimeError as e:
    print("raised to the script:", type(e).__name__, flush=True)
print("URLS", w1.url, w2.url, flush=True)
sys.stdin.readline()
"""


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=60) as r:
        data: dict[str, Any] = json.load(r)
    return data


def _runs(proc: subprocess.Popen[bytes], tmp_path: Path) -> list[dict[str, Any]]:
    """Read the script's two run URLs, fetch both runs from its page's server, let it end."""
    assert proc.stdout is not None and proc.stdin is not None
    lines: list[str] = []
    deadline = time.monotonic() + 300
    while not lines or not lines[-1].startswith("URLS"):
        line = proc.stdout.readline().decode()
        log = (tmp_path / "stderr.log").read_text(errors="replace")
        assert line and time.monotonic() < deadline, (lines, log[-3000:])
        lines.append(line)
    assert "raised to the script: RuntimeError\n" in lines
    runs = []
    for url in lines[-1].split()[1:]:
        base, run_id = url.split("?run=")
        run = _get(f"{base}api/runs/{run_id}")
        while run["status"] == "running":  # (stored a moment after the block ends)
            time.sleep(0.1)
            run = _get(f"{base}api/runs/{run_id}")
        runs.append(run)
    proc.stdin.write(b"\n")
    proc.stdin.flush()
    proc.wait(timeout=120)
    return runs


def test_watch_streams_the_block(tmp_path: Path) -> None:
    src = tmp_path / "train.py"
    src.write_text(SCRIPT, encoding="utf-8")
    env = {**os.environ, "BACKSCOPE_DB_PATH": str(tmp_path / "runs.sqlite3")}
    with (
        (tmp_path / "stderr.log").open("wb") as err,
        subprocess.Popen(
            [sys.executable, str(src)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            env=env,
        ) as proc,
    ):
        try:
            runs = _runs(proc, tmp_path)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0
    ok, failed = runs
    assert ok["status"] == "ok" and failed["status"] == "error"
    for run in runs:
        for e in run["events"]:
            validate_event(e)
        assert run["events"][0]["engine"].startswith("PyTorch ")
        assert run["code"] == SCRIPT
    events = ok["events"]
    names = {e["tensor"]["name"] for e in of(events, "tensor")}
    assert "x" in names and "before" not in names
    assert [e["line"] for e in of(events, "backward_started")] == [9]
    assert of(events, "grad_accumulated")[-1]["total"]["values"] == [2.0, 4.0]
    (err,) = of(failed["events"], "error")
    assert err["line"] == 15 and "modified by an inplace operation" in err["message"]
