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
    """Call `fn` once the gradients of all `tensors` are computed ('all': with the list of them)
    or once with the first one ('any').

    The engine has no per-backward bookkeeping of which tensors a pass will reach, so 'all' waits
    for every tensor that requires grad to receive a gradient in the pass.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    ts = list(tensors)
    live = [i for i, t in enumerate(ts) if t._rg]
    grads: list[Any] = [None] * len(ts)
    seen: set[int] = set()

    def make_hook(i: int) -> Callable[[Any], None]:
        def hook(g: Any) -> None:
            first = not seen
            seen.add(i)
            grads[i] = g
            if mode == "any" and first:
                fn(g)
            if len(seen) == len(live):
                if mode == "all":
                    fn(list(grads))
                seen.clear()
                grads[:] = [None] * len(ts)

        return hook

    return _MultiHandle([ts[i].register_hook(make_hook(i)) for i in live])  # type: ignore[attr-defined]
