"""`backscope run --torch`: the process serves the page for its own run, live; the page's
commands step its real backward node by node, and the stepped run's gradients are those of an
uninterrupted one; a stop from the page ends it; the page cannot start code of its own there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backscope.capture import run_file
from protocol.check import validate_event
from tests.torch.harness import accumulated, exit_grads, of
from tests.torch.live import open_page, run_torch
from tests.torch.test_stepping import MLP


def test_page_steps_a_real_backward(tmp_path: Path) -> None:
    plain: list[dict[str, Any]] = []
    src = tmp_path / "plain.py"
    src.write_text(MLP, encoding="utf-8")
    assert run_file(str(src), plain.extend)["status"] == "ok"
    with (
        run_torch(tmp_path, MLP, "--pause-backward") as (base, run_id, _),
        open_page(base, run_id) as page,
    ):
        started = page.until("run_started")
        assert started["engine"].startswith("PyTorch ") and started["code"] == MLP
        # step from each pause until the run ends: one node per step
        while page.until("paused", "run_finished")["type"] == "paused":
            page.send({"type": "step", "run_id": run_id})
    events = page.events
    assert events[-1]["type"] == "run_finished" and events[-1]["status"] == "ok"
    for e in events:
        validate_event(e)
    assert len(of(events, "paused")) == len(of(plain, "node_enter"))
    assert exit_grads(events) == exit_grads(plain)
    assert accumulated(events) == accumulated(plain)


def test_page_stop_ends_a_paused_run(tmp_path: Path) -> None:
    with (
        run_torch(tmp_path, MLP, "--pause-backward") as (base, run_id, _),
        open_page(base, run_id) as page,
    ):
        page.until("paused")
        page.send({"type": "stop", "run_id": run_id})
        finished = page.until("run_finished")
    assert finished["status"] == "stopped"


def test_page_cannot_run_its_own_code(tmp_path: Path) -> None:
    with (
        run_torch(tmp_path, "import torch\nprint(torch.ones(1))\n") as (base, run_id, _),
        open_page(base, run_id) as page,
    ):
        page.until("run_finished")
        page.send({"type": "run", "code": "import os\nprint(os.getcwd())\n"})
        err = page.until("error")
    assert err["source"] == "sandbox" and "runs of a Python process" in err["message"]
