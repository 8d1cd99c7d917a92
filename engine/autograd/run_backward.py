"""The calls that run a backward pass: `backward()` and `autograd.grad()`, their arguments
checked as PyTorch checks them (roots, gradients, inputs), then one walk of the graph
(engine/autograd/engine.py `walk`) driven to its end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype
from engine._upper import UPPER
from engine._warn import warn
from engine.autograd.engine import WARNED, GraphTask, _needed, accumulate_into, drive, walk
from engine.autograd.graph_edges import GradientEdge
from engine.autograd.node import Edge, Grads, Node

if TYPE_CHECKING:
    from engine._tensor import Tensor

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using autograd.grad "
    "when creating the graph to avoid this. If you have to use this function, make sure to "
    "reset the .grad fields of your parameters to None after use to break the cycle and avoid "
    "the leak. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)


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
) -> tuple[Tensor | None, ...] | dict[Any, Tensor | None]:
    """Gradients of `outputs` with respect to `inputs`, returned rather than accumulated."""
    from engine._tensor import make

    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    ins = _grad_inputs(inputs)
    if not only_inputs:
        warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To "
            "accumulate gradient for other parts of the graph, please use "
            "torch.autograd.backward.",
            FutureWarning,
        )
    outs, go = _roots(outputs, grad_outputs)
    if is_grads_batched:
        batched = _batched_grad(
            outs, ins, go, retain_graph, create_graph, allow_unused, materialize_grads
        )
        return dict(zip(inputs, batched, strict=True)) if type(inputs) is dict else batched
    grads = _root_grads(outs, go)
    _check_inputs(ins)
    task = _run(outs, grads, ins, retain_graph, create_graph)
    result: list[Tensor | None] = []
    for i, (t, g) in enumerate(zip(ins, task.results)):
        if g is None:
            if materialize_grads and isinstance(t, GradientEdge):
                raise RuntimeError(
                    "materialize_grads cannot be used when the given input is a GradientEdge"
                )
            if materialize_grads:
                g = make(np.zeros_like(t._d), create_graph, None, 0)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph and (g._fn is not None or g._rg):
            g = g.detach()
        result.append(g)
    if type(inputs) is dict:  # PyTorch 2.13: a dict of inputs gets a dict of their grads
        return dict(zip(inputs, result, strict=True))
    return tuple(result)


def _grad_inputs(inputs: Any) -> list[Any]:
    """`grad()`'s inputs as a list: one tensor or edge, a dict's values, or a sequence."""
    from collections.abc import Mapping

    if type(inputs) is dict:
        ins = list(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(
            f"`inputs` argument to `grad()` must be a dict, not {type(inputs).__name__}. "
            "Other Mapping types are not supported."
        )
    else:
        ins = _as_list(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    return ins


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


UPPER.backward = backward
