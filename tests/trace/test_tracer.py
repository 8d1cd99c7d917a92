"""Tracer internals that the stream tests cannot see: id bookkeeping and the collector state."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest

import engine
from engine.tracing import Tracer
from engine.tracing.ids import Ids
from engine.tracing.stepper import Backward
from protocol.check import validate_event
from tests.trace import harness

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_object_never_inherits_an_id() -> None:
    ids = Ids()
    seen = []
    for _ in range(200):
        t = engine.ones(3)
        # a fresh tensor often lands where the last one died: it must not inherit its id
        assert ids.get(t) is None
        seen.append(ids.of(t))
        assert ids.of(t) == seen[-1] and ids.get(t) == seen[-1]
        del t
    assert seen == list(range(200))


def test_ids_of_one_tracer_mean_nothing_to_the_next() -> None:
    first, second = Ids(), Ids()
    a = engine.ones(1)
    assert first.of(a) == 0 and second.get(a) is None
    b = engine.ones(2)
    assert second.of(b) == 0 and second.of(a) == 1 and first.get(b) is None


def test_find_returns_live_objects_only() -> None:
    ids = Ids()
    a, b = engine.ones(1), engine.ones(2)
    na, nb = ids.of(a), ids.of(b)
    assert ids.find(nb, engine.Tensor) is b and ids.find(na, engine.Tensor) is a
    del a
    gc.collect()
    assert ids.find(na, engine.Tensor) is None and ids.find(nb, engine.Tensor) is b


def _tracer(events: list[dict[str, Any]]) -> Tracer:
    tr = Tracer(events.extend, "<snippet>", {})
    tr.backward = Backward(tr, None, {})
    return tr


def test_flush_leaves_the_collector_as_it_found_it() -> None:
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            events: list[dict[str, Any]] = []
            tr = _tracer(events)
            tr.emit({"type": "stdout", "t": tr.now(), "text": "x"})
            tr.flush()
            assert [e["type"] for e in events] == ["stdout"]
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_one_array_shown_by_several_events_is_built_once_per_flush() -> None:
    events: list[dict[str, Any]] = []
    tr = _tracer(events)
    g = engine.ones(3)
    tr.emit({"type": "stdout", "t": tr.now(), "text": "x"})
    first = tr.value(g._d)
    assert tr.value(g._d) is first
    # (a small value holds the array itself until the batch is written: `wire` writes it)
    assert wire(first) == {"shape": [3], "dtype": "float32", "values": [1.0, 1.0, 1.0]}
    tr.flush()  # a new batch builds values afresh (the array may have changed in place)
    g._d[0] = 2.0
    again = tr.value(g._d)
    assert again is not first
    assert wire(again)["values"] == [2.0, 1.0, 1.0]


def wire(value: Any) -> Any:
    """A built value as the sink's bytes carry it."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY))


def _run(code: str) -> list[dict[str, Any]]:
    from engine.tracing import run_snippet

    events: list[dict[str, Any]] = []
    summary = run_snippet(code, events.extend)
    assert summary["status"] == "ok", summary
    return events


def test_events_show_values_from_before_a_later_in_place_write() -> None:
    # the case the debugger exists for: b is saved by sin, then changed in place
    events = _run(
        "import torch\n"
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a * 2\n"
        "c = b.sin()\n"
        "b.add_(1)\n"
        "big = torch.ones(100, requires_grad=True) * 3\n"
        "big.mul_(2)\n"
    )
    mul = next(e for e in events if e["type"] == "node" and e["name"] == "MulBackward0")
    out = mul["outputs"][0]
    assert out["value"]["values"] == [2.0, 4.0] and out["version"] == 0
    inplace = [e for e in events if e["type"] == "node" and e["name"] == "AddBackward0"]
    assert inplace[0]["outputs"][0]["value"]["values"] == [3.0, 5.0]
    # the in-place node's output is b itself (same id), at version 1; named `b` (told so at
    # the write, which ends a batch)
    assert inplace[0]["outputs"][0]["id"] == out["id"]
    assert harness.told_names(events)[out["id"]] == "b"
    assert inplace[0]["outputs"][0]["version"] == 1 and inplace[0]["outputs"][0]["name"] == "b"
    # a large tensor: summaries, not values, must be from their moment too
    big = [e["outputs"][0] for e in events if e["type"] == "node" and e["line"] in (6, 7)]
    assert [o["value"]["stats"]["mean"] for o in big] == [3.0, 6.0]
    assert big[0]["id"] == big[1]["id"]


