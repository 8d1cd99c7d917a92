"""The backward graph's bottom: `Node`, `AccumulateGrad`, `GraphRoot` (saved tensors are in
saved_tensor.py, what a node shows of them in node_surface.py, hooks' handles in hooks.py).

Part of the engine's bottom layer (tests/engine/test_layers.py): it imports nothing above it.
What it needs from above (adding a gradient into `.grad`) it calls through `engine._upper`.
The public module `torch.autograd.graph` is engine/autograd/graph.py, which re-exports these.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import _device, _dtype
from engine._upper import UPPER
from engine.autograd.hooks import HookDict, RemovableHandle, add_hook
from engine.autograd.node_surface import (
    ENGINE_ONLY,
    FUNCTION_PRIVATE,
    NODE_SURFACE,
    as_shown,
    is_freed,
    is_raw,
    raw_saved,
)
from engine.autograd.saved_tensor import FREED_MSG, SavedTensor

if TYPE_CHECKING:
    from engine._tensor import Tensor

Edge = tuple["Node | None", int]
Grads = list["Tensor | None"]

# Nodes made later run earlier (PyTorch's ready queue order); AccumulateGrad always first.
_next_seq = itertools.count().__next__
ACCUMULATE_SEQ = (1 << 64) - 1  # UINT64_MAX, as PyTorch's AccumulateGrad


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
    # the order PyTorch packs the saved inputs in, where it is not by name (ops/record.py)
    _pack_order: tuple[str, ...] = ()

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
        names |= {"_raw_saved_" + k for k, v in saved.items() if is_raw(type(self), k, v)}
        if type(self).__module__ == "builtins" or isinstance(self, AccumulateGrad):
            # a built-in node shows PyTorch's surface, not the engine's own methods
            public = {n for n in NODE_SURFACE if hasattr(self, n)}
            return sorted(set(object.__dir__(object())) | {"__call__"} | public | names)
        # a custom Function's node: its ctx surface, and of private names only PyTorch's
        own = {n for n in super().__dir__() if n[0] != "_" or n[1] == "_" or n in FUNCTION_PRIVATE}
        return sorted((own - ENGINE_ONLY) | names)

    # -- the engine's side ---------------------------------------------------------------
    def apply(self, grads: Grads) -> Grads:
        """Map gradients of this node's outputs to gradients of its inputs."""
        raise NotImplementedError

    def saved(self, key: str) -> Any:
        """A saved value, unpacked (tensors checked against their version at save time)."""
        saved = self._saved
        assert saved is not None
        value = saved[key]
        if self._freed and is_freed(key, value):
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
            if saved is not None and key in saved and is_raw(type(self), key, value):
                if type(value) is not SavedTensor:
                    # PyTorch saved a tensor where the engine keeps a number, an array or
                    # None: a SavedTensor of it, made once (backward reads the engine's value;
                    # hooks registered on this one never run)
                    value = self.__dict__.get(name)
                    if value is None:
                        value = self.__dict__[name] = raw_saved(saved[key])
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
