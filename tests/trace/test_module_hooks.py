"""Module hooks as PyTorch calls them: forward pre/forward hooks fire once per call and show
on the stream; a full backward (pre) hook once per backward; the plumbing PyTorch uses to call
them (hooks on BackwardHookFunctionBackward nodes) is never reported as a hook of its own."""

from __future__ import annotations

from protocol.check import validate_event
from tests.trace import harness
from tests.trace.snippets import RUNNABLE


def test_module_hooks_fire_once_each_with_their_module() -> None:
    summary, events = harness.traced(RUNNABLE["module_hooks"])
    assert summary["status"] == "ok"
    for e in events:
        validate_event(e)
    registered = {e["hook"]: e for e in events if e["type"] == "hook_registered"}
    assert [
        (e["fn"], e["kind"], e["target_kind"], e["module_type"]) for e in registered.values()
    ] == [
        ("pre", "module_forward_pre", "module", "Linear"),
        ("fwd", "module_forward", "module", "Linear"),
        ("bwd_pre", "module_backward_pre", "module", "Linear"),
        ("bwd", "module_backward", "module", "Linear"),
    ]
    fired = [e for e in events if e["type"] == "hook_fired"]
    assert all(e["hook"] in registered for e in fired)  # nothing of the plumbing
    order = [(registered[e["hook"]]["fn"], e["backward"]) for e in fired]
    assert order == [
        ("pre", None),
        ("fwd", None),
        ("bwd_pre", 0),
        ("bwd", 0),
        ("pre", None),
        ("fwd", None),
        ("bwd_pre", 1),
        ("bwd", 1),
    ]
    assert {e["module_path"] for e in fired} == {"Linear"}
    bwd = next(e for e in fired if registered[e["hook"]]["fn"] == "bwd")
    # grad_input of Linear for x (4×3): the module's only tensor input
    assert bwd["grad_in"][0]["shape"] == [4, 3] and bwd["grad_out"] is None
    fwd = next(e for e in fired if registered[e["hook"]]["fn"] == "fwd")
    assert fwd["grad_in"][0]["shape"] == [4, 3] and fwd["node"] is None


def test_a_forward_hook_that_replaces_the_output_shows_the_new_one() -> None:
    code = (
        "import torch\n"
        "lin = torch.nn.Linear(2, 2)\n"
        "lin.register_forward_hook(lambda m, a, out: out * 0)\n"
        "y = lin(torch.ones(1, 2))\n"
        "assert y.sum().item() == 0\n"
    )
    summary, events = harness.traced(code)
    assert summary["status"] == "ok", summary
    (fired,) = [e for e in events if e["type"] == "hook_fired"]
    assert fired["kind"] == "module_forward"
    assert fired["grad_out"][0]["values"] == [[0.0, 0.0]]
