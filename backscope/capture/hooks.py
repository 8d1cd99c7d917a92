"""The user's hooks, wrapped at registration so their firings are recorded: tensor hooks,
post-accumulate hooks, node pre/post hooks (PyTorch registers those through
`_HookMixin._register_hook`), module hooks, saved_tensors_hooks; plus hook removal and
`zero_grad`. Hooks torch registers for itself (a module's full backward hooks are built from
node and tensor hooks) are left alone.
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch
from torch.autograd import function as autograd_function
from torch.utils import hooks as torch_hooks

from backscope.capture.forward import _TORCH_DIR
from backscope.capture.recorder import Recorder
from protocol import GradChangedHow, HookKind

if TYPE_CHECKING:
    from backscope.capture.backward import Backward

_OWN_DIR = __file__.rsplit("/", 2)[0]
_MODULE_KINDS: dict[str, HookKind] = {
    "register_forward_pre_hook": "module_forward_pre",
    "register_forward_hook": "module_forward",
    "register_full_backward_pre_hook": "module_backward_pre",
    "register_full_backward_hook": "module_backward",
    "register_backward_hook": "module_backward",
}


def _fn_name(fn: Any) -> str:
    return str(getattr(fn, "__qualname__", None) or type(fn).__name__)[:200]


def _from_torch(depth: int) -> bool:
    """Whether the registration `depth` frames up was made by torch (or backscope) itself."""
    f = sys._getframe(depth)
    while f is not None and f.f_code.co_filename == f"{_TORCH_DIR}/overrides.py":
        f = f.f_back  # type: ignore[assignment]
    if f is None:
        return False
    name = f.f_code.co_filename
    return name.startswith(_TORCH_DIR) or name.startswith(_OWN_DIR)


class Hooks:
    """Installs the registration wrappers for one recorder; `uninstall` puts torch back."""

    def __init__(self, rec: Recorder, bw: Backward) -> None:
        self.rec = rec
        self.bw = bw
        self.next_id = 0
        self.handles: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        # hook dicts of the nodes (ours registered first): id -> (dict, node id, kind)
        self.node_dicts: dict[int, tuple[Any, int, HookKind]] = {}
        self.registering: tuple[int, HookKind] | None = None
        self.undo: list[Callable[[], None]] = []

    def new_id(self) -> int:
        n = self.next_id
        self.next_id += 1
        return n

    def _patch(self, owner: Any, name: str, new: Any) -> None:
        old = owner.__dict__[name]
        setattr(owner, name, new)
        self.undo.append(lambda: setattr(owner, name, old))

    def install(self) -> None:
        self._tensor_hooks()
        self._node_hooks()
        self._module_hooks()
        self._removal()
        self._saved_hooks()
        self._zero_grad()

    def uninstall(self) -> None:
        for u in reversed(self.undo):
            u()
        self.undo = []

    def registered(
        self, hid: int, kind: HookKind, target_kind: str, target: int | None, fn: Any, **more: Any
    ) -> None:
        rec = self.rec
        line, frame = rec.site(3)
        rec.add(
            {
                "type": "hook_registered",
                "t": rec.now(),
                "hook": hid,
                "kind": kind,
                "target_kind": target_kind,
                "target": target,
                "fn": _fn_name(fn),
                "line": line,
                **more,
            },
            frame,
        )

    # -- tensors -------------------------------------------------------------------------------
    def _tensor_hooks(self) -> None:
        rec, bw, hooks = self.rec, self.bw, self
        reg = torch.Tensor.register_hook
        reg_acc = torch.Tensor.register_post_accumulate_grad_hook

        def register_hook(t: torch.Tensor, hook: Any) -> Any:
            if rec.busy or _from_torch(2):
                return reg(t, hook)
            hid = hooks.new_id()
            with rec.quiet():
                edge = torch.autograd.graph.get_gradient_edge(t) if t.requires_grad else None
                nid = rec.node_id(edge.node) if edge is not None else None
                slot = edge.output_nr if edge is not None else 0

            @functools.wraps(hook)
            def fired(grad: Any) -> Any:
                return bw.tensor_hook(hid, nid, slot, hook, grad)

            with torch._C.DisableTorchFunction():  # (else torch calls this again through the mode)
                handle = reg(t, fired)
            with rec.quiet():
                hooks.handles[handle] = hid
                hooks.registered(hid, "tensor", "tensor", rec.tensor_id(t), hook)
            return handle

        def register_post_accumulate_grad_hook(t: torch.Tensor, hook: Any) -> Any:
            if rec.busy or _from_torch(2):
                return reg_acc(t, hook)
            hid = hooks.new_id()
            with rec.quiet():
                acc = torch.autograd.graph.get_gradient_edge(t).node if t.requires_grad else None
                nid = rec.node_id(acc) if acc is not None else None

            @functools.wraps(hook)
            def fired(param: Any) -> Any:
                return bw.post_accumulate_hook(hid, nid, hook, param)

            with torch._C.DisableTorchFunction():
                handle = reg_acc(t, fired)
            with rec.quiet():
                hooks.handles[handle] = hid
                hooks.registered(hid, "post_accumulate", "tensor", rec.tensor_id(t), hook)
            return handle

        self._patch(torch.Tensor, "register_hook", register_hook)
        self._patch(
            torch.Tensor, "register_post_accumulate_grad_hook", register_post_accumulate_grad_hook
        )

    # -- nodes ---------------------------------------------------------------------------------
    def _node_hooks(self) -> None:
        rec, bw, hooks = self.rec, self.bw, self
        mixin = autograd_function._HookMixin
        orig = mixin.__dict__["_register_hook"].__func__

        def _register_hook(backward_hooks: Any, hook: Any) -> Any:
            d, handle = orig(backward_hooks, hook)
            if hooks.registering is not None:  # our own, registered first on each node
                nid, kind = hooks.registering
                hooks.node_dicts[id(d)] = (d, nid, kind)
                return d, handle
            known = hooks.node_dicts.get(id(d))
            if rec.busy or known is None or known[0] is not d or _from_torch(2):
                return d, handle
            _, nid, kind = known
            hid = hooks.new_id()

            @functools.wraps(hook)
            def fired(*args: Any) -> Any:
                return bw.node_hook(kind, hid, nid, hook, args)

            d[handle.id] = fired
            with rec.quiet():
                hooks.handles[handle] = hid
                hooks.registered(hid, kind, "node", nid, hook)
            return d, handle

        self._patch(mixin, "_register_hook", staticmethod(_register_hook))

    def own(self, node: Any, nid: int, pre: Any, post: Any) -> None:
        """Register backscope's own pre- and post-hook on a node just discovered."""
        with self.rec.quiet():
            self.registering = (nid, "node_pre")
            try:
                node.register_prehook(pre)
                self.registering = (nid, "node_post")
                node.register_hook(post)
            finally:
                self.registering = None

    # -- modules -------------------------------------------------------------------------------
    def _module_hooks(self) -> None:
        rec, bw, hooks = self.rec, self.bw, self
        for method, kind in _MODULE_KINDS.items():
            orig = getattr(torch.nn.Module, method)

            def register(
                module: Any,
                hook: Any,
                *args: Any,
                _orig: Any = orig,
                _kind: HookKind = kind,
                **kwargs: Any,
            ) -> Any:
                if rec.busy or _from_torch(2):
                    return _orig(module, hook, *args, **kwargs)
                hid = hooks.new_id()

                @functools.wraps(hook)
                def fired(*hargs: Any, **hkw: Any) -> Any:
                    return bw.module_hook(_kind, hid, hook, hargs, hkw)

                handle = _orig(module, fired, *args, **kwargs)
                with rec.quiet():
                    hooks.handles[handle] = hid
                    hooks.registered(
                        hid,
                        _kind,
                        "module",
                        None,
                        hook,
                        module_type=type(module).__name__,
                        module_path=bw.scopes.path_of(module),
                    )
                return handle

            self._patch(torch.nn.Module, method, register)

    def _removal(self) -> None:
        rec, hooks = self.rec, self
        remove = torch_hooks.RemovableHandle.remove

        def removed(handle: Any) -> None:
            remove(handle)
            hid = hooks.handles.pop(handle, None)
            if hid is not None and not rec.busy:
                with rec.quiet():
                    line, frame = rec.site()
                    rec.add(
                        {"type": "hook_removed", "t": rec.now(), "hook": hid, "line": line}, frame
                    )

        self._patch(torch_hooks.RemovableHandle, "remove", removed)

    # -- saved tensors -------------------------------------------------------------------------
    def _saved_hooks(self) -> None:
        rec, bw = self.rec, self.bw
        cls = torch.autograd.graph.saved_tensors_hooks
        init = cls.__init__

        def __init__(self: Any, pack_hook: Any, unpack_hook: Any) -> None:
            if _from_torch(2) and type(self) is cls:
                init(self, pack_hook, unpack_hook)
                return

            def pack(t: Any) -> Any:
                box = pack_hook(t)
                rec.packing.append((t, box))
                return box

            def unpack(box: Any) -> Any:
                bw.unpacked(box)
                return unpack_hook(box)

            init(self, pack, unpack)

        self._patch(cls, "__init__", __init__)

    # -- zero_grad -----------------------------------------------------------------------------
    def _zero_grad(self) -> None:
        rec = self.rec

        def zeroing(zero: Any, params: Callable[[Any], list[Any]]) -> Any:
            @functools.wraps(zero)
            def zero_grad(owner: Any, *args: Any, **kwargs: Any) -> Any:
                if rec.busy or _from_torch(2):
                    return zero(owner, *args, **kwargs)
                had = [p for p in params(owner) if p.grad is not None]
                rec.zeroing = True
                try:
                    out = zero(owner, *args, **kwargs)
                finally:
                    rec.zeroing = False
                with rec.quiet():
                    line, frame = rec.site()
                    for p in had:
                        how: GradChangedHow = "set_to_none" if p.grad is None else "zeroed"
                        rec.grad_changed(p, how, line, frame)
                return out

            return zero_grad

        def opt_params(opt: Any) -> list[Any]:
            return [p for group in opt.param_groups for p in group["params"]]

        opt_zero = torch.optim.Optimizer.zero_grad
        mod_zero = torch.nn.Module.zero_grad
        self._patch(torch.optim.Optimizer, "zero_grad", zeroing(opt_zero, opt_params))
        self._patch(torch.nn.Module, "zero_grad", zeroing(mod_zero, lambda m: list(m.parameters())))
