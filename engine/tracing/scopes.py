"""Module scopes: the stack of `nn.Module` calls running now, its dotted path (`encoder.layers.0`)
and call numbers, kept for the hot path, and parameters named as their module runs."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.tracing import captures as cap
from protocol import scopes

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns


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


def module_exit(self: Tracer, module: Any, output: Any) -> None:
    """Called by nn.Module.__call__ after forward with what it returned (None when it raised)."""
    path = self.mpath
    call = scopes.leave(self.mstack, module)
    self._scope_changed()
    shape = scopes.output_shape(output, Tensor)
    self._add(cap.ModuleExited(_ns(), None, None, path, call, shape))


def scope_changed(self: Tracer) -> None:
    self.mpath, self.mcalls = scopes.path_and_calls(self.mstack)


def child_name(self: Tracer, module: Any) -> str:
    """`module`'s name under the module running it (protocol/scopes.py)."""
    return scopes.child_name(self.mstack, module)
