"""The event stream of every test snippet and example: schema, seq, graph, gradients, hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from protocol.check import validate_event
from tests.trace import harness
from tests.trace.snippets import FAILING, RUNNABLE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.py"))}
CASES = {**RUNNABLE, **{f"example_{k}": v for k, v in EXAMPLES.items()}}
HOOK_ORDER = json.loads((ROOT / "tests/fixtures/trace_hook_order.json").read_text())["order"]
BIG = {"inline_limit": 100_000}


def _array(v: dict[str, Any]) -> np.ndarray[Any, Any]:
    """A wire value's values, read at the tensor's own precision (float32 values travel as
    float32's shortest digits), as float64."""
    read = np.array(v["values"], dtype=np.float64)
    return read.astype(np.float32).astype(np.float64) if v["dtype"] == "float32" else read


@pytest.mark.parametrize("name", sorted(CASES))
def test_stream_is_valid_and_dense(name: str) -> None:
    summary, events = harness.traced(CASES[name])
    _, err = harness.plain(CASES[name])
    if err is None:
        assert summary["status"] == "ok", summary
    else:  # tracing must not change how a snippet fails
        assert summary["status"] == "error"
        assert (events[-1]["error_type"], events[-1]["message"]) == (type(err).__name__, str(err))
    assert summary["events"] == len(events)
    for i, e in enumerate(events):
        validate_event(e)
        assert e["seq"] == i
    ts = [e["t"] for e in events]
    assert ts == sorted(ts)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_graph_matches_engine(name: str) -> None:
    summary, events = harness.traced(CASES[name] + harness.EPILOGUE)
    assert summary["status"] == "ok", f"snippet fails on the engine: {summary['error']}"
    actual = harness.actual_graph_hashes(events)
    assert actual <= harness.event_graph_hashes(events)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_plain_run(name: str) -> None:
    _, events = harness.traced(CASES[name], **BIG)
    ns, err = harness.plain(CASES[name])
    assert err is None, f"snippet fails on the engine: {err!r}"
    leaves = [e["tensor"] for e in events if e["type"] == "tensor" and e["tensor"]["is_leaf"]]
    counts: dict[str, int] = {}
    for t in leaves:
        if t["name"]:
            counts[t["name"]] = counts.get(t["name"], 0) + 1
    acc = [e for e in events if e["type"] == "grad_accumulated"]
    grad_events = [e for e in events if e["type"] in ("grad_accumulated", "grad_changed")]
    checked = 0
    for t in leaves:
        name_ = t["name"]
        obj = _named(ns, name_) if name_ and counts[name_] == 1 else None
        if obj is None:
            continue
        mine = [e for e in grad_events if e["tensor"] == t["id"]]
        if not any(e["type"] == "grad_accumulated" for e in mine):
            continue
        if any(e["type"] == "grad_accumulated" and "values" not in e["grad"] for e in mine):
            # larger than inline_limit (resnet18's 224x224 input): summarised, not comparable
            assert int(np.prod(t["shape"])) > BIG["inline_limit"], t
            continue
        total = None
        for e in mine:  # each accumulation adds the incoming gradient; zero_grad & co. reset
            if e["type"] == "grad_changed":
                total = _array(e["value"]) if e["value"] is not None else None
                continue
            g = _array(e["grad"])
            total = g if total is None else total + g
            np.testing.assert_allclose(_array(e["total"]), total, rtol=1e-6)
            total = _array(e["total"])
        grad = obj.grad
        if total is None:
            assert grad is None
        else:
            assert grad is not None
            np.testing.assert_array_equal(total, grad.numpy().astype(np.float64))
        checked += 1
    unique = {t["id"] for t in leaves if t["name"] and counts[t["name"]] == 1}
    if any(e["tensor"] in unique for e in acc):
        assert checked > 0


def _named(ns: dict[str, Any], name: str) -> Any:
    """The snippet's tensor the events call `name`: a global, or a parameter of a global
    module as its `named_parameters()` names it."""
    import engine

    if isinstance(ns.get(name), engine.Tensor):
        return ns[name]
    for v in ns.values():
        if isinstance(v, engine.nn.Module):
            found = dict(v.named_parameters()).get(name)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("name", sorted(HOOK_ORDER))
def test_hook_firings_in_pytorch_order(name: str) -> None:
    _, events = harness.traced(RUNNABLE[name])
    fn_of = {e["hook"]: e["fn"] for e in events if e["type"] == "hook_registered"}
    fired = [fn_of[e["hook"]] for e in events if e["type"] == "hook_fired"]
    assert fired == HOOK_ORDER[name]


def test_hook_changes_gradient_shown() -> None:
    _, events = harness.traced(RUNNABLE["hooks"])
    fn_of = {e["hook"]: e["fn"] for e in events if e["type"] == "hook_registered"}
    fired = {fn_of[e["hook"]]: e for e in events if e["type"] == "hook_fired"}
    assert fired["h_x"]["grad_out"] is None  # returned None: unchanged
    w = fired["h_w"]
    assert _array(w["grad_out"][0]).tolist() == (2 * _array(w["grad_in"][0])).tolist()


@pytest.mark.parametrize("name", sorted(FAILING))
def test_error_keeps_events_before_it(name: str) -> None:
    summary, events = harness.traced(FAILING[name])
    assert summary["status"] == "error"
    for e in events:
        validate_event(e)
    last = events[-1]
    assert last["type"] == "error"
    assert last["line"] == summary["error"]["line"]
    types = [e["type"] for e in events]
    assert "backward_started" in types and "node_enter" in types and "node" in types
    assert "backward_finished" not in types


def test_error_in_backward_details() -> None:
    _, events = harness.traced(FAILING["error_in_backward"])
    err = events[-1]
    assert (err["error_type"], err["message"], err["line"]) == ("ValueError", "bad gradient", 6)
    assert "raise ValueError" in err["traceback"]
    assert harness.stdout(events) == "before\n"


def test_version_error_message_is_pytorchs() -> None:
    _, events = harness.traced(FAILING["version_error"])
    err = events[-1]
    assert err["error_type"] == "RuntimeError"
    assert "is at version 1; expected version 0 instead" in err["message"]
    bumps = [e for e in events if e["type"] == "version_bump"]
    assert [b["version"] for b in bumps] == [1]


def test_tensor_names_lines_and_saved_versions() -> None:
    _, events = harness.traced(RUNNABLE["inplace"])
    nodes = [e for e in events if e["type"] == "node"]
    mul = next(n for n in nodes if n["name"] == "MulBackward0" and n["line"] == 3)
    assert mul["outputs"][0]["name"] in (None, "b")
    sq = next(n for n in nodes if n["name"] == "MulBackward0" and n["line"] == 5)
    # b*b saved b twice, after the in-place add: version 1
    assert [s["version"] for s in sq["saved"]] == [1, 1]
    leaf = next(e["tensor"] for e in events if e["type"] == "tensor")
    assert (leaf["name"], leaf["line"], leaf["requires_grad"]) == ("a", 2, True)


def test_no_grad_ops_are_cut_points() -> None:
    _, events = harness.traced(RUNNABLE["seed_no_grad"])
    cuts = [e for e in events if e["type"] == "untracked_op"]
    assert [(c["line"], c["grad_mode"]) for c in cuts] == [(4, "no_grad"), (6, "no_grad")]


def test_large_tensor_summary_and_values_on_request() -> None:
    code = "import torch\nx = torch.randn(1000, requires_grad=True)\n(x * 2).sum().backward()\n"
    from engine.tracing import QueueController, run_snippet

    ctl = QueueController()
    events: list[dict[str, Any]] = []

    def sink(batch: list[dict[str, Any]]) -> None:
        events.extend(batch)
        if any(e["type"] == "paused" and e["why"] == "finished" for e in batch):
            ctl.put({"type": "tensor_values", "tensor_id": 0})
            ctl.put({"type": "stop"})

    summary = run_snippet(code, sink, controller=ctl, options={"linger": True})
    assert summary["status"] == "ok"
    x = events[0]["tensor"]
    assert x["value"]["stats"]["min"] <= x["value"]["stats"]["mean"] <= x["value"]["stats"]["max"]
    assert sum(x["value"]["hist"]["counts"]) == 1000
    vals = next(e for e in events if e["type"] == "tensor_values")
    assert len(vals["values"]) == 1000
    assert vals["values"][:16] == x["value"]["sample"]


def test_anomaly_error_carries_forward_trace_of_failing_node() -> None:
    code = (
        "import torch\n"
        "with torch.autograd.detect_anomaly():\n"
        "    a = torch.tensor([1.0], requires_grad=True)\n"
        "    b = a.exp()\n"
        "    b.add_(1)\n"
        "    b.sum().backward()\n"
    )
    summary, events = harness.traced(code)
    assert summary["status"] == "error"
    err = events[-1]
    names = {e["id"]: e["name"] for e in events if e["type"] == "node"}
    assert names[err["node"]] == "ExpBackward0"
    assert err["line"] == 6
    assert any("b = a.exp()" in frame for frame in err["anomaly_trace"])


def test_module_scopes() -> None:
    code = (
        "import torch\n"
        "from torch import nn\n"
        "net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())\n"
        "out = net(torch.ones(1, 3)).sum()\n"
    )
    summary, events = harness.traced(code)
    assert summary["status"] == "ok", summary
    scopes = [(e["type"], e["path"]) for e in events if e["type"].startswith("module_")]
    assert scopes == [
        ("module_enter", "Sequential"),
        ("module_enter", "Sequential.0"),
        ("module_exit", "Sequential.0"),
        ("module_enter", "Sequential.1"),
        ("module_exit", "Sequential.1"),
        ("module_exit", "Sequential"),
    ]
    paths = {e["name"]: e["module_path"] for e in events if e["type"] == "node"}
    assert paths["ReluBackward0"] == "Sequential.1"
    assert paths["SumBackward0"] is None


def test_module_scopes_named_through_containers() -> None:
    # a ModuleList is never called: its layers are named `blocks.0`, as named_modules() does
    code = (
        "import torch\n"
        "from torch import nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.blocks = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])\n"
        "    def forward(self, x):\n"
        "        for b in self.blocks:\n"
        "            x = b(x)\n"
        "        return x\n"
        "net = Net()\n"
        "net(torch.ones(1, 2)).sum().backward()\n"
    )
    events = _valid_run(code)
    entered = [e["path"] for e in events if e["type"] == "module_enter"]
    assert entered == ["Net", "Net.blocks.0", "Net.blocks.1"]
    names = {e["tensor"]["name"] for e in events if e["type"] == "tensor"}
    assert {"blocks.0.weight", "blocks.1.bias"} <= names


def test_create_graph_gradients_enter_the_graph() -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x ** 3).sum()\n"
        "(g,) = torch.autograd.grad(y, x, create_graph=True)\n"
        "g.sum().backward()\n"
        "print(x.grad)\n"
    )
    events = _valid_run(code)
    described = {e["tensor"]["id"] for e in events if e["type"] == "tensor"}
    for e in events:
        if e["type"] == "node":
            described |= {o["id"] for o in e["outputs"]}
            assert all(i is None or i in described for i in e["inputs"])
    assert harness.stdout(events) == "tensor([ 6., 12.])\n"
    starts = [e for e in events if e["type"] == "backward_started"]
    assert [s["create_graph"] for s in starts] == [True, False]
    assert starts[0]["inputs"] == [0]
    # the gradient made with create_graph is named as the snippet binds it
    made = [
        o["id"]
        for e in events
        if e["type"] == "node" and e["name"] == "MulBackward0"
        for o in e["outputs"]
    ]
    names = harness.told_names(events)
    assert "g" in {names[i] for i in made}


