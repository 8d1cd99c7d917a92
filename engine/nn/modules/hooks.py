"""Calling a Module with hooks, and full backward hooks as PyTorch builds them.

PyTorch wraps a hooked module's tensor inputs and outputs in an identity autograd node,
`BackwardHookFunctionBackward`: the one on the outputs captures grad_output (and runs the
backward pre hooks), the one on the inputs then calls the user hooks with grad_input.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.engine import _fire  # a hook call the tracer sees (one `is None` without)
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.nn.modules._module_hooks import GLOBAL, backward_hooks
from engine.ops._core import OpNode, record_multi

if TYPE_CHECKING:
    from engine.nn.modules.module import Module


class BackwardHookFunctionBackward(OpNode):
    """Identity on several tensors; exists only to carry hooks."""

    __slots__ = ()
    _name = "BackwardHookFunctionBackward"

    def apply(self, grads: Grads) -> Grads:
        return list(grads)

    def __repr__(self) -> str:  # a Python autograd.Function in PyTorch, so named like one
        return f"<torch.autograd.function.BackwardHookFunctionBackward object at {id(self):#x}>"


BackwardHookFunctionBackward.__module__ = "torch.autograd.function"


def _identity(tensors: list[Tensor]) -> list[Tensor]:
    outs = record_multi(BackwardHookFunctionBackward, [t._d for t in tensors], tuple(tensors))
    for o, t in zip(outs, tensors):
        # PyTorch's BackwardHookFunction returns its inputs as-is: views it forbids to modify
        # in place (a `ReLU(inplace=True)` right after a hooked module raises)
        o._ver = t._ver
        o._base = t if t._base is None else t._base
        o.__dict__["_custom_view"] = "BackwardHookFunction"
    # inputs that do not require grad come back as they are (marked non-differentiable)
    return [o if t._rg else t for o, t in zip(outs, tensors)]


class BackwardHook:
    """One call's bridge between the output node and the input node."""

    def __init__(
        self,
        module: Module,
        hooks: list[tuple[int, Callable[..., Any]]],
        pre_hooks: list[tuple[int, Callable[..., Any]]],
    ) -> None:
        self.module = module
        self.hooks = hooks  # (id, hook): global hooks first, then the module's, at call time
        self.pre_hooks = pre_hooks
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_inputs = self.n_outputs = -1
        self.input_idx: list[int] | None = None
        self.output_idx: list[int] | None = None

    def _wrap(
        self, args: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], list[int] | None, OpNode | None]:
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (STATE.enabled and any(args[i]._rg for i in idx)):
            return args, None, None
        news = _identity([args[i] for i in idx])
        out = list(args)
        for i, t in zip(idx, news):
            out[i] = t
        fn = next(t._fn for t in news if t._fn is not None)
        return tuple(out), idx, fn  # type: ignore[return-value]

    def _pack(self, idx: list[int], values: Any, size: int) -> tuple[Any, ...]:
        res: list[Any] = [None] * size
        for i, v in zip(idx, values):
            res[i] = v
        return tuple(res)

    def setup_input(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        res, idx, fn = self._wrap(args)
        self.n_inputs, self.input_idx = len(args), idx
        if fn is not None:
            fn.register_hook(self._input_hook)
        return res

    def _input_hook(self, grad_input: Any, _: Any) -> Any:
        if self.grad_outputs is None:
            return None
        assert self.input_idx is not None
        res = self._pack(self.input_idx, grad_input, self.n_inputs)
        for hid, hook in self.hooks:
            out = _fire("module_backward", hid, hook, self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, "
                    f"got {len(out)}, but expected {len(res)}"
                )
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_idx)

    def setup_output(self, result: Any) -> Any:
        single = not isinstance(result, tuple)
        args = (result,) if single else result
        res, idx, fn = self._wrap(args)
        self.n_outputs, self.output_idx = len(args), idx
        if fn is not None:
            fn.register_hook(self._output_hook)
        return res[0] if single else res

    def _output_hook(self, _: Any, grad_output: Any) -> Any:
        assert self.output_idx is not None
        self.grad_outputs = self._pack(self.output_idx, grad_output, self.n_outputs)
        for hid, pre in self.pre_hooks:
            new = _fire("module_backward_pre", hid, pre, self.module, self.grad_outputs)
            if new is None:
                continue
            if len(new) != len(self.grad_outputs):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, "
                    f"got {len(new)}, but expected {len(self.grad_outputs)}"
                )
            self.grad_outputs = tuple(new)
        local = self.grad_outputs
        if self.input_idx is None:
            warn(
                "Full backward hook is firing when gradients are computed with respect to module "
                "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/"
                "main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
                "for more details.",
                UserWarning,
            )
            grad_inputs = (None,) * self.n_inputs
            for hid, hook in self.hooks:
                r = _fire("module_backward", hid, hook, self.module, grad_inputs, self.grad_outputs)
                if r is not None and not (isinstance(r, tuple) and all(e is None for e in r)):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should "
                        "always return None or None for all gradients."
                    )
            self.grad_outputs = None
        return tuple(local[i] for i in self.output_idx)


