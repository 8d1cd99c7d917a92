"""Named double-backward nodes: a gradient composed of engine ops, shown as PyTorch's one node.

A fused backward works on ndarrays; when its gradient must itself be differentiable
(create_graph), the same function rebuilt from engine ops gives PyTorch's second derivatives.
PyTorch shows that gradient as one node (`NativeLayerNormBackwardBackward0`,
`MseLossBackwardBackward0`), so the composition is kept private behind a node of that name.
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.autograd import observer
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode
from engine.ops.op_node import variant
from engine.ops.record import record_multi


def regrad(
    node: OpNode,
    g: Tensor,
    inputs: list[Tensor | None],
    forward: Any,
    name: str = "",
    edges: tuple[int, ...] = (),
    saved: dict[str, Any] | None = None,
) -> Grads:
    """Gradients of `forward(*inputs)` (engine ops) against `g`, recorded for create_graph.

    The fused backward above works on ndarrays; when the gradient itself must be
    differentiable, the same function rebuilt from engine ops gives PyTorch's second
    derivatives. With `name` (PyTorch's `GridSampler2DBackwardBackward0`) the gradients are one
    node of that name over (grad, *inputs), as PyTorch's graph shows, not the composition;
    `edges` lays out its next_functions as PyTorch's node does, by index into (grad, *inputs),
    -1 for an input PyTorch's has and the engine does not (a saved mean); `saved` are its
    PyTorch-named saved values.
    """
    from engine.autograd.run_backward import grad

    live = [i for i, t in enumerate(inputs) if t is not None and t._rg and node.needs(i)]
    args, ga = inputs, g
    # with a name the composition is private to the named node (not drawn), over aliases of
    # grad and the inputs so that its own backward sees them as independent variables
    with observer.untraced(bool(name)):
        if name:
            args, ga = [None if t is None else t.view_as(t) for t in inputs], g.view_as(g)
        y = forward(*args)
        got = grad(y, [args[i] for i in live], ga, create_graph=True, allow_unused=True)
    out: Grads = [None] * len(inputs)
    done = [(i, r) for i, r in zip(live, got) if r is not None]
    if name and done:
        composed = [r for _, r in done]
        order = edges or tuple(range(len(inputs) + 1))
        real, alias = (g, *inputs), (ga, *args)
        wired = tuple(real[k] if k >= 0 else None for k in order)
        aliases = tuple(alias[k] if k >= 0 else None for k in order)
        results = _named(name, composed, wired, aliases, saved)
        return _placed(len(inputs), [i for i, _ in done], results)
    for i, r in done:
        out[i] = r
    return out


def named_grad(
    name: str, forward: Any, sources: tuple[Tensor, ...], saved: dict[str, Any] | None = None
) -> Tensor:
    """`forward(*sources)`, a gradient written with engine ops, recorded as one node named as
    PyTorch's (`MseLossBackwardBackward0`) over `sources`, the composition kept private."""
    with observer.untraced():
        aliases = tuple(t.view_as(t) for t in sources)
        composed = forward(*aliases)
    return _named(name, [composed], sources, aliases, saved)[0]


def named_grads(
    name: str, forward: Any, sources: tuple[Tensor, ...], saved: dict[str, Any] | None = None
) -> Grads:
    """`forward(*sources)`, several gradients written with engine ops (None where one is not
    wanted), recorded as outputs of one node named as PyTorch's (`ConvolutionBackwardBackward0`)
    over `sources`, the composition kept private."""
    with observer.untraced():
        aliases = tuple(t.view_as(t) for t in sources)
        composed: Grads = forward(*aliases)
    done = [(i, r) for i, r in enumerate(composed) if r is not None]
    if not done:
        return composed
    results = _named(name, [r for _, r in done], sources, aliases, saved)
    return _placed(len(composed), [i for i, _ in done], results)


def _named(
    name: str,
    composed: list[Tensor],
    sources: tuple[Tensor | None, ...],
    aliases: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None,
) -> list[Tensor]:
    """The composed gradients' values as outputs of one `name` node over `sources`; its
    backward differentiates the composition against the aliases it was built on."""
    cls = variant(ComposedBackwardBackward, name)
    keep = {"composed": composed, "sources": aliases}
    return record_multi(cls, [r._d for r in composed], sources, saved, keep=keep)


def _placed(n: int, where: list[int], values: tuple[Tensor | None, ...] | list[Tensor]) -> Grads:
    out: Grads = [None] * n
    for i, v in zip(where, values):
        out[i] = v
    return out


class ComposedBackwardBackward(OpNode):
    """The named gradient `regrad` records: its backward differentiates the composed gradient
    it keeps (retained, so it can run again), against grad and the inputs."""

    __slots__ = ()
    _name = "ComposedBackwardBackward0"
    _listed = False

    def apply(self, grads: Grads) -> Grads:
        from engine.autograd.run_backward import grad

        composed: list[Tensor] = self.__dict__["composed"]
        sources: tuple[Tensor | None, ...] = self.__dict__["sources"]
        pairs = [(r, gg) for r, gg in zip(composed, grads) if gg is not None and r._rg]
        want = [i for i, t in enumerate(sources) if t is not None and t._rg and self.needs(i)]
        if not pairs or not want:
            return [None] * len(sources)
        # the composition is private: its backward is not a pass of the user's (a traced run
        # shows PyTorch's one node), unless that backward builds a graph the user keeps
        create = STATE.enabled
        with observer.untraced(not create):
            got = grad(
                [r for r, _ in pairs],
                [sources[i] for i in want],
                [gg for _, gg in pairs],
                retain_graph=True,
                create_graph=create,
                allow_unused=True,
            )
        assert isinstance(got, tuple)
        return _placed(len(sources), want, got)