def _expected_steps(events: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """The dependency counts, as (backward, node, count), and the ready queue, as (backward,
    sorted node ids), the engine should report at each `node_enter`, derived from the forward
    graph's edges alone: a node's count is its consumers reachable from the backward's root
    minus those that have already run; a node is ready when its count is 0 and it has not run."""
    edges: dict[int, list[int]] = {}
    want: list[tuple[int, int, int]] = []
    queues: list[tuple[int, list[int]]] = []
    left: dict[int, int] = {}
    ready: set[int] = set()
    for e in events:
        if e["type"] == "node":
            edges[e["id"]] = [x["node"] for x in e["next"] if x["node"] is not None]
        elif e["type"] == "backward_started":
            roots = [r["node"] for r in e["roots"] if r["node"] is not None]
            seen, stack = set(roots), list(roots)
            while stack:
                for m in edges.get(stack.pop(), []):
                    if m not in seen:
                        seen.add(m)
                        stack.append(m)
            left = {}
            for n in seen:
                for m in edges.get(n, []):
                    left[m] = left.get(m, 0) + 1
            ready = set(roots)
        elif e["type"] == "node_enter":
            ready.discard(e["node"])
            queues.append((e["backward"], sorted(ready)))
            want += [(e["backward"], m, left[m]) for m in edges.get(e["node"], [])]
        elif e["type"] == "node_exit":
            for m in edges.get(e["node"], []):
                left[m] -= 1
                if left[m] == 0:
                    ready.add(m)
    return want, queues


@pytest.mark.parametrize("name", sorted(CASES))
def test_dependency_counts_and_queue_at_each_step(name: str) -> None:
    # only backward passes from one root and without `inputs=` (which prunes the walk)
    _, events = harness.traced(CASES[name])
    started = [e for e in events if e["type"] == "backward_started"]
    if any(len(e["roots"]) != 1 or e["inputs"] for e in started):
        return
    got = [
        (e["backward"], d["node"], d["count"])
        for e in events
        if e["type"] == "node_enter"
        for d in e["deps"]
    ]
    queues = [(e["backward"], sorted(e["queue"])) for e in events if e["type"] == "node_enter"]
    assert (got, queues) == _expected_steps(events)


def _valid_run(code: str) -> list[dict[str, Any]]:
    """The events of a traced run of `code`, which must succeed, each checked by the schema."""
    summary, events = harness.traced(code)
    assert summary["status"] == "ok", summary
    for e in events:
        validate_event(e)
    return events


def _accumulations(events: list[dict[str, Any]]) -> list[tuple[str | None, Any, Any]]:
    names = {e["tensor"]["id"]: e["tensor"]["name"] for e in events if e["type"] == "tensor"}
    return [
        (names.get(e["tensor"]), e["grad"]["values"], e["total"]["values"])
        for e in events
        if e["type"] == "grad_accumulated"
    ]


def test_grad_accumulated_only_where_grad_is_written() -> None:
    # autograd.grad leaves .grad alone; backward(inputs=[w]) writes w.grad only
    code = (
        "import torch\n"
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = torch.tensor([3.0, 4.0], requires_grad=True)\n"
        "(g,) = torch.autograd.grad((w * b).sum(), w)\n"
        "(w * b * 2).sum().backward(inputs=[w])\n"
        "(w * b).sum().backward(inputs=[w])\n"
        "assert b.grad is None\n"
    )
    events = _valid_run(code)
    assert _accumulations(events) == [("w", [6.0, 8.0], [6.0, 8.0]), ("w", [3.0, 4.0], [9.0, 12.0])]


def test_grad_accumulated_before_post_accumulate_hook_changes_it() -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "x.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5))\n"
        "(x * 3).sum().backward()\n"
        "assert x.grad.tolist() == [1.5, 1.5]\n"
    )
    events = _valid_run(code)
    assert _accumulations(events) == [("x", [3.0, 3.0], [3.0, 3.0])]
    kinds = [e["type"] for e in events if e["type"] in ("grad_accumulated", "hook_fired")]
    assert kinds == ["grad_accumulated", "hook_fired"]
    (fired,) = [e for e in events if e["type"] == "hook_fired"]
    assert fired["grad_in"][0]["values"] == [3.0, 3.0]
    assert fired["grad_out"][0]["values"] == [1.5, 1.5]


