"""A node is made whole: an observer told of a node (the tracer, at `node_made`) already sees
PyTorch's class and every saved value, and nothing renames the node or adds to it afterwards.
The cases are the ops whose node PyTorch names differently from the engine op that computes it
(double backwards, fused nn nodes, in-place views, complex twins) and ops that save their own
outputs or keep private values for their backward."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine as torch
from engine.autograd import observer
from engine.autograd.node import Node
from engine.ops._core import OpNode, op_nodes


class _Seen:
    """An observer that notes each node's class, saved names and instance values when it is
    made (and does nothing else)."""

    def __init__(self) -> None:
        self.nodes: list[tuple[Node, type[Node], set[str], set[str]]] = []

    def node_made(self, node: Node, outputs: Any, inputs: Any) -> None:
        self.nodes.append((node, type(node), set(node._saved or ()), _own(node)))

    def drive(self, steps: Iterator[Any]) -> None:
        for _ in steps:
            pass

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


def _own(node: Node) -> set[str]:
    """The node's instance values, less what backward itself sets (freeing saved values)."""
    return set(node.__dict__) - {"_freed"}


def _double(f: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> None:
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    g.sum().backward()


def _gelu() -> None:
    _double(torch.nn.functional.gelu, torch.randn(4, requires_grad=True))


def _pool() -> None:
    # squared, so the pooling's backward receives a gradient that requires grad
    x = torch.randn(1, 1, 4, 4, requires_grad=True)
    _double(lambda x: torch.nn.functional.max_pool2d(x, 2) ** 2, x)


def _pdist() -> None:
    x = torch.randn(3, 2, requires_grad=True)
    torch.autograd.grad(torch.pdist(x).sum(), x, create_graph=True)


def _lstm() -> None:
    out, _ = torch.nn.LSTM(3, 4)(torch.randn(5, 2, 3))
    out.sum().backward()


def _lstm_cell() -> None:
    h, _ = torch.nn.LSTMCell(3, 4)(torch.randn(2, 3))
    h.sum().backward()


def _inplace_views() -> None:
    x = torch.randn(2, 1, 3, requires_grad=True)
    y = x * 1
    y.squeeze_(1).t_().unsqueeze_(0).transpose_(0, 1).squeeze_()
    y.sum().backward()


def _complex() -> None:
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    (z * z).abs().sum().backward()


def _saved_outputs() -> None:
    a = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
    spd = a @ a.mT + torch.eye(3, dtype=torch.float64)
    outs = [
        *torch.linalg.svd(a),
        *torch.linalg.eigh(spd),
        *torch.linalg.qr(a),
        torch.linalg.cholesky(spd),
        *torch.aminmax(a, dim=0),
        *torch.std_mean(a, dim=0),
        torch.linalg.lstsq(a, a).solution,
        torch.linalg.eig(a).eigenvalues.abs(),
    ]
    sum(o.sum() for o in outs).backward()


def _as_strided() -> None:
    x = torch.randn(6, requires_grad=True)
    x.as_strided((2, 2), (1, 2), 1).sum().backward()


CASES = [
    _gelu,
    _pool,
    _pdist,
    _lstm,
    _lstm_cell,
    _inplace_views,
    _complex,
    _saved_outputs,
    _as_strided,
]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__[1:] for c in CASES])
def test_node_keeps_the_class_it_was_made_as(case: Callable[[], None]) -> None:
    seen = _Seen()
    observer.install(seen)  # type: ignore[arg-type]
    try:
        case()
    finally:
        observer.install(None)
    assert seen.nodes
    for node, made_as, saved, own in seen.nodes:
        assert type(node) is made_as, f"{made_as.__name__} became {type(node).__name__}"
        assert made_as.__name__ == node.name().rsplit("::", 1)[-1]
        assert set(node._saved or ()) == saved, f"{node.name()} saved more after it was made"
        assert _own(node) == own, f"{node.name()} was given values after it was made"


def test_listed_nodes_are_named_by_their_class() -> None:
    for name, cls in op_nodes().items():
        assert issubclass(cls, OpNode) and cls.__name__ == name.rsplit("::", 1)[-1]
