"""The facts a page needs to say why a `.grad` is None, and every cut point: grad modes,
detach/.data/detach_, requires_grad set, retain_grad, .grad reset outside backward, nodes
made by a backward, NaN/Inf counts, and parameters named as named_parameters() names them."""

from __future__ import annotations

from typing import Any

from protocol.check import validate_event
from tests.trace import harness
from tests.trace.snippets import RUNNABLE


def _run(code: str, **options: Any) -> list[dict[str, Any]]:
    summary, events = harness.traced(code, **options)
    assert summary["status"] == "ok", summary
    for e in events:
        validate_event(e)
    return events


def _infos(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each tensor's description: a later `tensor` event for an id (a leaf described again once
    a batch found its name) replaces the earlier one."""
    out: dict[int, dict[str, Any]] = {}
    for e in events:
        if e["type"] == "tensor":
            out[e["tensor"]["id"]] = e["tensor"]
        for info in e.get("outputs", []):
            out.setdefault(info["id"], info)
    return out


def _named(events: list[dict[str, Any]], name: str) -> int:
    (tid,) = {i for i, info in _infos(events).items() if info["name"] == name}
    return tid


def test_cut_points_of_the_snippet_each_with_their_line() -> None:
    events = _run(RUNNABLE["cuts"])
    u = _named(events, "u")
    cuts = [(e["kind"], e["tensor"], e["line"]) for e in events if e["type"] == "cut"]
    assert cuts == [("detach", u, 3), ("data", u, 4)]
    # the outputs of the cuts are new tensors that need no grad
    infos = _infos(events)
    for e in events:
        if e["type"] == "cut":
            assert e["output"] is not None and not infos[e["output"]]["requires_grad"]
    sets = [(e["requires_grad"], e["line"]) for e in events if e["type"] == "requires_grad_set"]
    assert sets == [(False, 8), (True, 9)]
    (retained,) = [e for e in events if e["type"] == "retain_grad"]
    assert (retained["tensor"], retained["line"]) == (_named(events, "c"), 6)
    # no_grad and inference_mode cuts: an untracked op each, with its mode and line
    modes = [(e["grad_mode"], e["line"]) for e in events if e["type"] == "untracked_op"]
    assert modes == [("inference_mode", 11), ("no_grad", 13)]
    assert infos[_named(events, "f")]["grad_mode"] == "inference_mode"


def test_the_engines_own_detaches_are_not_cut_points() -> None:
    # zero_grad(set_to_none=False) detaches .grad and backward detaches retained grads
    code = (
        "import torch\n"
        "w = torch.ones(2, requires_grad=True)\n"
        "y = w * 2\n"
        "y.retain_grad()\n"
        "y.sum().backward()\n"
        "opt = torch.optim.SGD([w], lr=0.1)\n"
        "opt.zero_grad(set_to_none=False)\n"
    )
    events = _run(code)
    assert [e for e in events if e["type"] == "cut"] == []


def test_a_frozen_module_reports_each_parameter() -> None:
    code = (
        "import torch\n"
        "lin = torch.nn.Linear(2, 2)\n"
        "lin.requires_grad_(False)\n"
        "out = lin(torch.ones(1, 2))\n"
    )
    events = _run(code)
    sets = [e for e in events if e["type"] == "requires_grad_set"]
    assert [(e["requires_grad"], e["line"]) for e in sets] == [(False, 3), (False, 3)]
    infos = _infos(events)
    assert sorted(infos[e["tensor"]]["name"] for e in sets) == ["bias", "weight"]


def test_grad_reset_by_zero_grad_assignment_and_hook() -> None:
    events = _run(RUNNABLE["optim_steps"])
    resets = [
        (e["how"], e["line"], e["value"] is None) for e in events if e["type"] == "grad_changed"
    ]
    # zero_grad() before steps 2 and 3 (none of the 4 parameters had a grad before step 1),
    # then `w.grad = None`
    assert resets == [("set_to_none", 9, True)] * 8 + [("assigned", 17, True)]
    code = (
        "import torch\n"
        "w = torch.ones(2, requires_grad=True)\n"
        "w.register_post_accumulate_grad_hook(lambda p: setattr(p, 'grad', None))\n"
        "(w * 3).sum().backward()\n"
        "(w * 3).sum().backward()\n"
        "opt = torch.optim.SGD([w], lr=0.1)\n"
        "w.grad = torch.ones(2)\n"
        "opt.zero_grad(set_to_none=False)\n"
    )
    events = _run(code)
    hook = next(e["hook"] for e in events if e["type"] == "hook_registered")
    resets = [
        (e["how"], e.get("hook"), e["value"]["values"] if e["value"] else None)
        for e in events
        if e["type"] == "grad_changed"
    ]
    # the hook's own assignment (line 3), then what the hook left in .grad
    assert resets == [
        ("assigned", None, None),
        ("hook", hook, None),
        ("assigned", None, None),
        ("hook", hook, None),
        ("assigned", None, [1.0, 1.0]),
        ("zeroed", None, [0.0, 0.0]),
    ]


def test_optimizer_steps_and_no_grad_updates_carry_their_new_values() -> None:
    code = (
        "import torch\n"
        "w = torch.tensor([1., 2.], requires_grad=True)\n"
        "(w * w).sum().backward()\n"
        "with torch.no_grad():\n"
        "    w -= 0.5 * w.grad\n"
        "opt = torch.optim.SGD([w], lr=1.0)\n"
        "w.grad = torch.tensor([1., 1.])\n"
        "opt.step()\n"
    )
    events = _run(code)
    w = _named(events, "w")
    bumps = [
        (e["version"], e["line"], e["value"]["values"])
        for e in events
        if e["type"] == "version_bump" and e["tensor"] == w
    ]
    assert bumps == [(1, 5, [0.0, 0.0]), (2, 8, [-1.0, -1.0])]


def test_nodes_and_tensors_made_by_a_backward_are_marked_with_it() -> None:
    code = (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x ** 3).sum()\n"
        "(g,) = torch.autograd.grad(y, x, create_graph=True)\n"
        "g.sum().backward()\n"
    )
    events = _run(code)
    marks = {e["name"]: e["backward"] for e in events if e["type"] == "node" and e["line"] == 3}
    assert set(marks.values()) == {None}  # the forward
    made = [e for e in events if e["type"] == "node" and e["backward"] is not None]
    assert made and {e["backward"] for e in made} == {0}
    # the gradient tensor g was made by backward 0 too
    assert _infos(events)[_named(events, "g")]["backward"] == 0


def test_nan_and_inf_are_counted_in_every_value() -> None:
    events = _run(RUNNABLE["non_finite"], values_per_tensor=1000, values_budget=10_000)
    infos = _infos(events)
    n = infos[_named(events, "n")]["value"]
    assert (n["values"], n["nan"], n.get("inf", 0)) == (["nan", 2.0], 1, 0)
    m = infos[_named(events, "m")]["value"]  # 100 elements: a summary, with full values
    assert (m["nan"], m["inf"]) == (0, 100) and len(m["values"]) == 10
    bump = next(
        e for e in events if e["type"] == "version_bump" and e["tensor"] == _named(events, "m")
    )
    assert (bump["value"]["inf"], bump["value"]["stats"]["min"]) == (99, 1.0)


def test_parameters_are_named_as_named_parameters_names_them() -> None:
    events = _run(RUNNABLE["named_parameters"])
    names = {info["name"] for info in _infos(events).values() if info["is_leaf"]}
    assert {
        "conv1.weight",
        "conv1.bias",
        "bn2.weight",
        "bn2.bias",
        "attn.in_proj_weight",
        "attn.in_proj_bias",
        "attn.out_proj.weight",  # used through F.linear: its module never runs
        "attn.out_proj.bias",
    } <= names


def test_writes_into_a_grad_are_grad_changes_with_their_values() -> None:
    code = (
        "import torch\n"
        "w = torch.tensor([3., 4.], requires_grad=True)\n"
        "(w * w).sum().backward()\n"
        "torch.nn.utils.clip_grad_norm_([w], 1.0)\n"
        "w.grad.mul_(2)\n"
        "w.grad.data.zero_()\n"
    )
    events = _run(code)
    changes = [
        (e["how"], e["line"], [round(v, 4) for v in e["value"]["values"]])
        for e in events
        if e["type"] == "grad_changed"
    ]
    assert changes == [
        ("written", 4, [0.6, 0.8]),
        ("written", 5, [1.2, 1.6]),
        ("written", 6, [0.0, 0.0]),
    ]
    # the accumulated total shown is the value before the clip (built before the write)
    (acc,) = [e for e in events if e["type"] == "grad_accumulated"]
    assert acc["total"]["values"] == [6.0, 8.0]


def test_writes_through_data_show_on_the_tensor() -> None:
    events = _run(RUNNABLE["manual_sgd"])
    w = _named(events, "w")
    bumps = [
        (e["version"], e["line"])
        for e in events
        if e["type"] == "version_bump" and e["tensor"] == w
    ]
    # PyTorch does not count writes through .data: w stays at version 0, its values change
    assert bumps == [(0, 6), (0, 6), (0, 8)]


def test_a_model_run_under_no_grad_is_drawn_whole_in_its_modules() -> None:
    # every op of the model's inference is a cut point, the ones on activations too (ReLU has
    # no input that requires grad), each on the one before it and in the module it ran in
    events = _run(RUNNABLE["no_grad_model"])
    cuts = [e for e in events if e["type"] == "untracked_op"]
    assert [(e["name"], e["module_path"]) for e in cuts] == [
        ("TBackward0", "Sequential.0"),
        ("AddmmBackward0", "Sequential.0"),
        ("ReluBackward0", "Sequential.1"),
        ("TBackward0", "Sequential.2"),
        ("AddmmBackward0", "Sequential.2"),
    ]
    assert all(e["grad_mode"] == "no_grad" and e["line"] == 5 for e in cuts)
    made = [e["outputs"][0]["id"] for e in cuts]
    assert made[1] in cuts[2]["inputs"] and made[2] in cuts[4]["inputs"]
    assert [len(e["module_calls"]) for e in cuts] == [2, 2, 2, 2, 2]
    # what the snippet does outside no_grad on a result needing no grad is not a cut point
    assert len(cuts) == 5
