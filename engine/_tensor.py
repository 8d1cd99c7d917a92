"""The Tensor: an ndarray plus autograd state (`grad`, `requires_grad`, `grad_fn`, version)."""

from __future__ import annotations

import copy
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype, _layout
from engine import storage as _storage
from engine._upper import UPPER
from engine._warn import from_user, warn, warn_once
from engine.autograd import observer
from engine.autograd.grad_mode import STATE, is_grad_enabled
from engine.autograd.hooks import HookDict, RemovableHandle, add_hook
from engine.autograd.node import AccumulateGrad, Node

if TYPE_CHECKING:  # the methods engine/_methods.py binds at import, as mypy should see them
    from engine._tensor_surface import TensorSurface
else:
    TensorSurface = object

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered "
    "internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)


# C++ spellings of element types, as PyTorch's grad assignment error prints them


class Tensor(TensorSurface):
    """A multi-dimensional array that records the operations made on it for backward.

    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> (x * x).sum().backward(); x.grad
    tensor([2., 4.])
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_d",
        "_fn",
        "_grad",
        "_nr",
        "_rg",
        "_ver",
    )
    # Rarely set state lives in the instance dict, read through these class defaults, so the
    # hot-path constructor `make` sets six slots and nothing else.
    _base: Tensor | None = None
    _acc: AccumulateGrad | None = None
    _hooks: HookDict | None = None
    _post_acc: HookDict | None = None
    _retains: bool = False
    _inference: bool = False
    _view_fn: Any = None  # replays this view on an ndarray of the base's shape (None: not a view)
    _tr_id = 0  # the tracer's id for this tensor (engine/tracing/ids.py Ids)
    _fw_grad: Any = None  # forward-AD tangent inside a dual level (autograd/forward_ad.py)
    __array_priority__ = 1000  # ndarray (op) Tensor defers to Tensor's reflected operators

    _d: np.ndarray[Any, Any]
    _rg: bool
    _fn: Node | None
    _nr: int
    _grad: Tensor | None
    _ver: list[int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # torch.Tensor(2, 3) makes an uninitialised float tensor; torch.Tensor([1, 2]) copies;
        # Variable(t, requires_grad=True) (also this class) shares t's data and keeps its dtype.
        np_dt = _dtype.get_default_dtype().np
        if len(args) == 1 and isinstance(args[0], Tensor):
            data = args[0]._d
        elif len(args) == 1 and not isinstance(args[0], int):
            data = np.array(_unwrap_nested(args[0]), dtype=np_dt)
        else:  # torch.Tensor() is an empty 1-d tensor, not a 0-dim one
            data = np.zeros(tuple(int(a) for a in args) or (0,), dtype=np_dt)
        init(self, data)
        if kwargs.get("requires_grad"):
            self.requires_grad = True

    # -- autograd state ------------------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """The same storage, detached and untracked by version checks (PyTorch's `.data`)."""
        out = make(self._d, False, None, 0)
        tracer = observer.tracer()
        if tracer is not None:
            tracer.detached("data", self, out, self._rg, _getframe(1))
        return out

    @data.setter
    def data(self, value: Tensor) -> None:
        tracer = observer.tracer()
        if tracer is not None:
            tracer.state_changing(self, _getframe(1))
        self._d = value._d

    @property
    def requires_grad(self) -> bool:
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self._fn is not None:
            msg = "you can only change requires_grad flags of leaf variables."
            if not value:
                msg += (
                    " If you want to use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach()."
                )
            raise RuntimeError(msg)
        if value and _dtype.kind(self._d.dtype) not in "fc":
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if value and self._inference and not STATE.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed."
            )
        if self._rg == bool(value):
            return
        tracer = observer.tracer()
        if tracer is not None:
            tracer.state_changing(self, _getframe(1))
        self._rg = bool(value)
        if tracer is not None:
            tracer.requires_grad_changed(self, _getframe(1))

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set `requires_grad` in place; returns self."""
        # PyTorch's three spellings differ: a no-op on non-leaves for True, other messages
        if self._fn is not None and requires_grad:
            return self
        if requires_grad and _dtype.kind(self._d.dtype) not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad_fn(self) -> Node | None:
        if self._fw_grad is not None:  # a pending tangent may hold a private node on _fn
            UPPER.flush_tangents()
        return self._fn

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        return self._nr

    @property
    def _version(self) -> int:
        return self._ver[0]

    def _is_view(self) -> bool:
        """True for a view of another tensor (a detached alias is not one)."""
        return self._base is not None and (
            self._view_fn is not None or "_custom_view" in self.__dict__
        )

    @property
    def grad(self) -> Tensor | None:
        if self._fn is not None and not self._retains and self._grad is None:
            warn(NON_LEAF_GRAD_WARNING, UserWarning)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._d.shape != self._d.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._d.shape)}' to a "
                    f"tensor of size '{list(self._d.shape)}'. Please ensure that the gradient "
                    "and the tensor are the same size"
                )
            if value._d.dtype != self._d.dtype:
                got, want = _dtype.CPP_NAMES[value.dtype.name], _dtype.type_name(self.dtype)
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{got}' "
                    f"to a tensor with grad_dtype '{want}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
                    "the tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match."
                )
        tracer = observer.tracer()
        if tracer is not None:
            tracer.state_changing(self, _getframe(1))
        self._grad = value
        if tracer is not None:
            tracer.grad_assigned(self, _getframe(1))

    @property
    def is_inference(self) -> Callable[[], bool]:
        return lambda: self._inference

    def retain_grad(self) -> None:
        """Keep `.grad` of this non-leaf after backward."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._fn is None or self._retains:
            return
        self._retains = True
        fn = self._fn
        if fn._retains is None:
            fn._retains = {}
        fn._retains[self._nr] = weakref.ref(self)
        tracer = observer.tracer()
        if tracer is not None:
            tracer.grad_retained(self, _getframe(1))

    @property
    def retains_grad(self) -> bool:
        return bool(self._retains)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """`hook(grad)` runs when this tensor's gradient is computed; may return a new one."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._fn is None:
            if self._hooks is None:
                self._hooks = HookDict()
            return add_hook(self._hooks, hook, "tensor", self)
        fn = self._fn
        if fn._tpre is None:
            fn._tpre = {}
        store = fn._tpre.get(self._nr)
        if store is None:
            store = fn._tpre[self._nr] = HookDict()
        return add_hook(store, hook, "tensor", self)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """`hook(tensor)` runs after a leaf's `.grad` has been accumulated."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        if self._post_acc is None:
            self._post_acc = HookDict()
        return add_hook(self._post_acc, hook, "post_accumulate", self)

    def _grad_accumulator(self) -> AccumulateGrad | None:
        # held strongly (PyTorch holds it weakly): a leaf used in many short-lived graphs would
        # otherwise rebuild its accumulator for every op
        acc = self._acc
        if acc is None:
            if "_nograd_view" in self.__dict__:
                return None  # PyTorch: requires_grad reads True, yet no edge leads to it
            acc = self._acc = AccumulateGrad(self)
        return acc

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        """Compute gradients of this tensor with respect to graph leaves."""
        UPPER.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        """A new tensor on the same storage, outside the graph (shares the version counter)."""
        out = make(self._d, False, None, 0)
        out._ver = self._ver
        out._base = self if self._base is None else self._base
        tracer = observer.tracer()
        if tracer is not None:
            tracer.detached("detach", self, out, self._rg, _getframe(1))
        return out

    def detach_(self) -> Tensor:
        """Detach in place: this tensor becomes a leaf that does not require grad."""
        if self._view_fn is not None and self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        was = self._rg
        tracer = observer.tracer()
        if tracer is not None:
            tracer.state_changing(self, _getframe(1))
        self._fn = None
        self._rg = False
        if tracer is not None:
            tracer.detached("detach_", self, None, was, _getframe(1))
        return self

    # -- metadata ------------------------------------------------------------------------
    @property
    def shape(self) -> Any:
        from engine._size import Size

        return Size(self._d.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return self.shape
        return self._d.shape[_wrap_dim(dim, self._d.ndim)]

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy(self._d.dtype)

    @property
    def device(self) -> Any:
        from engine._device import CPU

        return CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def ndim(self) -> int:
        return self._d.ndim

    def dim(self) -> int:
        return self._d.ndim

    def ndimension(self) -> int:
        return self._d.ndim

    def numel(self) -> int:
        return int(self._d.size)

    def nelement(self) -> int:
        return int(self._d.size)

    def element_size(self) -> int:
        return int(self._d.itemsize)

    def is_floating_point(self) -> bool:
        return bool(_dtype.kind(self._d.dtype) == "f")

    def is_complex(self) -> bool:
        return bool(_dtype.kind(self._d.dtype) == "c")

    @property
    def real(self) -> Tensor:
        """The real part (a writable view for complex tensors; `self` for real ones)."""
        return UPPER.real(self)

    @real.setter
    def real(self, value: Any) -> None:
        self.real.copy_(value)

    @property
    def imag(self) -> Tensor:
        """The imaginary part (a writable view; an error for real tensors)."""
        return UPPER.imag(self)

    @imag.setter
    def imag(self, value: Any) -> None:
        self.imag.copy_(value)

    def is_contiguous(self, memory_format: Any = None) -> bool:
        return _layout.is_in(self._d, memory_format)

    @property
    def layout(self) -> _layout.layout:
        return _layout.strided

    def stride(self, dim: int | None = None) -> Any:
        if self._d.size:
            st = tuple(s // self._d.itemsize for s in self._d.strides)
        else:  # NumPy's strides of an empty array vary; PyTorch's are the contiguous ones
            st, step = (), 1
            for n in reversed(self._d.shape):
                st, step = (step, *st), step * max(n, 1)
        return st if dim is None else st[_wrap_dim(dim, self._d.ndim)]

    def data_ptr(self) -> int:
        return int(self._d.__array_interface__["data"][0])

    def storage_offset(self) -> int:
        """Elements between the start of the storage and this tensor's first element."""
        start = int(_storage.root(self._d).__array_interface__["data"][0])
        return (self.data_ptr() - start) // self._d.itemsize

    def untyped_storage(self) -> _storage.UntypedStorage:
        return _storage.UntypedStorage(_storage.root(self._d))

    def storage(self) -> _storage.TypedStorage:
        """The deprecated typed view of the memory (PyTorch warns on the first)."""
        return _storage.TypedStorage(_storage.root(self._d))

    def __len__(self) -> int:
        if self._d.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return int(self._d.shape[0])

    # -- conversion ----------------------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray[Any, Any]:
        """The ndarray itself (shared memory), as PyTorch's `.numpy()`."""
        if STATE.vmap_level:
            _vmap_refuses(self, _NO_STORAGE)
        # PyTorch refuses only while grad mode is on: under no_grad (and in a custom
        # Function's forward) a tensor that requires grad converts
        if self._rg and not force and is_grad_enabled():
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        if self._d.dtype == _dtype.bfloat16.np:  # NumPy itself has no bfloat16
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self._d

    def item(self) -> Any:
        if STATE.vmap_level:
            _vmap_refuses(self, _VMAP_ITEM)
        if self._d.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._d.size} elements cannot be converted to Scalar"
            )
        return self._d.reshape(()).item()

    def tolist(self) -> Any:
        if STATE.vmap_level:
            _vmap_refuses(self, _NO_STORAGE)
        return self._d.tolist()

    def __float__(self) -> float:
        if STATE.vmap_level:
            _vmap_refuses(self, _VMAP_ITEM)
        if _dtype.kind(self._d.dtype) == "c" and self._d.size == 1:
            raise RuntimeError("value cannot be converted to type double without overflow")
        if self._rg and STATE.enabled and from_user():
            warn_once(TO_SCALAR)
        return float(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __int__(self) -> int:
        if STATE.vmap_level:
            _vmap_refuses(self, _VMAP_ITEM)
        return int(self.item())

    def __index__(self) -> int:
        if _dtype.kind(self._d.dtype) not in "iub" or self._d.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if STATE.vmap_level:
            _vmap_refuses(self, _VMAP_CONTROL_FLOW)
        if self._d.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._d.reshape(()).item())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._d if dtype is None else self._d.astype(dtype)

    def __hash__(self) -> int:
        return id(self)

    def __iter__(self) -> Any:
        if self._d.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __repr__(self) -> str:
        return UPPER.tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._d.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)  # a spec on a non-scalar is a TypeError

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild, (self._d.copy(), self._rg))

    def __deepcopy__(self, memo: dict[int, Any]) -> Tensor:
        if self._fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a module, "
                "this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        out = type(self).__new__(type(self))
        init(out, self._d.copy(), self._rg)
        memo[id(self)] = out
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        # the user's attributes, deep-copied as PyTorch does; not the engine's own state (a
        # shared AccumulateGrad would send the copy's gradients into the original's .grad)
        for k, v in self.__dict__.items():
            if k not in _ENGINE_STATE:
                out.__dict__[k] = copy.deepcopy(v, memo)
        return out