def test_post_accumulate_hook_that_steps_and_clears_grad() -> None:
    # PyTorch's "fuse the optimizer step into backward" recipe: .grad is used, then set to None
    code = (
        "import torch\n"
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "opt = {w: torch.optim.SGD([w], lr=0.5)}\n"
        "def step(p):\n"
        "    opt[p].step()\n"
        "    opt[p].zero_grad()\n"
        "w.register_post_accumulate_grad_hook(step)\n"
        "(w * w).sum().backward()\n"
        "assert w.grad is None and w.tolist() == [0.0, 0.0]\n"
    )
    events = _valid_run(code)
    (fired,) = [e for e in events if e["type"] == "hook_fired"]
    assert fired["grad_in"][0]["values"] == [2.0, 4.0]
    assert fired["grad_out"] == [None]
    bumps = [e["value"]["values"] for e in events if e["type"] == "version_bump"]
    assert bumps == [[0.0, 0.0]]


def test_saved_tensor_hooks_name_their_tensors() -> None:
    code = (
        "import torch\n"
        "x = torch.randn(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):\n"
        "    y = x.exp()\n"
        "    z = y * x\n"
        "z.sum().backward()\n"
    )
    events = _valid_run(code)
    names = {e["tensor"]["id"]: e["tensor"]["name"] for e in events if e["type"] == "tensor"}
    nodes = {e["id"]: e["name"] for e in events if e["type"] == "node"}
    seen: set[int] = set()
    packs = []
    for e in events:
        if e["type"] == "node":
            seen.add(e["id"])
        elif e["type"] == "saved_pack":
            assert e["node"] in seen  # after the node's own event
            packs.append((nodes[e["node"]], e["name"], names.get(e["tensor"])))
    # ExpBackward0 saves its result (y); MulBackward0 packs other (x) before self (y), as PyTorch
    assert packs == [
        ("ExpBackward0", "result", "y"),
        ("MulBackward0", "other", "x"),
        ("MulBackward0", "self", "y"),
    ]
    unpacks = [(nodes[e["node"]], e["name"]) for e in events if e["type"] == "saved_unpack"]
    assert sorted(unpacks) == [
        ("ExpBackward0", "result"),
        ("MulBackward0", "other"),
        ("MulBackward0", "self"),
    ]