def call_with_hooks(mod: Module, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """`Module.__call__` when any hook is registered (PyTorch's `_call_impl` order: the global
    hooks of `register_module_*_hook` before the module's own)."""
    d = mod.__dict__
    called: set[int] = set()
    result = None
    try:
        pre_kw = d.get("_forward_pre_hooks_with_kwargs", set())
        for hid, hook in (*GLOBAL.forward_pre.items(), *mod._forward_pre_hooks.items()):
            if hid in pre_kw:
                r = _fire("module_forward_pre", hid, hook, mod, args, kwargs)
                if r is not None:
                    if not (isinstance(r, tuple) and len(r) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, "
                            f"new_kwargs), but got {r}."
                        )
                    args, kwargs = r
            else:
                r = _fire("module_forward_pre", hid, hook, mod, args)
                if r is not None:
                    args = r if isinstance(r, tuple) else (r,)
        bw: BackwardHook | None = None
        hooks, legacy = backward_hooks(mod)
        pre_hooks = [*GLOBAL.backward_pre.items(), *mod._backward_pre_hooks.items()]
        if hooks or pre_hooks:
            bw = BackwardHook(mod, hooks, pre_hooks)
            args = bw.setup_input(args)
        result = mod.forward(*args, **kwargs)
        post_kw = d.get("_forward_hooks_with_kwargs", set())
        always = d.get("_forward_hooks_always_called", set())
        for hid, hook in (*GLOBAL.forward.items(), *mod._forward_hooks.items()):
            if hid in always or hid in GLOBAL.forward_always_called:
                called.add(hid)
            if hid in post_kw or hid in GLOBAL.forward_with_kwargs:
                r = _fire("module_forward", hid, hook, mod, args, kwargs, result)
            else:
                r = _fire("module_forward", hid, hook, mod, args, result)
            if r is not None:
                result = r
        if bw is not None:
            result = bw.setup_output(result)
        if legacy:
            _legacy_backward_hooks(mod, legacy, args, result)
        return result
    except Exception:
        _always_called(mod, args, result, called)
        raise


def _legacy_backward_hooks(
    mod: Module, hooks: list[Callable[..., Any]], args: Any, result: Any
) -> None:
    """`register_backward_hook`'s hooks go on the grad_fn of the first tensor in the output
    (PyTorch's walk: a dict's first tensor value, else element 0)."""
    var = result
    while not isinstance(var, Tensor):
        if isinstance(var, dict):
            var = next(v for v in var.values() if isinstance(v, Tensor))
        else:
            var = var[0]
    fn = var.grad_fn
    if fn is None:
        return
    for hook in hooks:
        fn.register_hook(_WrappedHook(hook, mod))
    _warn_legacy(args, result, fn)


class _WrappedHook:
    """A module hook bound to its module by a weak reference, as PyTorch's: a module that is
    gone by backward makes its hook raise."""

    def __init__(self, hook: Callable[..., Any], module: Module) -> None:
        self.hook = hook
        self.module = weakref.ref(module)

    def __call__(self, *args: Any) -> Any:
        module = self.module()
        if module is None:
            raise RuntimeError("You are trying to call the hook of a dead Module!")
        return self.hook(module, *args)


def _warn_legacy(inputs: Any, result: Any, fn: Any) -> None:
    """PyTorch's `_maybe_warn_non_full_backward_hook`: say when the one node's gradients are
    not the module's."""
    missing = "Please use register_full_backward_hook to get the documented behavior."
    if isinstance(result, Tensor):
        result = (result,)
    elif not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        _future(
            "Using non-full backward hooks on a Module that does not return a single Tensor or "
            "a tuple of Tensors is deprecated and will be removed in future versions. This hook "
            f"will be missing some of the grad_output. {missing}"
        )
        return
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    elif not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
        _future(
            "Using non-full backward hooks on a Module that does not take as input a single "
            "Tensor or a tuple of Tensors is deprecated and will be removed in future versions. "
            f"This hook will be missing some of the grad_input. {missing}"
        )
        return
    out_fns = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_fns or (len(out_fns) == 1 and fn not in out_fns):
        _future(
            "Using a non-full backward hook when outputs are nested in python data structure is "
            "deprecated and will be removed in future versions. This hook will be missing some "
            "grad_output."
        )
    elif len(out_fns) > 1:
        _future(
            "Using a non-full backward hook when outputs are generated by different autograd "
            "Nodes is deprecated and will be removed in future versions. This hook will be "
            f"missing some grad_output. {missing}"
        )
    elif {i.grad_fn for i in inputs if i.grad_fn is not None} != {n for n, _ in fn.next_functions}:
        _future(
            "Using a non-full backward hook when the forward contains multiple autograd Nodes is "
            "deprecated and will be removed in future versions. This hook will be missing some "
            f"grad_input. {missing}"
        )


def _future(message: str) -> None:
    warn(message, FutureWarning)


def _always_called(mod: Module, args: Any, result: Any, called: set[int]) -> None:
    """Forward hooks registered with `always_call=True` still run when forward raised; their
    own errors are silenced with a warning (PyTorch's wording)."""
    always = mod.__dict__.get("_forward_hooks_always_called", set())
    for where, store, ids in (
        ("global module", GLOBAL.forward, GLOBAL.forward_always_called),
        ("module", mod._forward_hooks, always),
    ):
        for hid, hook in list(store.items()):
            if hid not in ids or hid in called:
                continue
            try:
                r = _fire("module_forward", hid, hook, mod, args, result)
                if r is not None:
                    result = r
            except Exception as e:
                warn(
                    f"{where} forward hook with ``always_call=True`` raised an exception that "
                    f"was silenced as another error was raised in forward: {e}",
                )
