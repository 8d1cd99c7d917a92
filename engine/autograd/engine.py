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
from engine.autograd.graph_edges import GradientEdge
from engine.autograd.node import AccumulateGrad, Edge, Grads, GraphRoot, Node

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from protocol.vocab import HookKind

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad "
    "when creating the graph to avoid this. If you have to use this function, make sure to "
    "reset the .grad fields of your parameters to None after use to break the cycle and avoid "
    "the leak. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)
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
    tracer = observer.TRACER
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
    tracer = observer.TRACER
    if tracer is not None:  # before the post-accumulate hooks, which may change .grad in place
        tracer.grad_accumulated(var, grad)
    if var._post_acc:
        for hid, hook in list(var._post_acc.items()):
            _fire("post_accumulate", hid, hook, var)


def _shared(grad: Tensor) -> bool:
    # A gradient array may be handed to several leaves (AddBackward passes one through to
    # both inputs); storing it without a copy would let `a.grad += ...` change `b.grad`.
    return sys.getrefcount(grad._d) > 3


def _make_grads(
    outputs: Sequence[Tensor], grads: Sequence[Any], is_grads_batched: bool = False
) -> Grads:
    from engine._tensor import Tensor, make

    out: Grads = []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if isinstance(t, GradientEdge):  # a root given as an edge: its gradient must be given
            if g is None:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            out.append(g)
            continue
        if g is None:
            if t._rg:
                if t._d.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if _dtype.kind(t._d.dtype) != "f":
                    raise RuntimeError(
                        "grad can be implicitly created only for real scalar outputs but got "
                        f"{t.dtype}"
                    )
                out.append(make(np.ones_like(t._d), False, None, 0))
            else:
                out.append(None)
        else:
            if not isinstance(g, Tensor):
                from engine._creation import tensor as _tensor

                g = _tensor(g, dtype=t.dtype)
            if g.shape != t.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                    f"has a shape of {t.shape}."
                )
            if g._d.dtype != t._d.dtype:
                # PyTorch only refuses complex/real mismatches; other grads are cast
                if (_dtype.kind(g._d.dtype) == "c") != (_dtype.kind(t._d.dtype) == "c"):
                    raise RuntimeError(
                        "For complex Tensors, both grad_output and output are required to have "
                        f"the same dtype. Mismatch in dtype: grad_output[{i}] has a dtype of "
                        f"{g.dtype} and output[{i}] has a dtype of {t.dtype}."
                    )
                g = g.to(t.dtype) if g._rg else make(g._d.astype(t._d.dtype), False, None, 0)
            out.append(g)
    return out


def _as_list(x: Any) -> list[Any]:
    from engine._tensor import Tensor

    if x is None:
        return []
    if isinstance(x, Tensor | GradientEdge):
        return [x]
    return list(x)


def _edge_of(t: Tensor) -> Edge:
    if t._fn is not None:
        return (t._fn, t._nr)
    return (t._grad_accumulator(), 0)


def drive(steps: Iterator[Step]) -> None:
    """Run a walk to its end, handing each step to the tracer if one is installed."""
    tracer = observer.TRACER
    if tracer is None:
        for _ in steps:
            pass
    else:
        tracer.drive(steps)


def _point(x: Any) -> Edge:
    """Where a gradient is read or started: a tensor's edge, or a `GradientEdge` as given."""
    if isinstance(x, GradientEdge):
        return (x.node, x.output_nr)
    return _edge_of(x)


def _check_roots(tensors: list[Any]) -> None:
    for i, t in enumerate(tensors):
        if isinstance(t, GradientEdge):
            continue
        if not t._rg:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """Accumulate gradients of `tensors` into the leaves' `.grad` (PyTorch's semantics)."""
    if grad_tensors is None and grad_variables is not None:
        grad_tensors = grad_variables
    outs, gl = _roots(tensors, grad_tensors)
    ins = _as_list(inputs)
    if inputs is not None and not ins:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _root_grads(outs, gl)
    if create_graph and "create_graph" not in WARNED:
        WARNED.add("create_graph")  # TORCH_WARN_ONCE: once per process
        warn(CREATE_GRAPH_WARNING, UserWarning)
    _check_inputs(ins)
    targets: dict[int, Tensor] = {}
    for slot, t in enumerate(ins):
        if isinstance(t, GradientEdge):  # a leaf's edge accumulates into that leaf
            t = getattr(t.node, "variable", None)
            if t is None:
                continue
        targets[slot] = t
    task = _run(outs, grads, ins, retain_graph, create_graph)
    for slot, t in targets.items():
        g = task.results[slot]
        if g is None:
            continue
        if t._fn is None:
            accumulate_into(t, g)
        else:
            t._grad = g.detach() if t._grad is None else t._grad + g


