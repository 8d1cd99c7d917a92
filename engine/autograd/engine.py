"""The backward walker: one generator of steps that `backward()`, `autograd.grad()` and the
debugger all drive, so they cannot drift apart.

PyTorch's order: dependency counts from the roots; a ready queue ordered by sequence number,
newest node first, `AccumulateGrad` before everything; a node runs once all its gradients have
arrived. Iterative throughout: 100k-node graphs must not hit the recursion limit.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype
from engine._upper import UPPER
from engine._warn import warn
from engine.autograd import observer
from engine.autograd.grad_mode import ANOMALY, STATE
from engine.autograd.node import AccumulateGrad, Edge, Grads, GraphRoot, Node

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from protocol.vocab import HookKind

WARNED: set[str] = set()  # PyTorch's warn-once messages already given in this process

# A step is a plain tuple: first ("start", task, roots, grads), the walk's arguments as given,
# then ("enter", node, grad_outputs, queue) and ("exit", node, grad_inputs) for each node.
Step = tuple[Any, ...]


_task_ids = itertools.count()


class GraphTask:
    """One backward pass: what to run, what to keep, where results go."""

    __slots__ = (
        "captures",
        "create_graph",
        "deps",
        "id",
        "keep_graph",
        "needed",
        "results",
        "start",
    )

    def __init__(self, keep_graph: bool, create_graph: bool) -> None:
        self.id = next(_task_ids)
        self.keep_graph = keep_graph
        self.create_graph = create_graph
        self.deps: dict[Node, int] = {}
        self.needed: set[Node] | None = None  # None: run everything reachable
        self.captures: dict[Node, list[tuple[int, int]]] = {}  # node -> [(input_nr, slot)]
        self.results: list[Tensor | None] = []
        self.start: Node | None = None


class _Running(threading.local):
    """The backward passes running in this thread, innermost last (a hook may start one)."""

    def __init__(self) -> None:
        self.tasks: list[GraphTask] = []


RUNNING = _Running()


def current_graph_task_id() -> int:
    """The id of the backward pass running in this thread, -1 outside backward."""
    tasks = RUNNING.tasks
    return tasks[-1].id if tasks else -1


def will_engine_execute_node(node: Node) -> bool:
    """True when the running backward pass will call `node` (PyTorch's exec_info check)."""
    tasks = RUNNING.tasks
    if not tasks:
        raise RuntimeError(
            "_will_engine_execute_node should only be called during the backward pass"
        )
    task = tasks[-1]
    if task.needed is not None:
        return node in task.needed or node in task.captures
    return node is task.start or node in task.deps


def _dependencies(start: Node) -> dict[Node, int]:
    deps: dict[Node, int] = {}
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _needed(start: Node, targets: set[Node]) -> set[Node]:
    """Nodes on some path from `start` to a target (post-order, iterative)."""
    needed: set[Node] = set()
    done: set[Node] = set()
    stack: list[tuple[Node, int]] = [(start, 0)]
    while stack:
        node, i = stack.pop()
        nf = node.next_functions
        if i < len(nf):
            stack.append((node, i + 1))
            nxt = nf[i][0]
            if nxt is not None and nxt not in done:
                stack.append((nxt, 0))
            continue
        if node in done:
            continue
        done.add(node)
        if node in targets or any(n in needed for n, _ in nf if n is not None):
            needed.add(node)
    return needed


def walk(task: GraphTask, roots: Sequence[Edge], grads: Grads) -> Iterator[Step]:
    """Run the backward pass: a step with its arguments before anything runs, then a step
    before and after each node."""
    yield ("start", task, roots, grads)
    if len(roots) == 1 and roots[0][0] is not None:
        start: Node = roots[0][0]
        nr = roots[0][1]
        first: Grads = [None] * max(len(start._input_meta), nr + 1)
        first[nr] = grads[0]
    else:
        start = GraphRoot(tuple(roots), grads)
        first = []
    task.deps = deps = _dependencies(start)
    task.start = start
    needed = task.needed
    buffers: dict[Node, Grads] = {start: first}
    tie = 0
    queue: list[tuple[int, int, Node]] = [(-start._seq, tie, start)]
    prev_enabled = STATE.enabled
    STATE.enabled = task.create_graph
    running = RUNNING.tasks
    running.append(task)
    try:
        while queue:
            node = heapq.heappop(queue)[2]
            grads_in = buffers.pop(node)
            yield ("enter", node, grads_in, queue)
            try:
                grads_out = _call(task, node, grads_in)
            except Exception:
                if ANOMALY.anomaly:  # PyTorch warns with the node's forward traceback first
                    from engine.autograd.anomaly_mode import warn_error_in

                    warn_error_in(node)
                raise
            if not task.keep_graph:
                node.release()
            yield ("exit", node, grads_out)
            for (nxt, input_nr), g in zip(node.next_functions, grads_out):
                if nxt is None:
                    continue
                buf = buffers.get(nxt)
                if buf is None:
                    n_in = len(nxt._input_meta) or 1
                    buf = buffers[nxt] = [None] * max(n_in, input_nr + 1)
                if g is not None:
                    old = buf[input_nr]
                    buf[input_nr] = g if old is None else _add_grads(old, g)
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    if needed is not None and nxt not in needed:
                        # not on a path to the requested inputs: still honour captures
                        if nxt in task.captures:
                            _call(task, nxt, buffers.pop(nxt))
                        else:
                            buffers.pop(nxt, None)
                        continue
                    tie += 1
                    heapq.heappush(queue, (-nxt._seq, tie, nxt))
    finally:
        STATE.enabled = prev_enabled
        running.remove(task)


def _add_grads(a: Tensor, b: Tensor) -> Tensor:
    if STATE.enabled:
        return a + b
    from engine._tensor import make

    return make(a._d + b._d, False, None, 0)


def _fire(kind: HookKind, hook_id: int, fn: Any, *args: Any) -> Any:
    tracer = observer.tracer()
    if tracer is None:
        return fn(*args)
    before = tracer.hook_before(kind, args)
    out = fn(*args)
    tracer.hook_fired(kind, hook_id, args, out, before)
    return out


def _call(task: GraphTask, node: Node, grads: Grads) -> Grads:
    """Hooks, the node's function, post hooks: PyTorch's `call_function`."""
    if node._tpre is not None:
        for nr, hooks in node._tpre.items():
            for hid, hook in list(hooks.items()):
                # PyTorch calls a non-leaf's hooks even with no gradient (None), e.g. for
                # the unused outputs of split
                if nr < len(grads):
                    new = _fire("tensor", hid, hook, grads[nr])
                    if new is not None:
                        grads[nr] = new
    is_acc = type(node) is AccumulateGrad
    if is_acc:
        var = node.variable
        if var._hooks:
            for hid, hook in list(var._hooks.items()):
                if grads[0] is not None:
                    new = _fire("tensor", hid, hook, grads[0])
                    if new is not None:
                        grads[0] = new
    if node._retains is not None:
        for nr, ref in node._retains.items():
            t = ref()
            g = grads[nr] if nr < len(grads) else None
            if t is not None and g is not None:
                t._grad = g.detach() if t._grad is None else t._grad + g
    if node._pre_hooks:
        for hid, hook in list(node._pre_hooks.items()):
            new = _fire("node_pre", hid, hook, tuple(grads))
            if new is not None:
                grads = list(new)
    captures = task.captures.get(node)
    if captures is not None:
        for input_nr, slot in captures:
            task.results[slot] = grads[input_nr]
        if task.needed is not None and node not in task.needed:
            return [None] * len(node.next_functions)
        if is_acc:
            return []
    grads_out = node.apply(grads)
    if node._post_hooks:
        for hid, hook in list(node._post_hooks.items()):
            new = _fire("node_post", hid, hook, tuple(grads_out), tuple(grads))
            if new is not None:
                grads_out = list(new)
    if ANOMALY.anomaly and ANOMALY.anomaly_nan:
        for i, g in enumerate(grads_out):
            if g is not None and _dtype.kind(g._d.dtype) == "f" and np.isnan(g._d).any():
                raise RuntimeError(
                    f"Function '{node.name()}' returned nan values in its {i}th output."
                )
    return grads_out


def accumulate_into(var: Tensor, grad: Tensor) -> None:
    """AccumulateGrad: add `grad` into `var.grad` (a fresh tensor first, then in place)."""
    from engine._tensor import make, write

    if STATE.enabled:  # create_graph: keep the graph of the gradient
        if var._grad is None:
            from engine.ops.views import copy_

            # PyTorch stores `empty_like(var).copy_(grad)`, so x.grad shows CopyBackwards
            var._grad = copy_(make(np.empty_like(var._d), False, None, 0), grad)
        else:
            var._grad = var._grad + grad
    elif var._grad is None:
        data = grad._d
        if data.dtype != var._d.dtype:
            data = data.astype(var._d.dtype)
        elif not (data.flags.owndata and data.flags.writeable and data.flags.c_contiguous) or (
            grad._ver is not None and _shared(grad)
        ):
            data = data.copy()
        var._grad = make(data, False, None, 0)
    else:
        g = var._grad
        if not g._d.flags.writeable:
            var._grad = make(g._d + grad._d, False, None, 0)
        else:  # PyTorch's `variable_grad += new_grad`, even when .grad requires grad
            # (told below as grad_accumulated)
            write(g, lambda d: np.add(d, grad._d, out=d, casting="unsafe"), reported=True)
    tracer = observer.tracer()
    if tracer is not None:  # before the post-accumulate hooks, which may change .grad in place
        tracer.grad_accumulated(var, grad)
    if var._post_acc:
        for hid, hook in list(var._post_acc.items()):
            _fire("post_accumulate", hid, hook, var)


def _shared(grad: Tensor) -> bool:
    # A gradient array may be handed to several leaves (AddBackward passes one through to
    # both inputs); storing it without a copy would let `a.grad += ...` change `b.grad`.
    return sys.getrefcount(grad._d) > 3


def drive(steps: Iterator[Step]) -> None:
    """Run a walk to its end, handing each step to the tracer if one is installed."""
    tracer = observer.tracer()
    if tracer is None:
        for _ in steps:
            pass
    else:
        tracer.drive(steps)


def warn_once(message: str) -> None:
    warn(message, UserWarning)


UPPER.accumulate_into = accumulate_into