def test_warnings_show_as_python_shows_them_for_a_script() -> None:
    # the snippet's own DeprecationWarning shows; a library's (the engine's, like torch's) not
    code = (
        "import warnings\n"
        "import torch\n"
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    fwAD.make_dual(torch.ones(2), torch.ones(2))\n"
        "warnings.warn('old api', DeprecationWarning)\n"
        "warnings.warn('careful', UserWarning)\n"
    )
    events = _valid_run(code)
    err = "".join(e["text"] for e in events if e["type"] == "stderr")
    assert "DeprecationWarning: old api" in err
    assert "UserWarning: careful" in err
    assert "torch.jit.script" not in err


def test_bytes_written_to_stdout_buffer_are_printed() -> None:
    code = (
        "import sys\n"
        "sys.stdout.buffer.write(b'hi\\n')\n"
        "sys.stdout.buffer.write('é'.encode()[:1])\n"
        "sys.stdout.buffer.write('é'.encode()[1:] + b'\\n')\n"
        "sys.stdout.buffer.flush()\n"
    )
    events = _valid_run(code)
    assert harness.stdout(events) == "hi\né\n"


def test_a_print_while_another_thread_flushes_is_sent() -> None:
    """A snippet's threads print too. While a thread's print is being sent (held here in the
    sink), the main thread prints and the run ends: its text is sent, not left behind in a
    batch nobody flushes."""
    import builtins
    import threading
    import time

    from engine.tracing.run import run_snippet

    sending = threading.Event()
    events: list[dict[str, Any]] = []

    def sink(batch: list[dict[str, Any]]) -> None:
        if threading.current_thread() is not threading.main_thread():
            sending.set()
            time.sleep(0.3)  # the main thread prints meanwhile
        events.extend(batch)

    builtins.__backscope_sending__ = sending  # type: ignore[attr-defined]
    code = (
        "import threading\n"
        "t = threading.Thread(target=lambda: print('bg'))\n"
        "t.start()\n"
        "__backscope_sending__.wait(10)\n"
        "print('main done')\n"
        "t.join()\n"
    )
    try:
        run_snippet(code, sink, options={"batch": 1})
    finally:
        del builtins.__backscope_sending__  # type: ignore[attr-defined]
    # (print writes its text and its newline apart: the other thread's may fall between)
    out = harness.stdout(events)
    assert "main done" in out and "bg" in out and out.count("\n") == 2, out
