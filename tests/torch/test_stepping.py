"""Stepping real torch's backward: a stepped pass gives the gradients of an uninterrupted one;
the stepper pauses on breakpoints (op, line, node, NaN) on the thread running the backward while
the process's other threads go on; stop ends the run, paused or not."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import Any

import pytest
import torch

from backscope.capture import run_file
from backscope.live import Commands
from protocol.stepping import AutoStep
from tests.torch.harness import accumulated, exit_grads, of
from tests.trace.snippets import RUNNABLE

MLP = """\
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
x = torch.randn(16, 4)
loss = (net(x) ** 2).mean()
loss.backward()
grads = [p.grad.clone() for p in net.parameters()]
"""


def _script(tmp_path: Path, code: str) -> str:
    src = tmp_path / "script.py"
    src.write_text(code, encoding="utf-8")
    return str(src)


def test_stepped_backward_gives_the_same_gradients(tmp_path: Path) -> None:
    for code in (MLP, RUNNABLE["hooks"], RUNNABLE["branches"]):
        path = _script(tmp_path, code)
        plain: list[dict[str, Any]] = []
        stepped: list[dict[str, Any]] = []
        assert run_file(path, plain.extend)["status"] == "ok"
        opts = {"pause_in_backward": True}
        assert run_file(path, stepped.extend, controller=AutoStep(), options=opts)["status"] == "ok"
        enters = [e["node"] for e in of(stepped, "node_enter")]
        assert [e["node"] for e in of(stepped, "paused")] == enters and enters
        assert not of(plain, "paused")
        assert exit_grads(stepped) == exit_grads(plain)
        assert accumulated(stepped) == accumulated(plain)


class _Driver:
    """Runs a script on its own thread with a command queue the test answers."""

    def __init__(self, path: str, options: dict[str, Any]) -> None:
        self.commands = Commands()
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.summary: dict[str, Any] = {}
        self.thread = threading.Thread(target=self._go, args=(path, options), daemon=True)
        self.thread.start()

    def _go(self, path: str, options: dict[str, Any]) -> None:
        def sink(batch: list[dict[str, Any]]) -> None:
            for e in batch:
                self.events.put(e)

        self.summary = run_file(path, sink, controller=self.commands, options=options)
        self.events.put({"type": "_done"})

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            e = self.events.get(timeout=120)
            if e["type"] in (kind, "_done"):
                return e

    def finish(self) -> list[dict[str, Any]]:
        self.thread.join(timeout=120)
        assert not self.thread.is_alive()
        rest = []
        while not self.events.empty():
            rest.append(self.events.get())
        return rest


def test_breakpoints_pause_and_other_threads_run(tmp_path: Path) -> None:
    path = _script(tmp_path, MLP)
    bps = [{"op": "TanhBackward0"}, {"line": 6}]
    run = _Driver(path, {"breakpoints": bps})
    first = run.next("paused")
    assert first["why"] == "breakpoint" and first["where"] == "before_node"
    # the backward waits here; the rest of the process does not
    assert run.thread.is_alive()
    assert float((torch.ones(3) * 2).sum()) == 6.0
    run.commands.put({"type": "set_breakpoints", "breakpoints": [{"op": "TanhBackward0"}]})
    run.commands.put({"type": "continue"})
    second = run.next("paused")
    assert second["why"] == "breakpoint"
    run.commands.put({"type": "continue"})
    assert run.next("_done")
    run.finish()
    assert run.summary["status"] == "ok"


def test_breakpoint_on_nan(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([0., 1.], requires_grad=True)\n"
        "y = x.sqrt() * torch.tensor([float('nan'), 1.])\n"
        "y.sum().backward()\n"
    )
    run = _Driver(_script(tmp_path, code), {"breakpoints": [{"on_nan": True}]})
    paused = run.next("paused")
    assert paused["why"] == "nan" and paused["node"] is not None
    while paused["type"] == "paused":  # every node the NaN reaches pauses too
        assert paused["why"] == "nan"
        run.commands.put({"type": "continue"})
        paused = run.next("paused")
    run.finish()
    assert run.summary["status"] == "ok"


def test_stop_while_paused_and_while_running(tmp_path: Path) -> None:
    run = _Driver(_script(tmp_path, MLP), {"pause_in_backward": True})
    run.next("paused")
    run.commands.put({"type": "stop"})
    run.finish()
    assert run.summary["status"] == "stopped"


# A forward loop the page stops. In the second, the loop spends its time in a weakref callback,
# where the interrupt a stop sends (between two bytecodes) lands and is swallowed ("Exception
# ignored in"): the stop must still end the run, at the loop's next torch call.
FOREVER = "import torch\nx = torch.ones(3, requires_grad=True)\nwhile True:\n    y = x * 2\n"
FOREVER_IN_CALLBACKS = (
    "import time, weakref\nimport torch\nx = torch.ones(3, requires_grad=True)\n"
    "class Box:\n    pass\n"
    "def slow(_):\n    time.sleep(0.2)\n"
    "while True:\n    box = Box()\n    ref = weakref.ref(box, slow)\n    del box\n    y = x * 2\n"
)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("code", [FOREVER, FOREVER_IN_CALLBACKS], ids=["loop", "in_callbacks"])
def test_page_stop_interrupts_a_forward_loop(tmp_path: Path, code: str) -> None:
    import asyncio

    from backscope.live import LocalRun

    loop = asyncio.new_event_loop()
    handle = LocalRun(loop)
    path = _script(tmp_path, code)
    seen = threading.Event()
    out: dict[str, Any] = {}

    def sink(batch: list[dict[str, Any]]) -> None:
        seen.set()

    def go() -> None:
        handle.thread = threading.get_ident()
        out.update(run_file(path, sink, controller=handle.commands))

    t = threading.Thread(target=go, daemon=True)
    t.start()
    assert seen.wait(120)
    loop.run_until_complete(handle.kill("killed"))
    t.join(120)
    assert not t.is_alive() and out["status"] == "stopped"
    loop.close()


def test_full_values_while_paused(tmp_path: Path) -> None:
    code = "import torch\nbig = torch.arange(200.).requires_grad_()\n(big * 2).sum().backward()\n"
    run = _Driver(_script(tmp_path, code), {"pause_in_backward": True, "values_request_cap": 150})
    paused = run.next("paused")
    assert paused["why"] == "step"
    run.commands.put({"type": "tensor_values", "tensor_id": 0})
    refused = run.next("tensor_values")
    assert "error" in refused and "values" not in refused  # over this run's per-request cap
    run.commands.put({"type": "tensor_values", "tensor_id": 99})
    gone = run.next("tensor_values")
    assert gone["error"] == "tensor values are no longer available"
    run.commands.put({"type": "stop"})
    run.finish()
    assert run.summary["status"] == "stopped"
    events: list[dict[str, Any]] = []
    opts = {"pause_in_backward": True}
    assert run_file(_script(tmp_path, code), events.extend, controller=_Answer(), options=opts)
    (answer,) = of(events, "tensor_values")
    assert answer["values"] == [float(i) for i in range(200)] and answer["last"]
    assert (answer["tensor_id"], answer["shape"], answer["total"]) == (0, [200], 200)


class _Answer(AutoStep):
    """Asks for the first tensor's values at the first pause, then steps."""

    def __init__(self) -> None:
        self.asked = False

    def wait(self) -> dict[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "tensor_values", "tensor_id": 0}
        return {"type": "step"}


def test_breakpoint_on_a_node(tmp_path: Path) -> None:
    path = _script(tmp_path, MLP)
    plain: list[dict[str, Any]] = []
    run_file(path, plain.extend)
    tanh = next(e["id"] for e in of(plain, "node") if e["name"] == "TanhBackward0")
    run = _Driver(path, {"breakpoints": [{"node_id": tanh}]})
    paused = run.next("paused")
    assert (paused["why"], paused["node"]) == ("breakpoint", tanh)
    run.commands.put({"type": "continue"})
    assert run.next("paused")["type"] == "_done"  # one node, one pause
    run.finish()
    assert run.summary["status"] == "ok"
