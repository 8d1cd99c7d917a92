"""One backward pass's bookkeeping: what backscope keeps of a pass as PyTorch's engine runs it,
including the dependency counts and ready queue, which the engine does not expose."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from protocol import TensorValue

if TYPE_CHECKING:
    from backscope.capture.recorder import Event, Recorder


@dataclass
class Pass:
    """One backward pass's bookkeeping."""

    bid: int
    keep_graph: bool
    create_graph: bool
    deps: dict[int, int] = field(default_factory=dict)
    ready: set[int] = field(default_factory=set)
    entered: set[int] = field(default_factory=set)
    slot_grads: dict[int, dict[int, TensorValue | None]] = field(default_factory=dict)
    held_for: int | None = None  # a node whose tensor hooks ran before its entry
    held: list[tuple[Event, Any]] = field(default_factory=list)
    current: int | None = None
    enter_grads: dict[int, Any] = field(default_factory=dict)
    exit: list[Any] | None = None  # [node id, grads]: reported once its post-hooks are done
    accumulated: set[int] = field(default_factory=set)
    nodes_run: int = 0


def count_dependencies(rec: Recorder, root: Any, p: Pass) -> None:
    """Dependency counts over the graph below `root`, as PyTorch's engine computes them."""
    if root is None:
        return
    rid = rec.node_id(root)
    if rid is None or rid in p.deps:
        return
    p.deps.setdefault(rid, 0)
    stack = [root]
    seen = {rid}
    while stack:
        n = stack.pop()
        for m, _ in n.next_functions:
            if m is None:
                continue
            mid = rec.node_id(m)
            assert mid is not None
            p.deps[mid] = p.deps.get(mid, 0) + 1
            if mid not in seen:
                seen.add(mid)
                stack.append(m)