def test_events_show_a_tensor_as_it_was_before_the_snippet_changed_its_state() -> None:
    # captures are built in runs: the ones made before the snippet changes a tensor's
    # autograd state or array outside an op (detach_, requires_grad_, .grad =, .data =) are
    # built first, so a node's output is shown as the op made it
    events = _run(
        "import torch\n"
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a * 2\n"
        "b.detach_()\n"
        "c = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "d = c * 3\n"
        "d.data = torch.zeros(2)\n"
        "p = torch.tensor([4.0], requires_grad=True)\n"
        "p.requires_grad_(False)\n"
    )
    nodes = [e for e in events if e["type"] == "node" and e["name"] == "MulBackward0"]
    b, d = nodes[0]["outputs"][0], nodes[1]["outputs"][0]
    assert b["requires_grad"] and b["grad_fn"] is not None
    assert d["value"]["values"] == [3.0, 6.0]
    p = next(e["tensor"] for e in events if e["type"] == "tensor" and e["tensor"]["line"] == 8)
    assert p["requires_grad"]


def test_strings_json_cannot_carry_do_not_break_the_stream() -> None:
    from engine.tracing import run_snippet

    events: list[dict[str, Any]] = []
    code = (
        "import torch\n"
        "m = torch.nn.Sequential()\n"
        "m.add_module('bad\\ud800name', torch.nn.Linear(2, 2))\n"
        "m(torch.ones(1, 2)).sum().backward()\n"
        "print('done')\n"
        "print('\\ud800')\n"
    )
    summary = run_snippet(code, lambda b: events.extend(orjson.loads(orjson.dumps(b))))
    paths = {e["path"] for e in events if e["type"] == "module_enter"}
    assert paths == {"Sequential", "Sequential.bad?name"}
    assert [e["text"] for e in events if e["type"] == "stdout"] == ["done\n"]
    # a UTF-8 stdout refuses a lone surrogate: so does the run's, with Python's error
    assert summary["status"] == "error" and summary["error"]["error_type"] == "UnicodeEncodeError"
    assert summary["error"]["line"] == 6


def test_parameters_are_named_as_named_parameters_names_them() -> None:
    events = _run(
        "import torch\n"
        "import torch.nn as nn\n"
        "class MLP(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc1 = nn.Linear(4, 8)\n"
        "        self.seq = nn.Sequential(nn.ReLU(), nn.Linear(8, 1))\n"
        "    def forward(self, inp):\n"
        "        return self.seq(self.fc1(inp))\n"
        "model = MLP()\n"
        "w = model.fc1.bias\n"
        "model(torch.ones(2, 4)).sum().backward()\n"
    )
    # a leaf described before anything named it (a parameter made and initialised in its
    # module's __init__) is described again once a batch finds its name: the last one counts
    last = {e["tensor"]["id"]: e["tensor"] for e in events if e["type"] == "tensor"}
    leaves = [t for t in last.values() if t["requires_grad"]]
    # a variable bound to a parameter names it first (w); the others by their module path
    assert sorted(t["name"] for t in leaves) == ["fc1.weight", "seq.1.bias", "seq.1.weight", "w"]


