"""The backward graph's bottom: `Node`, `AccumulateGrad`, saved tensors, hooks and their handles.

Part of the engine's bottom layer (tests/engine/test_layers.py): it imports nothing above it.
What it needs from above (adding a gradient into `.grad`) it calls through `engine._upper`.
The public module `torch.autograd.graph` is engine/autograd/graph.py, which re-exports these.
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import _device, _dtype
from engine._upper import UPPER
from engine.autograd import observer

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from protocol.vocab import HookKind

Edge = tuple["Node | None", int]
Grads = list["Tensor | None"]

# Nodes made later run earlier (PyTorch's ready queue order); AccumulateGrad always first.
_next_seq = itertools.count().__next__
ACCUMULATE_SEQ = (1 << 64) - 1  # UINT64_MAX, as PyTorch's AccumulateGrad


class RemovableHandle:
    """Returned by every `register_*hook`; `.remove()` unregisters (idempotent)."""

    __slots__ = ("_store", "id")
    _ids = itertools.count()

    def __init__(self, store: dict[int, Any]) -> None:
        self.id = next(RemovableHandle._ids)
        self._store = weakref.ref(store) if hasattr(store, "__weakref__") else (lambda: store)

    def remove(self) -> None:
        store = self._store()
        if store is not None:
            store.pop(self.id, None)
            if observer.TRACER is not None:
                observer.TRACER.hook_removed(self.id)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


# printed as PyTorch's class: `<torch.utils.hooks.RemovableHandle object at ...>`
RemovableHandle.__module__ = "torch.utils.hooks"


class HookDict(dict[int, Callable[..., Any]]):
    """A dict that can be weakly referenced by handles."""

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:  # PyTorch keeps hooks in OrderedDicts, and users print them
        return f"OrderedDict({list(self.items())!r})" if self else "OrderedDict()"


def add_hook(
    store: HookDict, fn: Callable[..., Any], kind: HookKind, target: object
) -> RemovableHandle:
    """Register `fn` in `store` and tell the tracer; the one place hooks are added."""
    handle = RemovableHandle(store)
    store[handle.id] = fn
    if observer.TRACER is not None:
        observer.TRACER.hook_registered(handle.id, kind, target, fn)
    return handle


FREED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


_OPERANDS = frozenset(("self", "other", "result"))


def _is_wrapped_number(key: str, value: Any) -> bool:
    """A Python number (or nothing) saved as an operand: PyTorch keeps a SavedVariable there,
    the number wrapped as a 0-dim tensor."""
    return key in _OPERANDS and (value is None or isinstance(value, int | float | complex))


def _is_raw(cls: type[Node], key: str, value: Any) -> bool:
    """True when PyTorch keeps this saved value as a SavedVariable (`_raw_saved_<key>`): a
    tensor, an array the engine keeps bare, an optional tensor the node declares (present
    even as None), a list of tensors, or a number wrapped as an operand, unless the node's
    overload takes it as a Scalar (`MulBackward1.other`)."""
    if _is_tensor_like(value) or key in cls._tensors:
        return True
    if isinstance(value, tuple | list) and value and all(_is_tensor_like(v) for v in value):
        return True
    return _is_wrapped_number(key, value) and key not in cls._scalars


def _is_tensor_like(value: Any) -> bool:
    import numpy as np

    from engine._tensor import Tensor

    return type(value) is SavedTensor or isinstance(value, np.ndarray | Tensor)


def _raw(value: Any) -> Any:
    """A saved value read raw: PyTorch's SavedTensor (a list of them for a tensor list)."""
    import numpy as np

    from engine._tensor import Tensor, make

    if type(value) is SavedTensor:
        return value
    if isinstance(value, tuple | list):
        return [_raw(v) for v in value]
    if isinstance(value, np.ndarray):
        value = make(value, False, None, 0)
    if isinstance(value, Tensor):
        return SavedTensor(value, False)
    return wrapped_saved(value)


# what `dir()` of a built-in PyTorch node lists besides object's own names and saved values
_NODE_SURFACE = (
    "_input_metadata",
    "_register_hook_dict",
    "_sequence_nr",
    "_set_sequence_nr",
    "metadata",
    "name",
    "next_functions",
    "register_hook",
    "register_prehook",
    "requires_grad",
    "variable",
)
# the private names `dir()` of a custom Function's PyTorch node lists (and the engine has)
_FUNCTION_PRIVATE = frozenset(
    (
        "_forward_cls",
        "_input_metadata",
        "_raw_saved_tensors",
        "_register_hook_dict",
        "_sequence_nr",
        "_set_sequence_nr",
    )
)
_ENGINE_ONLY = frozenset(("_saved", "_default_saved", "saved", "release", "needs"))


