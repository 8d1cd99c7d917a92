"""The forward pass of real torch, seen through a TorchFunctionMode: every torch call's result
becomes tensor and node events (with the user's line and module scope), in-place writes
version bumps, and detach / `.data` / no_grad ops cut points. Module scopes come from
PyTorch's global module hooks.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_leaves
from torch.utils.weak import WeakIdKeyDictionary

from backscope.capture.recorder import Recorder, RunStopped, grad_mode
from backscope.capture.saved import version_of
from protocol import scopes

_TORCH_DIR = torch.__file__.rsplit("/", 1)[0]
_OVERRIDES = f"{_TORCH_DIR}/overrides.py"
# Calls that only read a tensor's metadata: nothing to record, answered at once
_QUERIES = frozenset(
    {
        "dim",
        "size",
        "shape",
        "numel",
        "dtype",
        "device",
        "is_leaf",
        "requires_grad",
        "grad_fn",
        "_version",
        "stride",
        "is_contiguous",
        "layout",
        "ndim",
        "output_nr",
        "_base",
        "is_sparse",
        "is_quantized",
        "is_meta",
        "is_cuda",
        "names",
        "item",
        "tolist",
        "__len__",
        "__repr__",
        "__format__",
        "__bool__",
        "__hash__",
        "__array__",
        "numpy",
        "data_ptr",
        "element_size",
        "nelement",
        "untyped_storage",
        "storage_offset",
        "_is_view",
        "__iter__",
        "__contains__",
        "is_floating_point",
        "is_complex",
        "__reduce_ex__",
        "__deepcopy__",
        "__get__",
    }
)
_CUTS = {"detach": "detach", "detach_": "detach_"}


def op_name(func: Any) -> tuple[str, str]:
    """(name, how): how is "get"/"set" for a property access, "call" otherwise."""
    name = getattr(func, "__name__", "")
    if name in ("__get__", "__set__"):
        owner = getattr(func, "__self__", None)
        return getattr(owner, "__name__", ""), "get" if name == "__get__" else "set"
    return name, "call"


class ModuleScopes:
    """The nn.Module calls running now (global forward hooks), named as named_modules() names
    them under the outermost one, which is prefixed by its class."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.stack: list[scopes.Scope] = []
        self.calls = 0
        self.paths: dict[int, tuple[Any, str]] = {}
        self.path: str | None = None
        self.call_nrs: tuple[int, ...] | None = None
        self.handles: list[Any] = []

    def install(self) -> None:
        from torch.nn.modules import module as nnm

        self.handles = [
            nnm.register_module_forward_pre_hook(self._enter),
            nnm.register_module_forward_hook(self._exit, always_call=True),
        ]

    def uninstall(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles = []

    def _child_name(self, module: Any) -> str:
        return scopes.child_name(self.stack, module)

    def _changed(self) -> None:
        self.path, self.call_nrs = scopes.path_and_calls(self.stack)

    def _enter(self, module: Any, args: Any) -> None:
        rec = self.rec
        if rec.busy:
            return
        with rec.quiet():
            if not self.stack:
                rec.index_parameters(module)
            name = self._child_name(module)
            call = self.calls
            self.calls += 1
            self.stack.append((module, name, call))
            self._changed()
            assert self.path is not None
            self.paths[id(module)] = (module, self.path)
            line, frame = rec.site()
            rec.add(
                {
                    "type": "module_enter",
                    "t": rec.now(),
                    "path": self.path,
                    "module_type": type(module).__name__,
                    "line": line,
                    "call": call,
                },
                frame,
            )

    def _exit(self, module: Any, args: Any, output: Any) -> None:
        rec = self.rec
        if rec.busy or not any(m is module for m, _, _ in self.stack):
            return
        path = self.path
        call = scopes.leave(self.stack, module)
        self._changed()
        shape = scopes.output_shape(output, torch.Tensor)
        exit_ = {"type": "module_exit", "t": rec.now(), "path": path, "call": call}
        rec.add({**exit_, "output_shape": shape})

    def path_of(self, module: Any) -> str | None:
        hit = self.paths.get(id(module))
        return hit[1] if hit is not None and hit[0] is module else None


def _caller(depth: int, func: Any) -> FrameType | None:
    """The frame that called the torch function (past torch's dispatch helpers and a Python
    torch function's own frame)."""
    f: FrameType | None = sys._getframe(depth)
    while f is not None and f.f_code.co_filename == _OVERRIDES:
        f = f.f_back
    name = getattr(func, "__name__", None)
    if f is not None and f.f_code.co_name == name and f.f_code.co_filename.startswith(_TORCH_DIR):
        f = f.f_back
    return f


class Forward(TorchFunctionMode):  # type: ignore[misc]  # (torch untyped here)
    """Records what each torch call made."""

    def __init__(self, rec: Recorder, scopes: ModuleScopes, controller: Any = None) -> None:
        super().__init__()
        self.rec = rec
        self.scopes = scopes
        # the stepper's controller: once it is `halted` (the page said stop), every torch call
        # of the user's code raises RunStopped. The interrupt a stop also sends lands between
        # two bytecodes, possibly in a weakref callback, which swallows it; this one cannot be.
        self.controller = controller
        self.in_backward: int | None = None  # the backward pass running now, if any
        # tensors made by a cut point (an op under no_grad/inference_mode drawn as one)
        self.cut_results: WeakIdKeyDictionary = WeakIdKeyDictionary()

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        kwargs = kwargs or {}
        rec = self.rec
        if getattr(self.controller, "halted", False) and not rec.busy:
            raise RunStopped("stop")
        name, how = op_name(func)
        if rec.busy or (name in _QUERIES and how != "set"):
            return func(*args, **kwargs)
        if how == "set":
            return self._set(func, name, args)
        if how == "get":
            out = func(*args, **kwargs)
            if name == "data" and args[0].requires_grad and self._direct(func, 2):
                with rec.quiet():
                    line, frame = rec.site(2)
                    self._cut("data", args[0], out, line, frame)
            return out
        ins = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        before = [version_of(t) for t in ins]
        rg0 = bool(ins) and ins[0].requires_grad
        mode = grad_mode()
        out = func(*args, **kwargs)
        with rec.quiet():
            try:
                self._record(func, name, ins, before, mode, out, rg0)
            except Exception as e:  # recording must never break the user's code
                rec.internal_error(name, e)
        return out

    def _direct(self, func: Any, depth: int) -> bool:
        """Whether the torch call `depth` frames up from here was made by the user's code."""
        f = _caller(depth + 1, func)
        return f is not None and self.rec.is_user(f.f_code.co_filename)

    def _record(
        self,
        func: Any,
        name: str,
        ins: list[Any],
        before: list[int],
        mode: Any,
        out: Any,
        rg0: bool,
    ) -> None:
        rec = self.rec
        line, frame = rec.site(3)
        outs = [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]
        bw = self.in_backward
        direct = self._direct_frame(func, frame)
        for o in outs:
            fn = o.grad_fn
            if fn is not None and rec.node_known(fn) is None:
                rec.node_id(
                    fn,
                    line=line,
                    frame=frame,
                    inputs=ins,
                    outputs=[x for x in outs if x.grad_fn is fn],
                    mode=mode,
                    module_path=self.scopes.path,
                    module_calls=self.scopes.call_nrs,
                    backward=bw,
                    packed=rec.take_packed(),
                )
            elif direct and rec.tensor_known(o) is None and not any(o is t for t in ins):
                rec.tensor_id(o, line, frame, mode, bw)
        for t, v in zip(ins, before):
            after = version_of(t)
            if after != v:
                self._bumped(t, after, line, frame)
        if not direct:
            return
        if name in _CUTS:
            if rg0:
                made = outs[0] if name == "detach" else None
                self._cut(_CUTS[name], ins[0], made, line, frame)
        elif name == "requires_grad_":
            rg = ins[0].requires_grad
            rec.add(_rg_event(rec, rec.tensor_id(ins[0], line, frame), rg, line), frame)
        elif name == "retain_grad":
            tid = rec.tensor_id(ins[0], line, frame)
            rec.add({"type": "retain_grad", "t": rec.now(), "tensor": tid, "line": line}, frame)
        elif mode != "grad" and outs and any(self._would_record(t) for t in ins):
            for o in outs:
                self.cut_results[o] = True
            rec.add(
                {
                    "type": "untracked_op",
                    "t": rec.now(),
                    "name": name,
                    "inputs": [rec.tensor_id(t, line, frame) for t in ins],
                    "outputs": [
                        rec.tensor_info(o, line, frame, mode)
                        for o in outs
                        if rec.tensor_known(o) is None
                    ],
                    "line": line,
                    "grad_mode": mode,
                    "module_path": self.scopes.path,
                    "module_calls": list(self.scopes.call_nrs) if self.scopes.call_nrs else None,
                },
                frame,
            )

    def _would_record(self, t: Any) -> bool:
        """Whether an op on `t` would be recorded with grad on: `t` requires grad or is the
        result of a cut point (a model run under no_grad is drawn whole, as the engine's is)."""
        return bool(t.requires_grad) or t in self.cut_results

    def _direct_frame(self, func: Any, site: FrameType | None) -> bool:
        f = _caller(4, func)
        return f is not None and f is site

    def _bumped(self, t: Any, version: int, line: int | None, frame: FrameType | None) -> None:
        rec = self.rec
        tid = rec.tensor_id(t, line, frame)
        fn = t.grad_fn
        rec.add(
            {
                "type": "version_bump",
                "t": rec.now(),
                "tensor": tid,
                "version": version,
                "grad_fn": rec.node_id(fn, line=line) if fn is not None else None,
                "line": line,
                "value": rec.value(t),
            },
            frame,
        )
        leaf = rec.grad_owned(t)
        if leaf is not None and not rec.zeroing:  # a write into a leaf's .grad (clip_grad_norm_)
            rec.grad_changed(leaf, "written", line, frame)

    def _cut(self, kind: str, t: Any, out: Any, line: int | None, frame: FrameType | None) -> None:
        rec = self.rec
        src = rec.tensor_id(t, line, frame)
        made = rec.tensor_id(out, line, frame) if out is not None else None
        rec.add(
            {
                "type": "cut",
                "t": rec.now(),
                "kind": kind,
                "tensor": src,
                "output": made,
                "line": line,
            },
            frame,
        )

    def _set(self, func: Any, name: str, args: tuple[Any, ...]) -> Any:
        """`t.grad = ...`, `t.requires_grad = ...`, `t.data = ...` by the user's code."""
        rec = self.rec
        direct = self._direct(func, 3)
        t = args[0]
        was = t.requires_grad
        out = func(*args)
        if not direct:
            return out
        with rec.quiet():
            line, frame = rec.site(3)
            if name == "requires_grad" and t.requires_grad != was:
                tid = rec.tensor_id(t, line, frame)
                rec.add(_rg_event(rec, tid, t.requires_grad, line), frame)
            elif name == "grad":
                rec.grad_changed(t, "assigned", line, frame)
        return out


def _rg_event(rec: Recorder, tid: int | None, value: bool, line: int | None) -> dict[str, Any]:
    return {
        "type": "requires_grad_set",
        "t": rec.now(),
        "tensor": tid,
        "requires_grad": value,
        "line": line,
    }
