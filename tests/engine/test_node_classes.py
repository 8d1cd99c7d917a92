"""A node is made as the class its op declares and keeps it: an observer told of a node (the
tracer, at `node_made`) already sees PyTorch's class, and nothing renames it afterwards. The
cases are the ops whose node PyTorch names differently from the engine op that computes it:
double backwards, fused nn nodes, in-place views, complex twins."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine as torch
from engine.autograd import observer
from engine.autograd.node import Node
from engine.ops._core import OpNode, op_nodes


class _Seen:
    """An observer that notes each node's class when it is made (and does nothing else)."""

    def __init__(self) -> None:
        self.nodes: list[tuple[Node, type[Node]]] = []

    def node_made(self, node: Node, outputs: Any, inputs: Any) -> None:
        self.nodes.append((node, type(node)))

    def drive(self, steps: Iterator[Any]) -> None:
        for _ in steps:
            pass

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


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


CASES = [_gelu, _pool, _pdist, _lstm, _lstm_cell, _inplace_views, _complex]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__[1:] for c in CASES])
def test_node_keeps_the_class_it_was_made_as(case: Callable[[], None]) -> None:
    seen = _Seen()
    observer.install(seen)  # type: ignore[arg-type]
    try:
        case()
    finally:
        observer.install(None)
    assert seen.nodes
    for node, made_as in seen.nodes:
        assert type(node) is made_as, f"{made_as.__name__} became {type(node).__name__}"
        assert made_as.__name__ == node.name().rsplit("::", 1)[-1]


def test_listed_nodes_are_named_by_their_class() -> None:
    for name, cls in op_nodes().items():
        assert issubclass(cls, OpNode) and cls.__name__ == name.rsplit("::", 1)[-1]