# saved int64 arguments: PyTorch hands them to Python as unsigned (`dim=-1` reads
# 18446744073709551615); Scalars such as `alpha` stay signed
_INT64_KEYS = frozenset(
    (
        *("dim", "dim0", "dim1", "dim2", "dims", "offset", "diagonal", "ignore_index"),
        *("padding_idx", "shifts", "start", "length", "split_size", "index", "step", "source"),
        *("destination", "end"),
    )
)


def as_shown(key: str, value: Any) -> Any:
    """A saved value as PyTorch's node attribute shows it: arrays as tensors, int lists as
    tuples, negative int64 arguments as unsigned."""
    import numpy as np

    if isinstance(value, np.ndarray):
        from engine._tensor import make

        return make(value, False, None, 0)
    if type(value) is list and all(type(v) is int for v in value):
        value = tuple(value)
    if key in _INT64_KEYS:
        if type(value) is int and value < 0:
            return value + (1 << 64)
        if type(value) is tuple:
            return tuple(v + (1 << 64) if type(v) is int and v < 0 else v for v in value)
    return value


def _is_freed(key: str, value: Any) -> bool:
    # tensors are freed; so is a Python number saved as `self`/`other` (a wrapped tensor in
    # PyTorch); plain values such as `dim` or `alpha` stay readable
    return type(value) is SavedTensor or key in _OPERANDS


