"""`torch.autograd.Function`: user-defined ops with their own backward.

The ctx handed to `forward` is the graph node itself (as in PyTorch: `y.grad_fn` is the ctx),
made by the same `new_node` path as every built-in op.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _tensor
from engine._warn import warn
from engine.autograd import observer
from engine.autograd.forward_ad import FW
from engine.autograd.forward_jvp import function_jvp, input_tangents
from engine.autograd.function_outputs import map_grads, wrap_outputs
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads, Node, SavedTensor

if TYPE_CHECKING:
    from engine._tensor import Tensor


class FunctionCtx:
    """The methods a custom Function's ctx offers (mixed into its node class)."""

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward; read them back with `ctx.saved_tensors`."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _tensor.Tensor):
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{i} is of type {type(t).__name__}"
                )
        self.__dict__["_to_save"] = tensors

    def save_for_forward(self, *tensors: Tensor | None) -> None:
        self.__dict__["_to_save_fwd"] = tensors

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        node: Any = self
        if node.__dict__.get("_in_jvp"):  # jvp reads what forward saved with save_for_forward
            return tuple(node.__dict__.get("_to_save_fwd", ()))
        if node._freed:
            from engine.autograd.graph import FREED_MSG

            raise RuntimeError(FREED_MSG)
        packed = node.__dict__.get("_packed")
        if packed is None:
            return tuple(node.__dict__.get("_to_save", ()))
        return tuple(None if p is None else p.unpack(node) for p in packed)

    @property
    def saved_variables(self) -> tuple[Tensor | None, ...]:
        return self.saved_tensors

    @property
    def _raw_saved_tensors(self) -> tuple[Any, ...]:
        """The saved tensors as `SavedTensor`s (for `register_hooks`), one per saved slot."""
        from engine.autograd.graph import FREED_MSG, wrapped_saved

        node: Any = self
        if node._freed:
            raise RuntimeError(FREED_MSG)
        packed = node.__dict__.get("_packed") or ()
        raws = []
        for p in packed:
            raw = p if isinstance(p, SavedTensor) else wrapped_saved(None)
            raw._owner = node
            raws.append(raw)
        return tuple(raws)

    def mark_dirty(self, *tensors: Tensor) -> None:
        """Declare inputs modified in place by forward."""
        self.__dict__["_dirty"] = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """Declare outputs that get no gradient (e.g. indices)."""
        self.__dict__["_non_diff"] = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs with no gradient."""
        self.__dict__["_materialize"] = bool(value)

    # What forward handed over, readable while it runs; PyTorch keeps none of it afterwards
    # (`to_save` once packed, the marks once the outputs are wrapped).
    @property
    def to_save(self) -> tuple[Tensor | None, ...] | None:
        d = self.__dict__
        return None if "_packed" in d else d.get("_to_save")

    @to_save.setter
    def to_save(self, tensors: tuple[Tensor | None, ...] | None) -> None:
        self.__dict__["_to_save"] = tensors

    @property
    def dirty_tensors(self) -> tuple[Tensor, ...] | None:
        return self.__dict__.get("_dirty")

    @dirty_tensors.setter
    def dirty_tensors(self, tensors: tuple[Tensor, ...] | None) -> None:
        self.__dict__["_dirty"] = tensors

    @property
    def non_differentiable(self) -> tuple[Tensor, ...] | None:
        return self.__dict__.get("_non_diff")

    @non_differentiable.setter
    def non_differentiable(self, tensors: tuple[Tensor, ...] | None) -> None:
        self.__dict__["_non_diff"] = tensors

    @property
    def saved_for_forward(self) -> tuple[Tensor | None, ...] | None:
        return self.__dict__.get("_to_save_fwd")

    # write-only in PyTorch (a C++ setter without a getter; Node.__getattr__ says so)
    materialize_grads = property(fset=set_materialize_grads)

    def mark_shared_storage(self, *pairs: Any) -> None:
        from engine._warn import warn

        warn(
            "`mark_shared_storage` is deprecated. Tensors with shared storages are automatically "
            "tracked. Note that calls to `set_()` are not tracked",
            FutureWarning,
        )


class BackwardCFunction(FunctionCtx, Node):
    """The node of a custom Function; named `<Function>Backward` as in PyTorch."""

    __slots__ = ()
    _forward_cls: type[Function]
    _name = "BackwardCFunction"

    def apply(self, *args: Any) -> Any:
        """PyTorch's: the user's backward on gradients given as arguments. (The engine's
        walker calls it with one list of gradients: materialised, checked, a list back.)"""
        if len(args) == 1 and type(args[0]) is list:
            return self._apply_grads(args[0])
        return self._get_user_fn()(self, *args)

    def apply_boxed(self, *args: Any) -> Any:
        return self._get_user_fn()(self, *args)

    def apply_jvp(self, *args: Any) -> Any:
        return self._forward_cls.jvp(self, *args)

    def _get_user_fn(self) -> Callable[..., Any]:
        backward_fn, vjp_fn = self._forward_cls.backward, self._forward_cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                "You should only implement one of them."
            )
        return vjp_fn if vjp_fn is not Function.vjp else backward_fn

    def maybe_clear_saved_tensors(self) -> None:
        """Free the saved tensors when the running backward does not keep the graph (outside
        a backward, nothing)."""
        from engine.autograd.engine import RUNNING

        if RUNNING.tasks and not RUNNING.tasks[-1].keep_graph:
            self.release()

    def _apply_grads(self, grads: Grads) -> Grads:
        d = self.__dict__
        if d.get("_materialize", True):
            grads = [
                g if g is not None or m is None else _tensor.make(np.zeros(*m), False, None, 0)
                for g, m in zip(grads, self._input_meta)
            ]
        result = self._get_user_fn()(self, *grads)
        return map_grads(self, result)

    def release(self) -> None:
        """Free `ctx.saved_tensors` after a backward without `retain_graph`."""
        d = self.__dict__
        if d.get("_packed") is not None:
            self._freed = True
            d["_packed"] = None
            d.pop("_to_save", None)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self._name} object at {id(self):#x}>"


class Function:
    """Base class for ops with a hand-written backward.

    >>> class Exp(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, i):
    ...         result = i.exp(); ctx.save_for_backward(result); return result
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         result, = ctx.saved_tensors; return grad_output * result
    """

    _backward_cls: type[BackwardCFunction]
    generate_vmap_rule = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__name__ + "Backward"
        cls._backward_cls = type(
            name,
            (BackwardCFunction,),
            {
                "_forward_cls": cls,
                "_name": name,
                "__slots__": (),
                "__module__": "torch.autograd.function",
            },
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:

        warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.",
            DeprecationWarning,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    @staticmethod
    def vmap(info: Any, in_dims: Any, *args: Any) -> Any:
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod "
            "or set generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward and, when any tensor input requires grad, record a node."""
        from engine.ops._core import new_node

        custom_setup = cls.setup_context is not Function.setup_context
        if kwargs:  # PyTorch binds keyword arguments to forward's parameters first
            args, kwargs = _bind(cls.forward, args, kwargs, not custom_setup), {}
        if STATE.func_level:
            _check_transformable(cls, custom_setup)
        # with its own vmap rule, forward sees whole (unbatched) tensors: here, one sample's
        vmap_rule = STATE.vmap_level and cls.vmap is not Function.vmap
        tensors = tuple(a for a in args if isinstance(a, _tensor.Tensor))
        record = STATE.enabled and any(t._rg for t in tensors)
        node: Any = new_node(cls._backward_cls, tensors)
        d = node.__dict__
        d["_is_tensor_arg"] = [isinstance(a, _tensor.Tensor) for a in args]
        d["_arg_meta"] = [
            (a._d.shape, a._d.dtype) if isinstance(a, _tensor.Tensor) else None for a in args
        ]
        # PyTorch fills needs_input_grad from requires_grad alone, even under no_grad
        node.needs_input_grad = tuple(isinstance(a, _tensor.Tensor) and a._rg for a in args)
        tangents = input_tangents(args) if FW.on else None
        prev, prev_fw, prev_vmap = STATE.enabled, FW.on, STATE.vmap_level
        STATE.enabled = FW.on = False  # forward sees neither the graph nor tangents
        STATE.vmap_level = 0 if vmap_rule else prev_vmap
        try:
            if custom_setup:
                output = cls.forward(*args, **kwargs)
            else:
                output = cls.forward(node, *args, **kwargs)
        finally:
            STATE.enabled, FW.on, STATE.vmap_level = prev, prev_fw, prev_vmap
        if custom_setup:
            cls.setup_context(node, args, output)
        wrapped = wrap_outputs(node, tensors, output, record)
        if tangents is not None:
            function_jvp(cls, node, tangents, wrapped)
        return wrapped