_VMAP_ITEM = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
    ".item() on a Tensor, please try to rewrite what you're doing with other operations. If "
    "error is occurring somewhere inside PyTorch internals, please file a bug report."
)
_VMAP_CONTROL_FLOW = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
    "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/"
    "issues ."
)
TO_SCALAR = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)"
)
_NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"


def _vmap_refuses(t: Tensor, message: str) -> None:
    """Inside vmap, PyTorch's batched tensors refuse to become Python values. The engine maps
    by calling the function on each slice, so it refuses the snippet's own reads (the caller's
    caller is not the engine) of any tensor but an input vmap does not map."""
    if id(t) in STATE.vmap_unmapped:
        return
    caller = sys._getframe(2).f_globals.get("__name__", "")
    if caller == "engine" or caller.startswith("engine."):
        return
    raise RuntimeError(message)


# per-tensor state kept in the instance dict (class defaults above), never copied with it
_ENGINE_STATE = frozenset(
    (
        *("_base", "_acc", "_hooks", "_post_acc", "_retains", "_inference", "_view_fn"),
        *("_views", "_multi_view", "_nograd_view", "_custom_view", "_tr_id", "_fw_grad"),
    )
)


def _rebuild(data: np.ndarray[Any, Any], rg: bool) -> Tensor:
    out = make(data, False, None, 0)
    out._rg = rg
    return out