class Node:
    """A backward function in the graph (`grad_fn`): PyTorch's `torch.autograd.graph.Node`."""

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_saved",
        "_seq",
        "_shapes",
        "next_functions",
    )
    # Rarely set: class defaults, so making a node costs four slot writes.
    _freed: bool = False
    _input_meta: tuple[Any, ...] = ()  # (shape, dtype) of each output, for zero grads
    _pre_hooks: HookDict | None = None
    _post_hooks: HookDict | None = None
    _tpre: dict[int, HookDict] | None = None  # tensor hooks per output number
    _retains: dict[int, Any] | None = None  # retain_grad per output number
    _trace: list[str] | None = None  # forward stack, in anomaly mode
    _name = "Node"
    _tr_id = 0  # the tracer's id for this node (engine/tracing/ids.py Ids)
    # saved values PyTorch always shows but the engine stores only when not the default
    _default_saved: dict[str, Any] = {}
    # saved sizes PyTorch shows (`self_sym_sizes`) that the engine keeps in `_shapes`: index
    _shape_saved: dict[str, int] = {}
    # saved names PyTorch keeps as tensors though the engine may hold None (optional tensors)
    _tensors: frozenset[str] = frozenset()
    # operands PyTorch's overload takes as a Scalar, so not wrapped tensors (`MulBackward1.other`)
    _scalars: frozenset[str] = frozenset()

    def __init__(self, next_functions: tuple[Edge, ...] = ()) -> None:
        self.next_functions = next_functions
        self._seq = _next_seq()
        self._saved: dict[str, Any] | None = None
        self._freed = False
        self._pre_hooks: HookDict | None = None
        self._post_hooks: HookDict | None = None
        self._tpre: dict[int, HookDict] | None = None  # tensor hooks per output number
        self._retains: dict[int, Any] | None = None  # retain_grad per output number
        self._input_meta: tuple[Any, ...] = ()  # (shape, dtype) of each output, for zero grads
        self._trace: list[str] | None = None  # forward stack, in anomaly mode
        self._shapes: tuple[tuple[int, ...], ...] | None = None  # input shapes, when broadcast

    # -- PyTorch's public surface -------------------------------------------------------
    def name(self) -> str:
        """The node's PyTorch name, e.g. `MulBackward0`."""
        return self._name

    @property
    def metadata(self) -> dict[str, Any]:
        d = self.__dict__.get("_metadata")
        if d is None:
            d = self.__dict__["_metadata"] = {}
        return d

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """`fn(grad_inputs, grad_outputs)` runs after the node; may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = HookDict()
        return add_hook(self._post_hooks, fn, "node_post", self)

    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """`fn(grad_outputs)` runs before the node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = HookDict()
        return add_hook(self._pre_hooks, fn, "node_pre", self)

    def _register_hook_dict(self, tensor: Tensor) -> None:
        raise NotImplementedError

    def _sequence_nr(self) -> int:
        """The order nodes were made in (AccumulateGrad: the largest uint64, run first)."""
        return self._seq

    def _set_sequence_nr(self, sequence_nr: int) -> None:
        self._seq = sequence_nr

    @property
    def _input_metadata(self) -> tuple[InputMetadata, ...]:
        """What the node knows of each gradient it takes (its forward outputs)."""
        return tuple(InputMetadata(shape, dt) for shape, dt in self._input_meta)

    @property
    def requires_grad(self) -> bool:
        return True  # always, for a node (PyTorch's THPCppFunction_requires_grad)

    def __call__(self, *grads: Any) -> Any:
        out = self.apply(list(grads))
        return out[0] if len(out) == 1 else tuple(out)

    def __repr__(self) -> str:
        return f"<{self._name.rsplit('::', 1)[-1]} object at {id(self):#x}>"

    def __dir__(self) -> list[str]:
        saved = self._saved or {}
        keys = set(saved) | set(type(self)._default_saved) | set(type(self)._shape_saved)
        names = {"_saved_" + k for k in keys}
        names |= {"_raw_saved_" + k for k, v in saved.items() if _is_raw(type(self), k, v)}
        if type(self).__module__ == "builtins" or isinstance(self, AccumulateGrad):
            # a built-in node shows PyTorch's surface, not the engine's own methods
            public = {n for n in _NODE_SURFACE if hasattr(self, n)}
            return sorted(set(object.__dir__(object())) | {"__call__"} | public | names)
        # a custom Function's node: its ctx surface, and of private names only PyTorch's
        own = {n for n in super().__dir__() if n[0] != "_" or n[1] == "_" or n in _FUNCTION_PRIVATE}
        return sorted((own - _ENGINE_ONLY) | names)

    # -- the engine's side ---------------------------------------------------------------
    def apply(self, grads: Grads) -> Grads:
        """Map gradients of this node's outputs to gradients of its inputs."""
        raise NotImplementedError

    def saved(self, key: str) -> Any:
        """A saved value, unpacked (tensors checked against their version at save time)."""
        saved = self._saved
        assert saved is not None
        value = saved[key]
        if self._freed and _is_freed(key, value):
            raise RuntimeError(FREED_MSG)
        return value.unpack(self) if isinstance(value, SavedTensor) else value

    def release(self) -> None:
        """Free saved tensors after a backward without `retain_graph` (plain values stay).

        Only marks the node: reading a freed value raises, as in PyTorch; the arrays go with the
        graph (an O(1) release keeps the backward walker cheap).
        """
        if self._saved is not None:
            self._freed = True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_saved_") and name[7:]:
            try:
                saved = object.__getattribute__(self, "_saved")
            except AttributeError:
                saved = None
            key = name[7:]
            if saved is not None and key in saved:
                return as_shown(key, self.saved(key))
            defaults = type(self)._default_saved
            if key in defaults:
                return defaults[key]
            at = type(self)._shape_saved.get(key)
            shapes = object.__getattribute__(self, "_shapes")
            if at is not None and shapes is not None:
                return tuple(shapes[at])
        if name.startswith("_raw_saved_"):
            saved = object.__getattribute__(self, "_saved")
            key = name[11:]
            value = saved.get(key) if saved is not None else None
            if saved is not None and key in saved and _is_raw(type(self), key, value):
                if type(value) is not SavedTensor:
                    # PyTorch saved a tensor where the engine keeps a number, an array or
                    # None: a SavedTensor of it, made once (backward reads the engine's value;
                    # hooks registered on this one never run)
                    value = self.__dict__.get(name)
                    if value is None:
                        value = self.__dict__[name] = _raw(saved[key])
                for v in value if isinstance(value, list) else [value]:
                    v._owner = self
                return value
        attr = getattr(type(self), name, None)
        if isinstance(attr, property) and attr.fget is None:  # write-only, as in PyTorch
            raise AttributeError(
                f"attribute '{name}' of 'torch._C._FunctionBase' objects is not readable"
            )
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


def display_name(name: str) -> str:
    """A node's class name in PyTorch: its name without the `torch::autograd::` namespace."""
    return name.rsplit("::", 1)[-1]