def test_optimizer_steps_and_running_stats_are_version_bumps_with_new_values() -> None:
    events = _run(
        "import torch\n"
        "lin = torch.nn.Linear(2, 1)\n"
        "bn = torch.nn.BatchNorm1d(2)\n"
        "opt = torch.optim.SGD(lin.parameters(), lr=0.5)\n"
        "lin(bn(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))).sum().backward()\n"
        "opt.step()\n"
    )
    bumps = [(e["line"], e["value"]["values"]) for e in events if e["type"] == "version_bump"]
    # num_batches_tracked counts the batch (PyTorch's add_(1) moves its version too)
    assert [v for line, v in bumps if line == 5 and not isinstance(v, list)] == [1]
    # momentum 0.1 from 0 and 1: the batch means (2, 4) and unbiased variances (2, 8)
    stats = [v for line, v in bumps if line == 5 and isinstance(v, list)]
    np.testing.assert_allclose(stats, [[0.2, 0.4], [1.1, 1.7]], rtol=1e-6)
    # the step: the weight's gradient is 0 (bn's output sums to 0 per column), the bias's 2
    described = {e["tensor"]["id"]: e["tensor"] for e in events if e["type"] == "tensor"}
    steps = {e["tensor"]: e for e in events if e["type"] == "version_bump" and e["line"] == 6}
    assert len(steps) == 2
    for tid, bump in steps.items():
        before = np.array(described[tid]["value"]["values"])
        after = np.array(bump["value"]["values"])
        np.testing.assert_allclose(after, before - 0.5 * (2.0 if before.ndim == 1 else 0.0))


def test_module_scopes_carry_call_numbers_so_repeated_calls_stay_apart() -> None:
    events = _run(
        "import torch\n"
        "net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())\n"
        "y = net(net(torch.ones(1, 2)))\n"
    )
    enters = [(e["path"], e["call"]) for e in events if e["type"] == "module_enter"]
    exits = [(e["path"], e["call"]) for e in events if e["type"] == "module_exit"]
    assert [c for _, c in enters] == list(range(6))
    assert sorted(exits) == sorted(enters)
    nodes = [e for e in events if e["type"] == "node"]
    assert [e["module_calls"] for e in nodes if e["name"] == "TanhBackward0"] == [[0, 2], [3, 5]]


MODULE_OUTPUTS = (
    "import torch\n"
    "class Pair(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return {'scale': 2, 'out': (x.sum(0), x)}\n"
    "class Boom(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        raise ValueError('boom')\n"
    "class Odd(list):\n"
    "    def __getitem__(self, i):\n"
    "        raise KeyError(i)\n"
    "class Oddly(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        return Odd([x])\n"
    "lstm = torch.nn.LSTM(3, 4, batch_first=True)\n"
    "out, (h, c) = lstm(torch.ones(2, 5, 3))\n"
    "Pair()(torch.ones(2, 3))\n"
    "torch.nn.Flatten()(torch.ones(2, 3, 1))\n"
    "assert len(Oddly()(torch.ones(1))) == 1\n"
    "try:\n"
    "    Boom()(torch.ones(1))\n"
    "except ValueError:\n"
    "    pass\n"
)
# what each call returned: an LSTM's output (not h_n, its last op's), a dict's first tensor;
# a list whose indexing raises costs only its shape
MODULE_OUTPUT_SHAPES = [
    ("LSTM", [2, 5, 4]),
    ("Pair", [3]),
    ("Flatten", [2, 3]),
    ("Oddly", None),
    ("Boom", None),
]


def test_a_module_exit_says_the_shape_of_what_the_module_returned() -> None:
    events = _run(MODULE_OUTPUTS)
    exits = [(e["path"], e["output_shape"]) for e in events if e["type"] == "module_exit"]
    assert exits == MODULE_OUTPUT_SHAPES


