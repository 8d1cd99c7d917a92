"""Module scopes: the stack of `nn.Module` calls running now, its dotted path (`encoder.layers.0`)
and call numbers, kept for the hot path, and parameters named as their module runs."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.tracing import captures as cap

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns

CHILD_SEARCH = 10_000  # modules searched for a child's name before falling back to its class


def module_enter(self: Tracer, module: Any, name: str | None = None) -> None:
    """Called by nn.Module.__call__ before forward."""
    if not self.mstack:
        self.index_parameters(module, called=True)
    if name is None:
        name = self._child_name(module)
    call = self.ncalls
    self.ncalls = call + 1
    self.mstack.append((module, name, call))
    self._scope_changed()
    path = self.mpath
    assert path is not None
    self.module_paths[id(module)] = (module, path)
    params = getattr(module, "_parameters", None)
    if params:
        # named as `named_parameters()` of the outermost module running names them
        prefix = "".join(f"{n}." for _, n, _ in self.mstack[1:])
        for k, p in params.items():
            if isinstance(p, Tensor):
                self.pnames.setdefault(id(p), (p, f"{prefix}{k}"))
    line, frame = self._site()
    self._add(cap.ModuleEntered(_ns(), line, frame, path, type(module).__name__, call))


def module_exit(self: Tracer, module: Any) -> None:
    """Called by nn.Module.__call__ after forward (also when it raised)."""
    path = self.mpath
    call = None
    while self.mstack:
        m, _, call = self.mstack.pop()
        if m is module:
            break
    self._scope_changed()
    self._add(cap.ModuleExited(_ns(), None, None, path, call))


def scope_changed(self: Tracer) -> None:
    self.mpath = ".".join(n for _, n, _ in self.mstack) or None
    self.mcalls = tuple(c for _, _, c in self.mstack) or None


def child_name(self: Tracer, module: Any) -> str:
    """`module`'s name under the module running it, as `named_modules()` names it: through
    containers that are never called themselves (`layers.0` of a ModuleList)."""
    if self.mstack:
        todo: list[tuple[str, Any]] = [("", self.mstack[-1][0])]
        seen = 0
        while todo and seen < CHILD_SEARCH:  # breadth first: the shortest path wins
            prefix, parent = todo.pop(0)
            for k, m in (getattr(parent, "_modules", None) or {}).items():
                if m is module:
                    return f"{prefix}{k}"
                if m is not None:
                    todo.append((f"{prefix}{k}.", m))
            seen += 1
    return type(module).__name__