class InputMetadata:
    """`torch._C._autograd._InputMetadata`: shape, dtype and device of a node's gradient."""

    __slots__ = ("device", "dtype", "is_cpp_nested_tensor", "is_nested_tensor", "shape")

    def __init__(self, shape: tuple[int, ...], np_dtype: Any) -> None:
        self.shape = list(shape)
        self.dtype = _dtype.from_numpy(np_dtype)
        self.device = _device.device("cpu")
        self.is_nested_tensor = self.is_cpp_nested_tensor = False

    def __repr__(self) -> str:
        return f"<torch._C._autograd._InputMetadata object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node that adds a gradient into a leaf's `.grad`."""

    __slots__ = ("variable",)
    _name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable: Tensor) -> None:
        super().__init__(())
        self._seq = ACCUMULATE_SEQ
        self.variable = variable

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"

    @property
    def _input_metadata(self) -> tuple[InputMetadata, ...]:
        return (InputMetadata(self.variable._d.shape, self.variable._d.dtype),)

    def apply(self, grads: Grads) -> Grads:
        grad = grads[0]
        if grad is not None:
            UPPER.accumulate_into(self.variable, grad)
        return []


class GraphRoot(Node):
    """The start of a backward with several roots: hands each root its gradient."""

    __slots__ = ("grads",)
    _name = "torch::autograd::GraphRoot"

    def __init__(self, edges: tuple[Edge, ...], grads: Grads) -> None:
        super().__init__(edges)
        self.grads = grads

    def apply(self, grads: Grads) -> Grads:
        return list(self.grads)


def forward_name(node: Node) -> str:
    """`ExpBackward0` -> `Exp`: how PyTorch's version error names the op that made a tensor."""
    # PyTorch strips only the suffix: "torch::autograd::CopySlices" keeps its namespace
    return re.sub(r"Backward\d*$", "", node.name())


_HOOKS_SET = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. "
    "Hint: only one pair of hooks is allowed at a time."
)
_HOOKS_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward."
)
_PACK_IN_PLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects. Please open an issue if you need to perform in-place operations on the "
    "input to a pack hook."
)


def run_pack_hook(pack: Callable[[Any], Any], tensor: Tensor) -> Any:
    """Call a pack hook as PyTorch does: outside grad mode, refusing an in-place change."""
    from engine.autograd.grad_mode import STATE

    version = tensor._ver[0]
    prev = STATE.enabled
    STATE.enabled = False
    try:
        packed = pack(tensor)
    finally:
        STATE.enabled = prev
    if tensor._ver[0] != version:
        raise RuntimeError(_PACK_IN_PLACE)
    return packed


