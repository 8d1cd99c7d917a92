"""copy.deepcopy of tensors: a copy is a new leaf with the user's attributes, and nothing of
the engine's own state (expected values worked out by hand from PyTorch's semantics)."""

from __future__ import annotations

import copy

import engine


def test_backward_through_a_deepcopy_fills_the_copys_grad_only() -> None:
    x = engine.ones(2, requires_grad=True)
    (x * 2).sum().backward()  # gives x its AccumulateGrad
    y = copy.deepcopy(x)
    (y * 3).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]  # untouched
    assert y.grad.tolist() == [5.0, 5.0]  # its copied grad, then + 3
    assert y.grad is not x.grad


def test_deepcopy_keeps_user_attributes_but_not_hooks() -> None:
    x = engine.ones(2, requires_grad=True)
    x.tag = ["a"]
    seen = []
    x.register_hook(lambda g: seen.append(1))
    y = copy.deepcopy(x)
    assert y.tag == ["a"] and y.tag is not x.tag
    y.sum().backward()
    assert seen == [] and y.grad.tolist() == [1.0, 1.0]
