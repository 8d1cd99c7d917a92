"""The tracer slot: the engine's private work (`untraced`) is hidden per thread, as grad mode is
per thread, so one thread's private work neither hides another thread's ops nor uninstalls the
tracer when the two overlap."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import engine as torch
from engine.autograd import observer


class _Names:
    """An observer that notes the name of each node it is told of (and nothing else)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def node_made(self, node: Any, outputs: Any, inputs: Any) -> None:
        self.names.append(node.name())

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


def _in_thread(fn: Callable[[], None]) -> threading.Thread:
    t = threading.Thread(target=fn)
    t.start()
    return t


def test_private_work_hides_only_its_own_thread() -> None:
    seen = _Names()
    inside, done = threading.Event(), threading.Event()

    def private() -> None:
        with observer.untraced():
            torch.ones(2, requires_grad=True).sin()
            inside.set()
            done.wait(10)

    observer.install(seen)  # type: ignore[arg-type]
    try:
        t = _in_thread(private)
        assert inside.wait(10)
        torch.ones(2, requires_grad=True).exp()  # the user's op, while the other is private
        done.set()
        t.join(10)
    finally:
        observer.install(None)
    assert seen.names == ["ExpBackward0"]


def test_overlapping_private_work_leaves_the_tracer_installed() -> None:
    seen = _Names()
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:  # enters first, leaves first
        with observer.untraced():
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def second() -> None:  # enters while the first is private, leaves after it
        a_in.wait(10)
        with observer.untraced():
            b_in.set()
            a_out.wait(10)

    observer.install(seen)  # type: ignore[arg-type]
    try:
        for t in [_in_thread(first), _in_thread(second)]:
            t.join(10)
        assert observer.tracer() is seen
        torch.ones(2, requires_grad=True).cos()
    finally:
        observer.install(None)
    assert seen.names == ["CosBackward0"]
