"""`nn.Module`: parameters, buffers and submodules registered by attribute assignment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor
from engine.autograd import observer
from engine.autograd.graph import HookDict
from engine.nn.modules import _module_hooks as _hooks
from engine.nn.modules import _module_iter as _iter
from engine.nn.modules import _state
from engine.nn.modules._module_hooks import (
    register_module_backward_hook as register_module_backward_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_buffer_registration_hook as register_module_buffer_registration_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_forward_hook as register_module_forward_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_forward_pre_hook as register_module_forward_pre_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_full_backward_hook as register_module_full_backward_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_full_backward_pre_hook as register_module_full_backward_pre_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_module_registration_hook as register_module_module_registration_hook,
)
from engine.nn.modules._module_hooks import (
    register_module_parameter_registration_hook as register_module_parameter_registration_hook,
)
from engine.nn.parameter import Buffer, Parameter


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])


_COMPLEX_MODULES = (
    "Complex modules are a new feature under active development whose design may change, and "
    "some modules might not work as expected when using complex tensors as parameters or "
    "buffers. Please file an issue at "
    "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml if a complex module "
    "does not work as expected."
)


class Module:
    """Base class of every layer and model.

    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__(); self.fc = torch.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return self.fc(x)
    """

    _version: int = 1  # saved in state_dict()._metadata; layers that changed their format bump it
    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Module | None]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        d = self.__dict__
        d["training"] = True
        # plain dicts, as PyTorch 2.x keeps them (printing `model._modules` shows `{...}`)
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}
        d["_forward_pre_hooks"] = HookDict()
        d["_forward_hooks"] = HookDict()
        d["_backward_hooks"] = HookDict()
        d["_backward_pre_hooks"] = HookDict()
        d["_state_dict_hooks"] = HookDict()
        d["_state_dict_pre_hooks"] = HookDict()
        d["_load_state_dict_pre_hooks"] = HookDict()
        d["_load_state_dict_post_hooks"] = HookDict()

    forward: Callable[..., Any]

    def _forward_unimplemented(self, *args: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    forward = _forward_unimplemented

    # -- calling --------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        tracer = observer.tracer()
        if tracer is None:
            return self._call(args, kwargs)
        tracer.module_enter(self)  # the module's scope, for the ops it records
        output = None
        try:
            output = self._call(args, kwargs)
            return output
        finally:
            tracer.module_exit(self, output)

    def _call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if not (
            self._forward_pre_hooks
            or self._forward_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or _hooks.GLOBAL.any_call_hook()
        ):
            return self.forward(*args, **kwargs)
        from engine.nn.modules.hooks import call_with_hooks

        return call_with_hooks(self, args, kwargs)

    # -- registration ---------------------------------------------------------------------
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or None) under `name`."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                "created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        if _hooks.GLOBAL.parameter:
            param = _hooks.registered(_hooks.GLOBAL.parameter, self, name, param)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a buffer (state that is not a parameter, e.g. running statistics)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        if _hooks.GLOBAL.buffer:
            tensor = _hooks.registered(_hooks.GLOBAL.buffer, self, name, tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        if _hooks.GLOBAL.module:
            module = _hooks.registered(_hooks.GLOBAL.module, self, name, module)
        self._modules[name] = module

    register_module = add_module

    get_submodule = _iter.get_submodule
    get_parameter = _iter.get_parameter
    get_buffer = _iter.get_buffer

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if "_parametrized_name" in d and name in d["_modules"]["parametrizations"]._modules:
            d["_modules"]["parametrizations"]._modules[name].right_inverse(value)
            return
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _drop(self, name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            _drop(self, name)
            if _hooks.GLOBAL.module:
                value = _hooks.registered(_hooks.GLOBAL.module, self, name, value)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = value
            return
        buffers = d.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                _drop(self, name)
                persistent = value.__dict__["persistent"]
            else:
                persistent = name not in self._non_persistent_buffers_set
            self.register_buffer(name, value, persistent)
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        if "_parametrized_name" in d and name in d["_modules"]["parametrizations"]._modules:
            from engine.nn.utils.parametrize import parametrized_value

            return parametrized_value(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        keys = list(super().__dir__()) + list(self._parameters) + list(self._modules)
        return sorted(set(keys + list(self._buffers)))

    # -- iteration ------------------------------------------------------------------------
    named_modules = _iter.named_modules
    modules = _iter.modules
    named_children = _iter.named_children
    children = _iter.children
    _named_members = _iter._named_members
    named_parameters = _iter.named_parameters
    parameters = _iter.parameters
    named_buffers = _iter.named_buffers
    buffers = _iter.buffers

    # -- modes and bulk changes -----------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode here and below (dropout, batch norm); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            m.__dict__["training"] = mode
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's `.grad` (to None by default)."""
        from engine.optim.optimizer import zero_grads

        zero_grads(list(self.parameters()), set_to_none)

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call `fn` on every submodule (children first), then on self."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def _apply_tensors(self, fn: Callable[[Tensor], Tensor]) -> Module:
        for m in self.modules():
            for p in m._parameters.values():
                if p is not None:
                    p._d = fn(p)._d
                    if p._grad is not None:
                        p._grad = fn(p._grad)
            for k, b in m._buffers.items():
                if b is not None:
                    m._buffers[k] = fn(b)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """Cast floating parameters and buffers to a dtype; cpu is the only device."""
        from engine._dtype import dtype as dtype_cls

        dt = kwargs.get("dtype")
        fmt = kwargs.get("memory_format")
        for a in args:
            if isinstance(a, dtype_cls):
                dt = a
            elif isinstance(a, Tensor):
                dt = a.dtype
        if fmt is not None:  # PyTorch lays out only the 4-d and 5-d tensors in it
            self._apply_tensors(lambda t: t.to(memory_format=fmt) if t.dim() in (4, 5) else t)
        if dt is None:
            return self
        if not (dt.is_floating_point or dt.is_complex):
            raise TypeError(
                f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dt}"
            )
        if dt.is_complex:
            from engine._warn import warn

            warn(_COMPLEX_MODULES, UserWarning)
        return self._apply_tensors(
            lambda t: t.to(dt) if t.is_floating_point() or t.is_complex() else t
        )

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """`Module.compile()`: compiles in place in PyTorch; here the module runs eagerly as
        it is (the arguments are checked as `torch.compile` checks them)."""
        from engine.compiler import compile as compile_

        compile_(self.__call__, *args, **kwargs)

    def float(self) -> Module:
        from engine._dtype import float32

        return self.to(float32)

    def double(self) -> Module:
        from engine._dtype import float64

        return self.to(float64)

    def half(self) -> Module:
        from engine._dtype import float16

        return self.to(float16)

    def bfloat16(self) -> Module:
        from engine._dtype import bfloat16

        return self.to(bfloat16)

    def cpu(self) -> Module:
        return self

    def type(self, dst_type: Any) -> Module:
        return self.to(dst_type)

    # -- hooks and state dicts live in their own modules ---------------------------------
    register_forward_pre_hook = _hooks.register_forward_pre_hook
    register_forward_hook = _hooks.register_forward_hook
    register_full_backward_hook = _hooks.register_full_backward_hook
    register_backward_hook = _hooks.register_backward_hook
    register_full_backward_pre_hook = _hooks.register_full_backward_pre_hook
    state_dict = _state.state_dict
    load_state_dict = _state.load_state_dict
    _save_to_state_dict = _state._save_to_state_dict
    _load_from_state_dict = _state._load_from_state_dict
    _register_state_dict_hook = _state._register_state_dict_hook
    register_state_dict_post_hook = _state.register_state_dict_post_hook
    register_state_dict_pre_hook = _state.register_state_dict_pre_hook
    _register_load_state_dict_pre_hook = _state._register_load_state_dict_pre_hook
    register_load_state_dict_pre_hook = _state.register_load_state_dict_pre_hook
    register_load_state_dict_post_hook = _state.register_load_state_dict_post_hook

    def extra_repr(self) -> str:
        """The text inside this layer's parentheses in `repr` (override in layers)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        for key, mod in self._modules.items():
            lines.append("(" + key + "): " + _addindent(repr(mod), 2))
        main = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def _typename(v: Any) -> str:
    if isinstance(v, Tensor):  # torch.typename: 'torch.FloatTensor'
        from engine.optim.optimizer import _tensor_type

        return _tensor_type(v)
    t = type(v)
    return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__


def _check_name(mod: Module, name: str, kind: str) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    store = mod._parameters if kind == "parameter" else mod._buffers
    if hasattr(mod, name) and name not in store:
        raise KeyError(f"attribute '{name}' already exists")


def _drop(mod: Module, name: str) -> None:
    """Forget `name` from every store and the instance dict before re-registering it."""
    d = mod.__dict__
    d.pop(name, None)
    for store in ("_parameters", "_buffers", "_modules"):
        s = d.get(store)
        if s is not None:
            s.pop(name, None)
    d["_non_persistent_buffers_set"].discard(name)