_EXTENDING_FUNC = (
    "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"
)


def _check_transformable(cls: type[Function], custom_setup: bool) -> None:
    """PyTorch's checks on a Function called inside torch.func transforms."""
    if not custom_setup:
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            f"jacrev, ...), it must override the setup_context staticmethod. {_EXTENDING_FUNC}"
        )
    if not STATE.batch_level:
        return
    own_rule = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and own_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and "
            "an overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
            f"overridden vmap staticmethod to avoid ambiguity. {_EXTENDING_FUNC}"
        )
    if not (cls.generate_vmap_rule or own_rule):
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
            "override and implement the vmap staticmethod or set generate_vmap_rule=True. "
            f"{_EXTENDING_FUNC}"
        )


def _bind(
    forward: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], ctx: bool
) -> tuple[Any, ...]:
    import inspect

    sig = inspect.signature(forward)
    bound = sig.bind(None, *args, **kwargs) if ctx else sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.args[1:] if ctx else bound.args)


ONCE_DIFFERENTIABLE = (
    "trying to differentiate twice a function that was marked with @once_differentiable"
)


class Error(Node):
    """PyTorch's `torch::autograd::Error` node: differentiating through it raises its message."""

    __slots__ = ()
    _name = "torch::autograd::Error"

    def apply(self, grads: Grads) -> Grads:
        raise RuntimeError(self.__dict__["message"])


