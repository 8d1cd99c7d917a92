"""`torch.autograd.graph.GradientEdge`, `get_gradient_edge` and `register_multi_grad_hook`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from engine._tensor import Tensor


class GradientEdge(NamedTuple):
    """The (node, output_nr) pair a tensor's gradient flows into."""

    node: Any
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge for `tensor`: its grad_fn (or its AccumulateGrad for a leaf) and output index."""
    if not tensor._rg:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    if tensor._fn is not None:
        return GradientEdge(tensor._fn, tensor._nr)
    return GradientEdge(tensor._grad_accumulator(), 0)


class _MultiHandle:
    """Removes the per-tensor hooks of one `register_multi_grad_hook` call."""

    def __init__(self, handles: list[Any]) -> None:
        self.handles = tuple(handles)

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def register_multi_grad_hook(
    tensors: Sequence[Tensor], fn: Callable[..., Any], *, mode: str = "all"
) -> _MultiHandle:
    """Call `fn` once per backward pass: in mode 'all' with the gradients of all `tensors`
    (None for those the pass does not reach), in mode 'any' with the first gradient computed.

    >>> torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: print(grads))
    """
    from engine.autograd.engine import current_graph_task_id, will_engine_execute_node

    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    ts = list(tensors)
    if mode == "any":
        ran: set[int] = set()

        def any_hook(g: Any) -> None:
            task = current_graph_task_id()
            if task not in ran:
                ran.add(task)
                fn(g)

        return _MultiHandle([t.register_hook(any_hook) for t in ts if t._rg])

    # as PyTorch: a count and a buffer per backward pass; the first hook of a pass asks which of
    # the tensors' nodes that pass will run, the last one to arrive calls `fn`
    nodes = [(t._fn if t._fn is not None else t._grad_accumulator()) if t._rg else None for t in ts]
    counts: dict[int, int] = {}
    expected: dict[int, int] = {}
    buffers: dict[int, list[Any]] = {}

    def make_hook(i: int) -> Callable[[Any], None]:
        def hook(g: Any) -> None:
            task = current_graph_task_id()
            if task == -1:
                raise AssertionError("expected this hook to be called inside a backward call")
            seen = counts.get(task, 0)
            if seen == 0:
                expected[task] = sum(
                    1 for n in nodes if n is not None and will_engine_execute_node(n)
                )
                buffers[task] = [None] * len(ts)
            counts[task] = seen + 1
            buffers[task][i] = g
            if seen + 1 == expected[task]:
                grads = buffers.pop(task)
                del counts[task], expected[task]
                fn(grads)

        return hook

    return _MultiHandle([t.register_hook(make_hook(i)) for i, t in enumerate(ts)])
