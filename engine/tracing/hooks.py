"""Hooks: the user's tensor, node, module and saved-tensor hooks registered, removed and fired
(a module's backward-hook plumbing is never told)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.autograd.graph import Node, SavedTensor
from engine.tracing import captures as cap
from engine.tracing import values
from protocol import HookKind

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns


def _backward_hook_class() -> type:
    """The class whose bound methods carry a module's full backward hooks (internal node
    hooks: the user's module hooks are reported as they fire, these never)."""
    from engine.nn.modules.hooks import BackwardHook

    return BackwardHook


def hook_registered(self: Tracer, hook_id: int, kind: HookKind, target: Any, fn: Any) -> None:
    if isinstance(getattr(fn, "__self__", None), _backward_hook_class()):
        self.internal_hooks.add(hook_id)  # the plumbing of a module's backward hooks
        return
    path = self.module_paths.get(id(target))
    mpath = path[1] if path is not None and path[0] is target else None
    line, frame = self._site()
    self._add(cap.HookRegistered(_ns(), line, frame, hook_id, kind, target, fn, mpath))


def hook_removed(self: Tracer, hook_id: int) -> None:
    if hook_id in self.internal_hooks:
        return
    line, frame = self._site()
    self._add(cap.HookRemoved(_ns(), line, frame, hook_id))


def hook_before(self: Tracer, kind: str, args: tuple[Any, ...]) -> Any:
    """Called before a hook runs. A post-accumulate hook may change or clear `.grad` (the
    fused optimizer step), so the `.grad` it is given is kept now: (tensor, version, wire
    value)."""
    if kind != "post_accumulate" or args[0]._grad is None:
        return None
    g = args[0]._grad
    return (g, g._ver[0], values.value(g._d, self.inline))


def hook_fired(
    self: Tracer, kind: HookKind, hook_id: int, args: tuple[Any, ...], out: Any, before: Any = None
) -> None:
    if hook_id in self.internal_hooks:
        return
    bw = self.backward
    mpath = None
    if kind.startswith("module_"):
        path = self.module_paths.get(id(args[0]))
        mpath = path[1] if path is not None and path[0] is args[0] else None
    changed = False
    if kind == "post_accumulate":
        g = args[0]._grad
        if g is not None:
            self.unbuilt.add(id(g._ver))
        kept = before[0] if before is not None else None
        changed = g is not kept or (g is not None and g._ver[0] != before[1])
    forward = kind in ("module_forward_pre", "module_forward")
    backward = None if forward else bw.bid
    node = None if forward else bw.current
    self._add(
        cap.HookFired(_ns(), None, None, kind, hook_id, args, out, backward, node, before, mpath)
    )
    if changed:
        self.grad_reset(args[0], "hook", hook_id)


def saved_packed(self: Tracer, saved: SavedTensor, tensor: Tensor) -> None:
    """A saved-tensor pack hook ran: the tensor it was given, for the node's event."""
    self.tensors.of(tensor)
    self.packed[id(saved)] = (saved, tensor)


def saved_unpack(self: Tracer, saved: SavedTensor, node: Node | None) -> None:
    # the saved tensor's name, read now: the node's buffers may be freed before a flush
    from engine.tracing.build import saved_store

    store = saved_store(node) if node is not None else {}
    name = next((k for k, v in store.items() if v is saved), None)
    self._add(cap.Unpacked(_ns(), None, None, saved, node, name))