def test_node_exit_says_whether_the_node_freed_its_saved_tensors() -> None:
    events = _run(
        "import torch\n"
        "a = torch.ones(2, requires_grad=True)\n"
        "y = (a.exp() + 1).sum()\n"
        "y.backward(retain_graph=True)\n"
        "y.backward()\n"
    )
    names = {e["id"]: e["name"] for e in events if e["type"] == "node"}
    exits = [e for e in events if e["type"] == "node_exit"]
    kept = {names[e["node"]]: e["freed"] for e in exits if e["backward"] == 0}
    freed = {names[e["node"]]: e["freed"] for e in exits if e["backward"] == 1}
    assert set(kept) == set(freed) == {*names.values()}
    assert not any(kept.values())  # retain_graph=True
    # the second pass frees what was saved: exp's result; add saved nothing
    assert freed["ExpBackward0"] and not freed["AddBackward0"]
    assert not freed["torch::autograd::AccumulateGrad"]
    assert not [e for e in events if e["type"] == "buffers_freed"]


def test_find_is_not_stopped_by_a_dead_weak_proxy_in_the_heap() -> None:
    import weakref

    class Thing:
        pass

    thing = Thing()
    proxy = weakref.proxy(thing)
    del thing  # `proxy` is dead: isinstance(proxy, ...) raises ReferenceError
    ids = Ids()
    t = engine.ones(2)
    n = ids.of(t)
    assert ids.find(n, engine.Tensor) is t
    assert proxy is not None  # kept alive (in the heap) until here


def test_captures_are_sent_at_least_every_quarter_second() -> None:
    # a run killed from outside loses at most its last moments: once FLUSH_EVERY has passed
    # since the last send, the next capture sends what is built (captures are built
    # BUILD_EVERY at a time, at moments the program fixes, so at most that many are held)
    from engine.tracing import run_snippet
    from engine.tracing.tracer import BUILD_EVERY, FLUSH_EVERY

    code = (
        "import time, torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        f"ys = [x * i for i in range({BUILD_EVERY})]\n"
        "time.sleep(0.3)\n"
        "z = x * 3\n"
        "time.sleep(0.3)\n"
        "w = x * 4\n"
    )
    assert FLUSH_EVERY < 0.3e9
    batches: list[list[dict[str, Any]]] = []
    assert run_snippet(code, batches.append)["status"] == "ok"
    lines = [sorted(e["line"] for e in b if e["type"] == "node" and e["line"]) for b in batches]
    lines = [ln for ln in lines if ln]
    # the list's ops went out at the first op after the sleep (the newest, held back till the
    # next capture's moment, at most one of them); the rest at the run's end
    assert len(lines) == 2
    assert set(lines[0]) == {3} and len(lines[0]) >= BUILD_EVERY - 1
    assert lines[1][-2:] == [5, 7]


def _ids_at_exit(
    code: str, batch: int, tensors: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, int | None]:
    """The ids the tracer gave the snippet's own tensors (`tensors` picks them from its
    globals at exit), run with a batch built every `batch` captures."""
    import builtins

    from engine.autograd import observer
    from engine.tracing import run_snippet

    got: dict[str, int | None] = {}

    def dump(ns: dict[str, Any]) -> None:
        tr = observer.TRACER
        assert isinstance(tr, Tracer)
        got.update({k: tr.tensors.get(v) for k, v in tensors(ns).items()})

    hook = "__ids_dump__"
    setattr(builtins, hook, dump)
    try:
        run_snippet(code + f"{hook}(globals())\n", lambda _: None, options={"batch": batch})
    finally:
        delattr(builtins, hook)
    return got


def test_two_runs_of_one_snippet_give_its_tensors_the_same_ids_however_batches_fall() -> None:
    # a batch is also built when FLUSH_EVERY has passed, so where batches end depends on the
    # machine's speed; ids must not. x and the BatchNorm's num_batches_tracked are made by ops
    # the engine does not record (no node, no tracer call), first seen in a later capture

    code = (
        "import torch\n"
        "x = (torch.arange(6, dtype=torch.float32) * 0.37).sin().reshape(2, 3).requires_grad_()\n"
        "w = torch.ones(3, requires_grad=True)\n"
        "bn = torch.nn.BatchNorm1d(3)\n"
        "y = bn(x * w)\n"
        "y.sum().backward()\n"
        "g = w.grad\n"
    )

    def tensors(ns: dict[str, Any]) -> dict[str, Any]:
        bn = ns["bn"]
        named = [*bn.named_parameters(), *bn.named_buffers()]
        return {k: v for k, v in ns.items() if isinstance(v, engine.Tensor)} | {
            f"bn.{k}": v for k, v in named
        }

    def ids(batch: int) -> dict[str, int | None]:
        # (names are found when a batch is built, so they may differ; ids may not)
        return _ids_at_exit(code, batch, tensors)

    every_capture, one_batch = ids(1), ids(1 << 20)
    assert every_capture == one_batch
    assert None not in one_batch.values()
    assert {"x", "w", "y", "g", "bn.num_batches_tracked"} <= set(one_batch)