def delayed_error(message: str, outputs: tuple[Any, ...], detach: bool = True) -> tuple[Any, ...]:
    """The outputs again, with an `Error` node as their grad_fn (PyTorch's DelayedError): its
    edges go to detached copies marked requires_grad, so the outputs require grad (once
    differentiable's use), or, with `detach=False`, to the outputs' own graph (a backward
    formula's: differentiating through it reaches the node and raises)."""
    from engine.ops._core import new_node

    fakes: list[Tensor | None] = []
    for o in outputs:
        if isinstance(o, _tensor.Tensor) and not detach:
            fakes.append(o)
        elif isinstance(o, _tensor.Tensor):
            fake = _tensor.make(o._d, False, None, 0)
            fake._rg = True
            fakes.append(fake)
        else:
            fakes.append(None)
    node = new_node(Error, tuple(fakes))
    node.__dict__["message"] = message
    node._input_meta = tuple(
        (o._d.shape, o._d.dtype) if isinstance(o, _tensor.Tensor) else None for o in outputs
    )
    outs = tuple(
        _tensor.make(o._d, True, node, i) if isinstance(o, _tensor.Tensor) else o
        for i, o in enumerate(outputs)
    )
    if (tracer := observer.tracer()) is not None:
        made = tuple(o for o in outs if isinstance(o, _tensor.Tensor))
        tracer.node_made(node, made, tuple(fakes))
    return outs


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a backward without building a graph; under create_graph its result requires grad
    through an `Error` node, so differentiating it again raises (as in PyTorch)."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        prev = STATE.enabled
        STATE.enabled = False
        try:
            outputs = fn(ctx, *args)
        finally:
            STATE.enabled = prev
        if not STATE.enabled:
            return outputs
        if not any(isinstance(a, _tensor.Tensor) and a._rg for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        wrapped = delayed_error(ONCE_DIFFERENTIABLE, (outputs,) if single else outputs)
        return wrapped[0] if single else wrapped

    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace: bool = False) -> None:
        self.inplace = inplace


class NestedIOFunction(Function):
    pass