class SavedTensor:
    """A tensor saved for backward, remembering its version at save time.

    A node's own output is stored without the tensor object (no reference cycle) and comes
    back as a new tensor sharing the storage, like PyTorch: `y.grad_fn._saved_result is y` is
    False while `x.grad_fn... _saved_self is x` holds for inputs. Read raw
    (`grad_fn._raw_saved_self`) it is PyTorch's `SavedTensor`, whose `register_hooks(pack,
    unpack)` packs it now and unpacks it whenever backward (or `_saved_self`) reads it.
    """

    __slots__ = (
        "_acc",
        "_data",
        "_fn",
        "_hooks_packed",
        "_is_output",
        "_nr",
        "_owner",
        "_rg",
        "_tensor",
        "_ver",
        "_ver_at",
    )
    _owner: Node  # set when read raw (`_raw_saved_*`): register_hooks asks it if freed
    _fn: Node | None
    _acc: AccumulateGrad | None

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        self._ver = tensor._ver
        self._ver_at = tensor._ver[0]
        self._is_output = is_output
        self._hooks_packed: tuple[Callable[[Any], Any], Any] | None = None
        hooks = observer.SAVED_HOOKS
        if hooks:
            pack, unpack = hooks[-1]
            self._tensor = None
            self._data = None
            self._remember(tensor)
            self._hooks_packed = (unpack, run_pack_hook(pack, tensor))
            if observer.TRACER is not None:  # the tensor is not kept: tell the tracer which
                observer.TRACER.saved_packed(self, tensor)
            return
        if is_output:
            self._tensor = None
            self._data = tensor._d
            self._nr = tensor._nr
            self._rg = tensor._rg
        else:
            self._tensor = tensor
            self._data = None
            self._nr = 0
            self._rg = False

    def _remember(self, tensor: Tensor) -> None:
        """Keep what an unpacked tensor is rewrapped with: PyTorch gives the unpack hook's
        result the saved tensor's autograd identity (grad_fn, requires_grad, accumulator)."""
        self._nr = tensor._nr
        self._rg = tensor._rg
        self._fn = None if self._is_output else tensor._fn
        self._acc = tensor._grad_accumulator() if tensor._rg and tensor._fn is None else None

    def register_hooks(self, *hooks: Any) -> None:
        """Pack this saved tensor now with `pack_hook`; `unpack_hook` runs each time it is read.

        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t.clone(), lambda p: p)
        """
        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            shown = ", ".join(repr(h) for h in (self, *hooks))
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {shown}"
            )
        if self._hooks_packed is None and self._tensor is None and self._data is None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor with value None is forbidden"
            )
        owner = getattr(self, "_owner", None)
        freed = owner is not None and owner._freed
        if self._hooks_packed is not None and not freed:
            raise RuntimeError(_HOOKS_SET)
        if freed:
            raise RuntimeError(_HOOKS_FREED)
        from engine._tensor import make

        if self._tensor is not None:
            tensor = self._tensor
            data = make(tensor._d, False, None, 0)  # PyTorch packs `data.detach()`
            data._ver = tensor._ver
        else:
            assert self._data is not None
            data = make(self._data, False, None, 0)
            data._ver = self._ver
            tensor = data
        self._remember(tensor)
        if self._is_output:
            self._rg = True
        self._hooks_packed = (hooks[1], run_pack_hook(hooks[0], data))
        self._tensor = None
        self._data = None
        if observer.TRACER is not None:
            observer.TRACER.saved_packed(self, data)

    def unpack(self, node: Node | None) -> Tensor:
        from engine._tensor import Tensor, make

        if self._hooks_packed is not None:
            unpack, packed = self._hooks_packed
            if observer.TRACER is not None:
                observer.TRACER.saved_unpack(self, node)
            out = unpack(packed)
            if not isinstance(out, Tensor):
                raise TypeError(
                    "Output of saved tensor unpack_hook expected to be a Tensor but got "
                    f"result of type {type(out).__name__}"
                )
            return self._rewrap(out, node)
        if self._ver[0] != self._ver_at:
            t = self._tensor
            shape = list(t.shape) if t is not None else list(self._data.shape)  # type: ignore[union-attr]
            dt = t.dtype if t is not None else None
            tname = _dtype.legacy_type_name(dt if dt is not None else self._data.dtype)  # type: ignore[union-attr]
            where = ""
            if self._is_output and node is not None:
                where = f", which is output {self._nr} of {forward_name(node)},"
            elif t is not None and t._fn is not None:
                where = f", which is output {t._nr} of {forward_name(t._fn)},"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{tname} {shape}]{where} is at version {self._ver[0]}; "
                f"expected version {self._ver_at} instead. Hint: enable anomaly detection to find "
                "the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        if self._tensor is not None:
            return self._tensor
        assert self._data is not None
        out = make(self._data, self._rg, node if self._rg else None, self._nr)
        out._ver = self._ver
        return out

    def _rewrap(self, out: Tensor, node: Node | None) -> Tensor:
        """The unpack hook's tensor with the saved tensor's autograd identity (PyTorch's
        SavedVariable::unpack): an input's grad_fn or accumulator, or this node for an output."""
        from engine._tensor import make

        fn = node if self._is_output else self._fn
        if fn is None and not self._rg and not out._rg:
            return out
        if fn is not None and self._rg:
            t = make(out._d, True, fn, self._nr)
        else:
            t = make(out._d, self._rg, None, 0)
            t._acc = self._acc
        t._ver = out._ver
        return t


def wrapped_saved(value: int | float | complex | None) -> SavedTensor:
    import numpy as np

    from engine._tensor import make

    if value is None:  # an undefined SavedVariable
        empty: SavedTensor = object.__new__(SavedTensor)
        empty._hooks_packed = empty._tensor = empty._data = None
        return empty
    dt: Any = np.bool_ if type(value) is bool else np.int64 if type(value) is int else np.float64
    if type(value) is complex:
        dt = np.complex128
    return SavedTensor(make(np.asarray(value, dtype=dt), False, None, 0), False)


# printed as PyTorch's class: `<torch._C._autograd.SavedTensor object at ...>`
SavedTensor.__module__ = "torch._C._autograd"