def _names_told(code: str, **options: Any) -> dict[int, str | None]:
    """Run `code` traced: each tensor's name as last told (a `tensor` event, or a node's
    outputs)."""
    from engine.tracing import run_snippet

    events: list[dict[str, Any]] = []
    assert run_snippet(code, events.extend, options=options)["status"] == "ok"
    last: dict[int, str | None] = {}
    for e in events:
        told = [e["tensor"]] if e["type"] == "tensor" else e.get("outputs", [])
        last |= {t["id"]: t["name"] for t in told if isinstance(t, dict)}
    return last


def test_a_tensor_gets_the_same_name_however_batches_fall() -> None:
    # `x` and `logits` are made by ops whose capture may be built into a batch before the
    # assignment has bound them (a batch is also built when FLUSH_EVERY has passed): with a
    # batch after every capture they were described with no name and kept none, while in one
    # batch they have theirs. Described without a name, a tensor is told again once named

    code = (
        "import torch\n"
        "net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())\n"
        "x = torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.1\n"
        "logits = net(x)\n"
        "loss = logits.sum()\n"
        "loss.backward()\n"
    )

    def names(batch: int) -> dict[int, str | None]:
        return _names_told(code, batch=batch)

    every_capture, one_batch = names(1), names(1 << 20)
    assert every_capture == one_batch
    assert {"x", "logits", "loss", "0.weight", "0.bias"} <= set(one_batch.values())


def test_a_name_from_the_top_level_wins_over_a_snippet_function_s_however_batches_fall() -> None:
    # `y` is first used inside the snippet's forward, where it is `inp`; `logits` is `b` in
    # the function that made it. Which name a tensor kept depended on the frames a batch saw
    # (only forward's, or the top level's too): the shallowest frame's name is told, and a
    # deeper one never replaces it; a parameter is named as named_parameters() names it

    code = (
        "import torch\n"
        "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = torch.nn.Linear(3, 2)\n"
        "    def forward(self, inp):\n"
        "        w = self.fc.weight\n"
        "        h = inp @ w.t()\n"
        "        return twice(h)\n"
        "def twice(a):\n"
        "    b = a * 2\n"
        "    return b\n"
        "net = Net()\n"
        "x = torch.arange(6, dtype=torch.float32).reshape(2, 3) * 0.1\n"
        "y = x + 1\n"
        "logits = net(y)\n"
        "loss = logits.sum()\n"
        "loss.backward()\n"
    )

    def names(batch: int) -> dict[int, str | None]:
        return _names_told(code, batch=batch)

    one_batch = names(1 << 20)
    for batch in (1, 2, 3, 5):
        assert names(batch) == one_batch, batch
    assert {"fc.weight", "fc.bias", "y", "h", "logits", "loss"} <= set(one_batch.values())
    assert not {"inp", "w", "a", "b"} & set(one_batch.values())


