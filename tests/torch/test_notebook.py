"""Jupyter, headlessly: a real kernel (nbclient) runs `%load_ext backscope` and a `%%backscope`
cell; the cell shows the live page inline (an iframe on the kernel's own server), the page's
commands step the cell's paused backward while the kernel is busy in it, and the cell leaves a
static snapshot (SVG, no scripts) for viewers that run nothing; `backscope.show()` shows the last
run again."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from tests.torch.harness import of
from tests.torch.live import open_page

CELL = """\
%%backscope --pause
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
"""
FRAME = re.compile(r'data-backscope-run="(http://[^"?]+)\?run=([0-9a-f]+)"')


def _html(outputs: list[Any]) -> str:
    return "".join(str(o.get("data", {}).get("text/html", "")) for o in outputs)


def test_cell_magic_steps_inline_and_leaves_a_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BACKSCOPE_DB_PATH", str(tmp_path / "runs.sqlite3"))
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%load_ext backscope"),
        nbformat.v4.new_code_cell(CELL),
        nbformat.v4.new_code_cell("import backscope\nbackscope.show()"),
    ]
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={})
    failed: list[BaseException] = []

    def execute() -> None:
        try:  # (a loop of its own, closed at the end: the kernel runs on this thread)
            asyncio.run(client.async_execute())
        except BaseException as e:  # reported by the test thread
            failed.append(e)

    kernel = threading.Thread(target=execute, daemon=True)
    kernel.start()
    found = None
    deadline = time.monotonic() + 300
    while found is None and time.monotonic() < deadline and kernel.is_alive():
        found = FRAME.search(_html(list(nb.cells[1].get("outputs", []))))
        time.sleep(0.05)
    assert found is not None, failed or nb.cells[1].get("outputs")
    with open_page(found.group(1), found.group(2)) as page:
        assert page.until("run_started")["engine"].startswith("PyTorch ")
        while page.until("paused", "run_finished")["type"] == "paused":
            page.send({"type": "step", "run_id": found.group(2)})
    kernel.join(timeout=300)
    assert not kernel.is_alive() and not failed, failed
    events = page.events
    assert [e["name"] for e in of(events, "node") if e["name"] == "MulBackward0"]
    assert len(of(events, "paused")) == len(of(events, "node_enter")) > 0
    outputs = nb.cells[1]["outputs"]
    text = "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")
    assert "tensor([2., 4.])" in text
    html = _html(outputs)
    snapshot = html[html.index("backscope-snapshot") :]
    assert "<svg" in snapshot and "MulBackward0" in snapshot and "<script" not in snapshot
    assert "[2.0, 4.0]" in snapshot  # x.grad, in the static table
    # show() shows the last run again
    again = FRAME.search(_html(nb.cells[2]["outputs"]))
    assert again is not None and again.groups() == found.groups()