def init(t: Tensor, data: np.ndarray[Any, Any], rg: bool = False) -> None:
    """Fill a fresh Tensor's slots (the one place that knows them all)."""
    t._d = data
    t._rg = rg
    t._fn = None
    t._nr = 0
    t._grad = None
    t._ver = [0]
    t._base = None
    t._acc = None
    t._hooks = None
    t._post_acc = None
    t._retains = False
    t._inference = STATE.inference
    t._view_fn = None
    tracer = observer.tracer()
    if tracer is not None:
        tracer.tensor_made(t)


_new = object.__new__
_getframe = sys._getframe


_ndarray = np.ndarray


def make(data: np.ndarray[Any, Any], rg: bool, fn: Node | None, nr: int) -> Tensor:
    """Wrap an ndarray (the hot path: one check)."""
    t: Tensor = _new(Tensor)
    # a ufunc on 0-d arrays returns a read-only NumPy scalar; in-place ops need real memory
    t._d = data if type(data) is _ndarray else np.asarray(data)
    t._rg = rg
    t._fn = fn
    t._nr = nr
    t._grad = None
    t._ver = [0]
    if STATE.inference:
        t._inference = True
    return t


class writing:
    """The one in-place change of a tensor: `with writing(t): <change t>`. Every writer goes
    through here (or `write`, which is this around one write of the memory).

    The observer first sees the values before (`before_write`: pending events are built from
    them); the block changes the tensor and may tell the observer what it did (the observer, or
    None, is what `as` gives: an op that recorded nothing reports itself `untracked` there);
    then the version counter moves and the observer is told (`version_bump`, showing the values
    after). A block may write nothing (transpose_ changes strides, increment_version only the
    version): PyTorch's version moves all the same. Variants:
    `told`: the observer already saw the values before (an in-place op's `check_inplace`, which
    runs before the op computes, so the op's own events read the values before);
    `counted=False`: PyTorch writes through the raw pointer and the version does not move
    (`apply_`, `zero_grad`); `reported`: the caller tells the observer what the write was
    instead of `version_bump` (gradient accumulation, `zero_grad`).
    """

    __slots__ = ("counted", "reported", "t", "tracer")

    def __init__(
        self, t: Tensor, *, told: bool = False, counted: bool = True, reported: bool = False
    ) -> None:
        self.t, self.counted, self.reported = t, counted, reported
        self.tracer = tracer = observer.tracer()
        if tracer is not None and not told:
            tracer.before_write(t)

    def __enter__(self) -> observer.Observer | None:
        return self.tracer

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:  # the change failed: nothing to count or tell
            return
        if self.counted:
            self.t._ver[0] += 1
        if self.tracer is not None and not self.reported:
            self.tracer.version_bump(self.t)


def write(
    t: Tensor,
    into: Any,
    *,
    told: bool = False,
    counted: bool = True,
    reported: bool = False,
) -> None:
    """Write `into` into `t`'s memory in place (see `writing`): the values (broadcast into
    `t`, cast unsafely as PyTorch's copy does) or a function that writes into `t`'s ndarray."""
    with writing(t, told=told, counted=counted, reported=reported):
        if callable(into):
            into(t._d)
        elif type(into) is _ndarray:
            np.copyto(t._d, into, casting="unsafe")
        else:
            t._d[...] = into


def _wrap_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def _unwrap_nested(obj: Any) -> Any:
    if isinstance(obj, Tensor):
        return obj._d
    if isinstance(obj, list | tuple):
        return [_unwrap_nested(o) for o in obj]
    return obj


def is_tensor(obj: object) -> bool:
    """True for engine tensors."""
    return isinstance(obj, Tensor)


__all__: Sequence[str] = ["Tensor", "init", "is_tensor", "make", "write", "writing"]