@pytest.mark.parametrize("example", ["06_batchnorm_forward", "12_ops_without_nodes"])
def test_names_do_not_depend_on_when_timed_batches_fall(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    # a batch is also built when FLUSH_EVERY has passed, at a moment that depends on the
    # machine's speed; a name read then depended on it (06's `x = x - mean_val` rebinds `x`:
    # the tensors it held in between were named `x` only if a batch fell there; 12's `y` was
    # rebound before a later batch saw it). Names are read only where the run puts a batch's
    # end: a batch built after every capture because FLUSH_EVERY is 0 names as none at all
    from engine.tracing import tracer as tracer_module

    code = (ROOT / "examples" / f"{example}.py").read_text()

    def names(flush_every: int) -> dict[int, str | None]:
        monkeypatch.setattr(tracer_module, "FLUSH_EVERY", flush_every)
        return _names_told(code)

    never = names(1 << 62)
    assert names(0) == never
    assert {"x", "y"} & set(never.values())


def test_a_saved_tensor_freed_before_its_batch_is_built_takes_no_id_from_later_tensors() -> None:
    # masked_fill saves its mask, a tensor no capture holds (neither input nor output); it
    # was numbered when its node was built, and in a batch built after the graph was freed it
    # was gone: every later tensor's id came one lower than with a batch per capture

    code = (
        "import torch\n"
        "a = torch.ones(2, 2, requires_grad=True)\n"
        "b = (a * 2).masked_fill(torch.eye(2) == 0, 0.0)\n"
        "b = (a + 1).sum()\n"  # the masked_fill's graph, and the mask it saved, are freed
        "c = a * 3\n"
    )

    def ids(batch: int) -> dict[str, int | None]:
        return _ids_at_exit(
            code, batch, lambda ns: {k: v for k, v in ns.items() if isinstance(v, engine.Tensor)}
        )

    every_capture, one_batch = ids(1), ids(1 << 20)
    assert every_capture == one_batch
    assert {"a", "b", "c"} <= set(one_batch)


SMALL_VALUES = (
    "import torch\n"
    "a = torch.tensor([0.1, 2.5, -3.25], requires_grad=True)\n"
    "b = (a * 1.7).exp()\n"
    "c = b * torch.tensor([float('nan'), 1.0, float('inf')])\n"  # NaN and inf in one batch
    "d = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64).t() * 3\n"
    "e = torch.arange(6).reshape(2, 3).t()\n"  # non-contiguous ints
    "f = torch.tensor([True, False]) | torch.tensor([False, False])\n"
    "h = torch.tensor(1.5, requires_grad=True) * 2\n"  # 0-d
    "i = torch.tensor([1.0, 2.0], dtype=torch.float16) * 0.3\n"
    "(b.sum() + h).backward()\n"
    # sent in full (within the run's budget)
    "big = torch.linspace(-1, 1, 300, requires_grad=True).reshape(20, 15)\n"
    "bad = big * torch.where(big > 0.5, float('inf'), 1.0)\n"
    "odd = big.t() * 1\n"
)


def test_values_sent_as_arrays_write_what_the_inline_form_does() -> None:
    """A sink that writes batches itself (`arrays`, the worker's) gets small values as arrays:
    the bytes it writes hold the same values, NaN/inf strings and counts as the plain form."""
    from engine.tracing import run_snippet

    plain: list[dict[str, Any]] = []
    raw: list[dict[str, Any]] = []
    full = {"values_per_tensor": 1000, "values_budget": 10_000}
    assert run_snippet(SMALL_VALUES, plain.extend, options=full)["status"] == "ok"
    opts = {"arrays": True, **full}

    def sink(batch: list[dict[str, Any]]) -> None:
        raw.extend(orjson.loads(orjson.dumps(batch, option=orjson.OPT_SERIALIZE_NUMPY)))

    assert run_snippet(SMALL_VALUES, sink, options=opts)["status"] == "ok"
    for e in (*plain, *raw):
        e.pop("t")
    assert raw == plain
    values = [o["value"] for e in plain if e["type"] == "node" for o in e["outputs"]]
    flagged = [v for v in values if "nan" in v and "sample" not in v]  # c: NaN, inf as strings
    assert [(v["nan"], v["inf"], v["values"][0]) for v in flagged] == [(1, 1, "nan")]
    assert [0.1, 2.5, -3.25] in [v.get("values") for e in plain for v in _values(e)]
    bad = next(v for e in plain for v in _values(e) if v["shape"] == [20, 15] and v["inf"])
    assert bad["inf"] == 75 and bad["values"][19][14] == "inf"
    # and in the inline form's key order, as the real-PyTorch backend writes the same values
    # (its stream must be byte for byte the engine's: tests/torch/test_values.py)
    order = {tuple(v) for e in raw for v in _values(e) if "nan" in v}
    assert order == {
        ("shape", "dtype", "nan", "inf", "values"),  # small, not finite
        ("shape", "dtype", "nan", "inf", "values", "sample", "stats", "hist"),  # large, not
        ("shape", "dtype", "values", "sample", "nan", "inf", "stats", "hist"),  # large, finite
    }, order


def _values(e: Any) -> list[dict[str, Any]]:
    """Every wire value in an event."""
    if isinstance(e, list):
        return [v for x in e for v in _values(x)]
    if not isinstance(e, dict):
        return []
    if "dtype" in e and "shape" in e and ("values" in e or "sample" in e):
        return [e]
    return [v for x in e.values() for v in _values(x)]


def _stream(code: str) -> list[dict[str, Any]]:
    """The events of a traced run of `code`, without what differs between two runs of one
    program: times, printed text beyond its number of lines (object addresses, the
    profiler's timings), hook ids (counted per process: renumbered in order of appearance)."""
    _, events = harness.traced(code)
    hooks: dict[int, int] = {}
    out = []
    for e in events:
        e = {k: v for k, v in e.items() if k != "t"}
        if e["type"] in ("stdout", "stderr"):
            e["text"] = e["text"].count("\n")
        if isinstance(e.get("hook"), int):
            e["hook"] = hooks.setdefault(e["hook"], len(hooks))
        out.append(e)
    return out


@pytest.mark.parametrize(
    "example",
    ["04_tensor_hook", "05_profiler_resnet", "13_inplace_on_leaf", "19_cnn_training_loop"],
)
def test_the_stream_is_the_same_however_timed_sends_fall(
    monkeypatch: pytest.MonkeyPatch, example: str
) -> None:
    # captures are also sent when FLUSH_EVERY has passed, at moments the machine's speed
    # fixes. Events built then from the tensors' state of that moment differed from those
    # built at the batch's end (a factory's requires_grad=True set after the tensor's capture;
    # nn.Linear's init bumps told or not; later ids shifted): every capture is now built when
    # the next is made, names read only at a batch's end, and a timed send only sends
    from engine.tracing import tracer as tracer_module

    code = (ROOT / "examples" / f"{example}.py").read_text()
    monkeypatch.setattr(tracer_module, "FLUSH_EVERY", 0)
    every_capture = _stream(code)
    monkeypatch.setattr(tracer_module, "FLUSH_EVERY", 1 << 62)
    never = _stream(code)
    assert len(every_capture) == len(never)
    for i, (a, b) in enumerate(zip(every_capture, never, strict=True)):
        assert a == b, i
    assert any(e["type"] == "node" for e in never)


def test_a_named_double_backward_node_is_one_node_and_its_backward_no_extra_pass() -> None:
    """A gradient penalty through layer_norm: PyTorch draws NativeLayerNormBackwardBackward0 as
    one node, and the penalty's backward is the run's second pass, with no pass of its own for
    the engine's private composition (whose ops, e.g. RsqrtBackward0, are never drawn)."""
    summary, events = harness.traced(
        "import torch\n"
        "x = torch.randn(4, 5, requires_grad=True)\n"
        "y = torch.nn.functional.layer_norm(x, (5,)).pow(3).sum()\n"
        "(g,) = torch.autograd.grad(y, x, create_graph=True)\n"
        "g.pow(2).sum().backward()\n"
    )
    assert summary["status"] == "ok", summary
    for e in events:
        validate_event(e)
    names = {e["name"] for e in events if e["type"] == "node"}
    assert "NativeLayerNormBackwardBackward0" in names
    assert not names & {"RsqrtBackward0", "MeanBackward1", "SubBackward0"}, names
    assert sum(e["type"] == "backward_started" for e in events) == 2
