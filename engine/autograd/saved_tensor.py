"""A tensor saved for backward (`SavedTensor`): its version check, pack/unpack hooks, and the
messages PyTorch gives when a saved value is gone or stale.

Part of the engine's bottom layer (tests/engine/test_layers.py): it imports `engine._tensor`
(its own level) only inside functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import _dtype
from engine.autograd import observer

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from engine.autograd.node import AccumulateGrad, Node

FREED_MSG = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


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
            # the tensor is not kept: tell the tracer which
            if (tracer := observer.tracer()) is not None:
                tracer.saved_packed(self, tensor)
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
        if (tracer := observer.tracer()) is not None:
            tracer.saved_packed(self, data)

    def unpack(self, node: Node | None) -> Tensor:
        from engine._tensor import Tensor, make

        if self._hooks_packed is not None:
            unpack, packed = self._hooks_packed
            if (tracer := observer.tracer()) is not None:
                tracer.saved_unpack(self, node)
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