def _roots(tensors: Any, grad_tensors: Any) -> tuple[list[Any], list[Any]]:
    """The roots of a backward() or grad() call and their given gradients (None: implicit)."""
    outs = _as_list(tensors)
    gl = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(outs)
    if len(gl) < len(outs):  # extra gradients are ignored, as PyTorch zips them
        raise RuntimeError(f"got {len(outs)} tensors and {len(gl)} gradients")
    return outs, gl


def _root_grads(outs: list[Any], gl: list[Any]) -> Grads:
    """The gradients backward() and grad() start from, the roots checked: each root requires
    grad, each gradient is given or implicitly ones for a scalar, of the root's shape."""
    _check_roots(outs)
    return _make_grads(outs, gl)


def _check_inputs(ins: list[Any]) -> None:
    for t in ins:
        if not isinstance(t, GradientEdge) and not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")


def _run(
    outs: list[Any], grads: Grads, ins: list[Any], retain_graph: bool | None, create_graph: bool
) -> GraphTask:
    """One backward pass from `outs` with their gradients, as backward() and grad() both run
    it once their arguments are checked: with `ins`, the gradients reaching their edges are
    captured (task.results, by position) and only what leads to them is walked."""
    if retain_graph is None:
        retain_graph = create_graph
    task = GraphTask(bool(retain_graph), bool(create_graph))
    if ins:
        task.results = [None] * len(ins)
        for slot, t in enumerate(ins):
            node, nr = _point(t)
            task.captures.setdefault(node, []).append((nr, slot))  # type: ignore[arg-type]
        task.needed = _needed_from(outs, task)
    drive(walk(task, [_point(t) for t in outs], grads))
    return task


def _needed_from(outs: list[Tensor], task: GraphTask) -> set[Node]:
    targets = set(task.captures)
    needed: set[Node] = set()
    for t in outs:
        needed |= _needed(_point(t)[0], targets)  # type: ignore[arg-type]
    return needed


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """Gradients of `outputs` with respect to `inputs`, returned rather than accumulated."""
    from engine._tensor import Tensor, make

    single = isinstance(inputs, Tensor)
    ins = _as_list(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    outs, go = _roots(outputs, grad_outputs)
    if is_grads_batched:
        return _batched_grad(
            outs, ins, go, retain_graph, create_graph, allow_unused, materialize_grads
        )
    grads = _root_grads(outs, go)
    _check_inputs(ins)
    task = _run(outs, grads, ins, retain_graph, create_graph)
    result: list[Tensor | None] = []
    for i, (t, g) in enumerate(zip(ins, task.results)):
        if g is None:
            if materialize_grads and not isinstance(t, GradientEdge):
                g = make(np.zeros_like(t._d), False, None, 0)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph and (g._fn is not None or g._rg):
            g = g.detach()
        result.append(g)
    del single
    return tuple(result)


def _batched_grad(
    outs: list[Any],
    ins: list[Any],
    go: list[Any],
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool,
    materialize_grads: bool,
) -> tuple[Tensor | None, ...]:
    """`grad(..., is_grads_batched=True)`: the first dimension of each grad_output is a batch;
    PyTorch vmaps one backward over it, the engine runs one backward per batch entry and stacks
    the results (inputs no entry reaches stay None)."""
    from engine._tensor import Tensor, make
    from engine.ops.tensor_shape import stack

    for i, (t, g) in enumerate(zip(outs, go)):
        if isinstance(g, Tensor) and isinstance(t, Tensor) and g.shape[1:] != t.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                "as the batch dimension. The sizes of the remaining dimensions are expected to "
                "match the shape of corresponding output, but a mismatch was detected: "
                f"grad_output[{i}] has a shape of {g.shape[1:]} and output[{i}] has a shape of "
                f"{t.shape}. If you only want some tensors in `grad_output` to be considered "
                "batched, consider using vmap."
            )
    sizes = {g.shape[0] for g in go if isinstance(g, Tensor)}
    if len(sizes) != 1:
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sorted(sizes)} for the mapped dimension"
        )
    (n,) = sizes
    keep = create_graph if retain_graph is None else retain_graph
    rows = [
        grad(
            outs,
            ins,
            [g[b] if isinstance(g, Tensor) else g for g in go],
            retain_graph=True if b < n - 1 else keep,
            create_graph=create_graph,
            allow_unused=True,
        )
        for b in range(n)
    ]
    result: list[Tensor | None] = []
    for i, t in enumerate(ins):
        column = [row[i] for row in rows]
        if all(g is None for g in column):
            if materialize_grads and isinstance(t, Tensor):  # zeros like the input, unbatched
                result.append(make(np.zeros_like(t._d), False, None, 0))
                continue
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
            result.append(None)
            continue
        like = next(g for g in column if g is not None)
        filled = [
            g if g is not None else make(np.zeros_like(like._d), False, None, 0) for g in column
        ]
        result.append(stack(filled))
    return tuple(result)


def warn_once(message: str) -> None:
    warn(message, UserWarning)


UPPER.backward = backward
UPPER.accumulate_into = accumulate_into
