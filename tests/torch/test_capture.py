"""What the capture of real torch records: events valid against the protocol, names, lines,
module scopes, saved tensors with versions, the user's saved-tensor hooks, `.grad` changes,
nodes made during backward, and errors with PyTorch's own messages (and forward traces under
detect_anomaly)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest
import torch

from backscope.capture import run_file
from protocol.check import validate_event
from server.cli import main
from tests.torch.harness import EXAMPLES, of
from tests.trace.snippets import FAILING, RUNNABLE


def _run(tmp_path: Path, code: str, **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    src = tmp_path / "script.py"
    src.write_text(code, encoding="utf-8")
    events: list[dict[str, Any]] = []
    torch.manual_seed(0)
    summary = run_file(str(src), events.extend, **kw)
    for i, e in enumerate(events):
        e["run_id"], e["seq"] = "test", i
    return summary, events


CASES = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES} | RUNNABLE | FAILING


@pytest.mark.parametrize("name", sorted(CASES))
def test_cli_events_validate(name: str, tmp_path: Path) -> None:
    src = tmp_path / f"{name}.py"
    src.write_text(CASES[name], encoding="utf-8")
    out = tmp_path / "out.jsonl"
    rc = main(["trace", "--torch", str(src), "-o", str(out)])
    events = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert rc == (1 if name in FAILING else 0)
    assert [e["seq"] for e in events] == list(range(len(events)))
    for e in events:
        validate_event(e)
    assert events[0]["type"] == "run_started"
    assert events[0]["engine"] == f"PyTorch {torch.__version__.split('+')[0]}"
    assert events[-1]["type"] == "run_finished" and events[-1]["events"] == len(events)
    # every id an event refers to was described first
    tensors: set[int] = set()
    nodes: set[int] = set()
    for e in events:
        if e["type"] == "tensor":
            tensors.add(e["tensor"]["id"])
        elif e["type"] == "node":
            assert all(x["node"] is None or x["node"] in nodes for x in e["next"])
            nodes.add(e["id"])
            tensors.update(o["id"] for o in e["outputs"])
        elif e["type"] in ("node_enter", "node_exit"):
            assert e["node"] in nodes
        elif e["type"] == "grad_accumulated":
            assert e["tensor"] in tensors


def test_names_lines_and_module_scopes(tmp_path: Path) -> None:
    summary, events = _run(tmp_path, RUNNABLE["named_parameters"])
    assert summary["status"] == "ok"
    named = {e["tensor"]["name"] for e in of(events, "tensor")}
    named |= {o["name"] for e in of(events, "node") for o in e["outputs"]}
    assert {"conv1.weight", "conv1.bias", "bn2.weight", "attn.in_proj_weight"} <= named
    paths = {e["path"] for e in of(events, "module_enter")}
    assert {"Net", "Net.conv1", "Net.bn2", "Net.attn"} <= paths
    conv = next(e for e in of(events, "node") if e["name"] == "ConvolutionBackward0")
    assert conv["module_path"] == "Net.conv1" and conv["line"] == 12
    # the script's own names: x and y
    _, events = _run(tmp_path, "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 3\n")
    (node,) = of(events, "node")[1:]
    assert node["outputs"][0]["name"] == "y" and node["line"] == 3
    assert of(events, "tensor")[0]["tensor"]["name"] == "x"


def test_a_module_exit_says_the_shape_of_what_the_module_returned(tmp_path: Path) -> None:
    from tests.trace.test_tracer import MODULE_OUTPUT_SHAPES, MODULE_OUTPUTS

    _, events = _run(tmp_path, MODULE_OUTPUTS)
    exits = [(e["path"], e["output_shape"]) for e in of(events, "module_exit")]
    assert exits == MODULE_OUTPUT_SHAPES


def test_saved_tensors_with_versions(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "b = a * 2\n"
        "b.add_(1)\n"
        "c = b.exp()\n"
        "c.sum().backward()\n"
    )
    _, events = _run(tmp_path, code)
    exp = next(e for e in of(events, "node") if e["name"] == "ExpBackward0")
    (saved,) = exp["saved"]
    assert saved["name"] == "result" and saved["version"] == 0
    bump = of(events, "version_bump")[0]
    assert bump["version"] == 1 and bump["line"] == 4 and bump["value"]["values"] == [3.0, 5.0]
    mul = next(e for e in of(events, "node") if e["name"] == "MulBackward0")
    assert [s["name"] for s in mul["saved"]] == ["other", "self"] or mul["saved"]
    freed = {e["node"] for e in of(events, "node_exit") if e["freed"]}
    assert exp["id"] in freed


def test_saved_tensor_hooks(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "def pack(t):\n"
        "    return ('boxed', t)\n"
        "def unpack(p):\n"
        "    return p[1]\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(pack, unpack):\n"
        "    y = x.pow(2)\n"
        "y.sum().backward()\n"
        "print(x.grad)\n"
    )
    _, events = _run(tmp_path, code)
    (pack,) = of(events, "saved_pack")
    assert pack["packed_type"] == "tuple" and pack["name"] == "self"
    (unpack,) = of(events, "saved_unpack")
    assert (unpack["node"], unpack["name"]) == (pack["node"], "self")
    assert "tensor([2., 4.])" in "".join(e["text"] for e in of(events, "stdout"))


def test_grad_changes_outside_backward(tmp_path: Path) -> None:
    _, events = _run(tmp_path, RUNNABLE["optim_steps"])
    hows = [e["how"] for e in of(events, "grad_changed")]
    assert "set_to_none" in hows and "assigned" in hows
    code = (
        "import torch\n"
        "w = torch.tensor([1., 2.], requires_grad=True)\n"
        "def step(p):\n"
        "    with torch.no_grad():\n"
        "        p -= 0.5 * p.grad\n"
        "    p.grad = None\n"
        "w.register_post_accumulate_grad_hook(step)\n"
        "(w * w).sum().backward()\n"
    )
    _, events = _run(tmp_path, code)
    (cleared,) = [e for e in of(events, "grad_changed") if e["how"] == "hook"]
    assert cleared["value"] is None and cleared["hook"] == of(events, "hook_registered")[0]["hook"]
    (fired,) = of(events, "hook_fired")
    assert fired["kind"] == "post_accumulate" and fired["grad_in"][0]["values"] == [2.0, 4.0]


def test_nodes_made_during_backward(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = (x ** 3).sum()\n"
        "(g,) = torch.autograd.grad(y, x, create_graph=True)\n"
        "g.sum().backward()\n"
        "print(x.grad)\n"
    )
    summary, events = _run(tmp_path, code)
    assert summary["status"] == "ok"
    made = [e for e in of(events, "node") if e["backward"] == 0]
    assert made, "the first backward's own nodes are drawn"
    assert [e["backward"] for e in of(events, "backward_started")] == [0, 1]
    assert of(events, "grad_accumulated")[-1]["total"]["values"] == [6.0, 12.0]


def test_error_in_backward_with_pytorch_message(tmp_path: Path) -> None:
    summary, events = _run(tmp_path, FAILING["version_error"])
    assert summary["status"] == "error"
    (err,) = of(events, "error")
    assert err["error_type"] == "RuntimeError" and err["line"] == 5
    assert "modified by an inplace operation" in err["message"]
    assert err["node"] == next(e["id"] for e in of(events, "node") if e["name"] == "ExpBackward0")


def test_anomaly_mode_forward_trace(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([0., 1.], requires_grad=True)\n"
        "with torch.autograd.detect_anomaly():\n"
        "    y = x.sqrt() * 0\n"
        "    (y / y).sum().backward()\n"
    )
    summary, events = _run(tmp_path, code)
    assert summary["status"] == "error"
    (err,) = of(events, "error")
    assert "returned nan values" in err["message"]
    trace = err["anomaly_trace"]
    assert trace and any("line 4" in frame or "line 5" in frame for frame in trace)


def test_reentrant_checkpoint_nodes_are_drawn_as_discovered(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "from torch.utils.checkpoint import checkpoint\n"
        "lin = torch.nn.Linear(4, 4)\n"
        "x = torch.randn(2, 4, requires_grad=True)\n"
        "def block(h):\n"
        "    return torch.tanh(lin(h))\n"
        "checkpoint(block, x, use_reentrant=True).sum().backward()\n"
        "g = x.grad.clone()\n"
        "x.grad = None\n"
        "block(x).sum().backward()\n"
        "assert torch.allclose(g, x.grad)\n"
    )
    summary, events = _run(tmp_path, code)
    assert summary["status"] == "ok", summary
    starts = [e["backward"] for e in of(events, "backward_started")]
    assert starts == [0, 1, 2]  # the checkpoint's own backward runs inside the first
    made = {e["name"] for e in of(events, "node") if e["backward"] == 0}
    assert {"TanhBackward0", "AddmmBackward0"} <= made
    for e in events:
        validate_event(e)


def test_writes_into_a_grad(tmp_path: Path) -> None:
    code = (
        "import torch\n"
        "w = torch.tensor([3., 4.], requires_grad=True)\n"
        "(w * w).sum().backward()\n"
        "torch.nn.utils.clip_grad_norm_([w], 1.0)\n"
        "w.grad.mul_(2)\n"
    )
    summary, events = _run(tmp_path, code)
    assert summary["status"] == "ok"
    written = [e for e in of(events, "grad_changed") if e["how"] == "written"]
    assert [e["line"] for e in written] == [4, 5]
    clipped = written[0]["value"]["values"]
    assert abs(clipped[0] - 0.6) < 1e-4 and abs(clipped[1] - 0.8) < 1e-4
    # float32 on the wire as float32's digits: compare at that precision
    doubled = np.float32(written[1]["value"]["values"])
    np.testing.assert_array_equal(doubled, np.float32(clipped) * np.float32(2))
    for e in events:
        validate_event(e)
