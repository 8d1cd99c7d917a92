"""The backward stepper: pausing, breakpoints, stop, and equality with an unstepped run."""

from __future__ import annotations

import threading
from typing import Any

from engine.tracing import AutoStep, QueueController, run_snippet
from protocol.check import validate_event
from tests.trace import harness
from tests.trace.snippets import RUNNABLE


def _backward_view(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    # hook ids come from a process-wide counter, so they differ between runs
    keep = ("node_enter", "node_exit", "grad_accumulated", "hook_fired", "backward_finished")
    out = []
    for e in events:
        if e["type"] in keep:
            out.append(
                tuple(sorted((k, repr(v)) for k, v in e.items() if k not in ("t", "seq", "hook")))
            )
    return out


def test_stepped_run_equals_unstepped() -> None:
    for name in ("branches", "hooks", "seed_sum"):
        _, plain = harness.traced(RUNNABLE[name])
        _, stepped = harness.traced(RUNNABLE[name], controller=AutoStep(), pause_in_backward=True)
        assert _backward_view(stepped) == _backward_view(plain)
        enters = [e["node"] for e in stepped if e["type"] == "node_enter"]
        pauses = [e["node"] for e in stepped if e["type"] == "paused"]
        assert pauses == enters
        assert harness.stdout(stepped) == harness.stdout(plain)


class _Driver:
    """Runs a snippet in a thread; the test answers each pause from the main thread."""

    def __init__(self, code: str, **options: Any) -> None:
        self.ctl = QueueController()
        self.events: list[dict[str, Any]] = []
        self.paused = threading.Semaphore(0)
        self.summary: dict[str, Any] = {}
        self.thread = threading.Thread(target=self._run, args=(code, options))
        self.thread.start()

    def _sink(self, batch: list[dict[str, Any]]) -> None:
        self.events.extend(batch)
        if any(e["type"] == "paused" for e in batch):
            self.paused.release()

    def _run(self, code: str, options: dict[str, Any]) -> None:
        self.summary = run_snippet(code, self._sink, controller=self.ctl, options=options)

    def wait_pause(self) -> dict[str, Any]:
        assert self.paused.acquire(timeout=20), f"no pause; the run ended with {self.summary}"
        return [e for e in self.events if e["type"] == "paused"][-1]

    def finish(self) -> None:
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


def _node_names(events: list[dict[str, Any]]) -> dict[int, str]:
    return {e["id"]: e["name"] for e in events if e["type"] == "node"}


def test_breakpoint_on_op_name_and_tensor_values() -> None:
    d = _Driver(RUNNABLE["branches"], breakpoints=[{"op": "MulBackward0"}])
    names = []
    for _ in range(4):  # two MulBackward0 nodes, two backward passes
        p = d.wait_pause()
        assert p["why"] == "breakpoint"
        names.append(_node_names(d.events)[p["node"]])
        d.ctl.put({"type": "tensor_values", "tensor_id": 0})
        d.ctl.put({"type": "continue"})
    d.finish()
    assert names == ["MulBackward0"] * 4
    assert d.summary["status"] == "ok"
    vals = [e for e in d.events if e["type"] == "tensor_values"]
    assert len(vals) == 4 and vals[0]["values"] == [0.5, -1.5, 2.0]


def test_step_then_continue_then_stop() -> None:
    d = _Driver(RUNNABLE["branches"], pause_in_backward=True)
    first = d.wait_pause()
    assert first["why"] == "step"
    d.ctl.put({"type": "step"})
    second = d.wait_pause()
    assert second["node"] != first["node"]
    d.ctl.put({"type": "set_breakpoints", "breakpoints": [{"op": "SinBackward0"}]})
    d.ctl.put({"type": "continue"})
    third = d.wait_pause()
    assert _node_names(d.events)[third["node"]] == "SinBackward0"
    d.ctl.put({"type": "stop"})
    d.finish()
    assert d.summary["status"] == "stopped"
    for e in d.events:
        validate_event({**e, "run_id": "r", "seq": 0})


def test_breakpoint_on_line_and_nan() -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
        "y = x.exp()\n"
        "z = (y * torch.tensor([float('nan'), 1.0])).sum()\n"
        "z.backward()\n"
    )
    d = _Driver(code, breakpoints=[{"line": 3}, {"on_nan": True}])
    p = d.wait_pause()
    d.ctl.put({"type": "continue"})
    q = d.wait_pause()
    d.ctl.put({"type": "continue"})
    d.finish()
    names = _node_names(d.events)
    assert (names[p["node"]], p["why"]) == ("ExpBackward0", "breakpoint")
    assert (names[q["node"]], q["why"]) == ("torch::autograd::AccumulateGrad", "nan")


def test_pause_command_while_running() -> None:
    ctl = QueueController()
    ctl.put({"type": "pause"})
    events: list[dict[str, Any]] = []

    def sink(batch: list[dict[str, Any]]) -> None:
        events.extend(batch)
        if any(e["type"] == "paused" for e in batch):
            ctl.put({"type": "continue"})

    summary = run_snippet(RUNNABLE["seed_sum"], sink, controller=ctl)
    assert summary["status"] == "ok"
    assert [e["why"] for e in events if e["type"] == "paused"] == ["pause"]
