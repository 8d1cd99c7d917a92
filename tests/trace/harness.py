"""Helpers for the trace tests: run a snippet traced or plain, number events, rebuild graphs."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import warnings
from typing import Any

import engine
from engine.tracing import run_snippet

GRAPH_MARK = "@@GRAPH@@"

# Appended to a snippet: prints a canonical hash of every graph reachable from its globals,
# computed from the engine's own objects (name(), next_functions).
EPILOGUE = (
    '''
def __bs_graphs():
    import hashlib, json
    import torch as __t
    memo = {}
    for v in list(globals().values()):
        if not isinstance(v, __t.Tensor) or v.grad_fn is None:
            continue
        stack = [(v.grad_fn, False)]
        while stack:
            n, ready = stack.pop()
            if id(n) in memo:
                continue
            kids = [m for m, _ in n.next_functions if m is not None]
            if not ready:
                stack.append((n, True))
                stack.extend((m, False) for m in kids if id(m) not in memo)
                continue
            parts = [n.name()] + [
                (memo[id(m)] if m is not None else "-") + ":" + str(nr)
                for m, nr in n.next_functions
            ]
            memo[id(n)] = hashlib.sha1("|".join(parts).encode()).hexdigest()
    print("'''
    + GRAPH_MARK
    + """" + json.dumps(sorted(set(memo.values()))))
__bs_graphs()
"""
)


def traced(code: str, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run `code` under the tracer; events numbered like the CLI does (run_id, dense seq)."""
    events: list[dict[str, Any]] = []
    engine.manual_seed(0)
    controller = options.pop("controller", None)
    summary = run_snippet(code, events.extend, controller=controller, options=options)
    for i, e in enumerate(events):
        e["run_id"] = "test"
        e["seq"] = i
    return summary, events


def plain(code: str) -> tuple[dict[str, Any], BaseException | None]:
    """Run `code` without a tracer; returns its globals and what it raised."""
    engine.install_as_torch()
    engine.manual_seed(0)
    ns: dict[str, Any] = {"__name__": "__main__"}
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
            warnings.catch_warnings(),  # warnings are the snippet's output, not errors
        ):
            warnings.simplefilter("ignore")
            exec(compile(code, "<plain>", "exec"), ns)
    except Exception as e:  # the traced run must fail the same way
        return ns, e
    return ns, None


def told_names(events: list[dict[str, Any]]) -> dict[int, str | None]:
    """Each tensor's name as last told: a node's outputs describe a tensor with the name an
    earlier batch's end gave it; a `tensor` event tells it again once a batch's end names it."""
    last: dict[int, str | None] = {}
    for e in events:
        told = [e["tensor"]] if e["type"] == "tensor" else e.get("outputs", [])
        last |= {t["id"]: t["name"] for t in told if isinstance(t, dict)}
    return last


def stdout(events: list[dict[str, Any]]) -> str:
    return "".join(e["text"] for e in events if e["type"] == "stdout")


def event_graph_hashes(events: list[dict[str, Any]]) -> set[str]:
    """The same canonical hashes, rebuilt from `node` events only."""
    nodes = {e["id"]: e for e in events if e["type"] == "node"}
    memo: dict[int, str] = {}
    for root in nodes:
        stack = [(root, False)]
        while stack:
            nid, ready = stack.pop()
            if nid in memo:
                continue
            nxt = nodes[nid]["next"]
            if not ready:
                stack.append((nid, True))
                stack.extend((x["node"], False) for x in nxt if x["node"] is not None)
                continue
            parts = [nodes[nid]["name"]] + [
                (memo[x["node"]] if x["node"] is not None else "-") + ":" + str(x["input_nr"])
                for x in nxt
            ]
            memo[nid] = hashlib.sha1("|".join(parts).encode()).hexdigest()
    return set(memo.values())


def actual_graph_hashes(events: list[dict[str, Any]]) -> set[str]:
    """The hashes the epilogue printed."""
    out = stdout(events)
    line = next(ln for ln in out.splitlines() if ln.startswith(GRAPH_MARK))
    return set(json.loads(line[len(GRAPH_MARK) :]))
