"""What every op shares: the one path that makes graph nodes (`record`), the one place that
undoes broadcasting (`unbroadcast`), operand promotion, and in-place bookkeeping.

An op is a function computing its forward on ndarrays, next to a `Node` subclass named as
PyTorch names it whose `apply` maps output gradients to input gradients with engine ops
(so `create_graph=True` differentiates through them).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make, write
from engine._tensor import writing as writing  # (the ops import it from here)
from engine.autograd import observer
from engine.autograd.forward_ad import FW
from engine.autograd.grad_mode import ANOMALY, STATE
from engine.autograd.graph import Edge, Grads, Node, SavedTensor, _next_seq, display_name

NONE_EDGE: Edge = (None, 0)
_new = object.__new__


class OpNode(Node):
    """A built-in op's node. Subclasses set `_name` (PyTorch's name, which also names the class)
    and implement `apply`. `_listed = False` keeps a class out of `op_nodes()`: a node no forward
    op of the table records (a backward's own node, a C++-only overload, a fused nn node)."""

    __slots__ = ()
    _listed: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_name" in cls.__dict__:
            cls.__module__ = "builtins"  # `type(y.grad_fn)` prints <class 'MulBackward0'>
            cls.__name__ = cls.__qualname__ = display_name(cls._name)

    def needs(self, i: int) -> bool:
        """True when input `i` wants a gradient (PyTorch's `needs_input_grad`)."""
        return self.next_functions[i][0] is not None


_N = TypeVar("_N", bound=Node)
_VARIANTS: dict[tuple[type[Node], str], type[Node]] = {}


def variant(base: type[_N], name: str, **methods: Any) -> type[_N]:
    """`base`'s node under PyTorch's `name`: the one way to make a node class other than a class
    statement, for one backward that PyTorch names several ways (`UpsampleNearest2DBackward0`,
    an activation's `GeluBackwardBackward0`). `methods` fill in what `base` leaves open (a
    derivative). Made once per (base, name); an op passes the class it gets to `record`.

    >>> variant(_UpsampleBackward, "UpsampleNearest2DBackward0")
    """
    cls = _VARIANTS.get((base, name))
    if cls is None:
        ns = {"__slots__": (), "_name": name, **methods}
        cls = _VARIANTS[(base, name)] = type(display_name(name), (base,), ns)
    elif methods:
        raise ValueError(f"{name} is already a variant of {base.__name__}")
    return cls  # type: ignore[return-value]


def op_nodes() -> dict[str, type[OpNode]]:
    """Every node class a forward op records, by PyTorch's name: the OpNode classes that declare
    a `_name`, less those declaring `_listed = False` (read on demand, not registered as a side
    effect of defining a class)."""
    found: dict[str, type[OpNode]] = {}
    stack = [OpNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if "_name" in cls.__dict__ and cls._listed:
            other = found.setdefault(cls._name, cls)
            if other is not cls:
                raise RuntimeError(f"two listed node classes are named {cls._name}")
    return found


def edge(t: Tensor | None) -> Edge:
    """The graph edge a tensor contributes as an op input."""
    if t is None or not t._rg:
        return NONE_EDGE
    fn = t._fn
    if fn is not None:
        return (fn, t._nr)
    return (t._grad_accumulator(), 0)


def wants_grad(*inputs: Tensor | None) -> bool:
    """True when the op being made must be recorded."""
    if not STATE.enabled:
        return False
    for t in inputs:  # noqa: SIM110 - a plain loop is faster than any() on the hot path
        if t is not None and t._rg:
            return True
    return False


def new_node(cls: type[Node], inputs: tuple[Tensor | None, ...]) -> Node:
    """A node of `cls` wired to `inputs` (no outputs yet)."""
    node: Node = _new(cls)
    edges = []
    for t in inputs:
        if t is None or not t._rg:
            edges.append(NONE_EDGE)
        elif t._fn is not None:
            edges.append((t._fn, t._nr))
        else:
            acc = t._acc
            edges.append((acc if acc is not None else t._grad_accumulator(), 0))
    node.next_functions = tuple(edges)
    node._seq = _next_seq()
    node._saved = None
    node._shapes = None
    if ANOMALY.anomaly:
        import traceback

        node._trace = traceback.format_stack()[:-3]
    return node


def record(
    cls: type[Node],
    data: np.ndarray[Any, Any],
    inputs: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None = None,
    out_saved: str | None = None,
    shapes: tuple[tuple[int, ...], ...] | None = None,
    keep: dict[str, Any] | None = None,
) -> Tensor:
    """Wrap `data` as the op's output, recording a `cls` node when any input requires grad.

    `saved` maps PyTorch's saved names (`self`, `other`, ...) to tensors or plain values;
    `out_saved` names the output when the op saves its result (`result`); `keep` holds
    engine-private values for the node's backward (a pooling's tap array), outside PyTorch's
    saved names, set before anyone sees the node.
    """
    if FW.on:  # inside a forward-AD dual level: the output may need a tangent
        from engine.autograd.forward_jvp import record_dual

        out = record_dual(cls, data, inputs, saved, out_saved, shapes)
        if keep is not None and out._fn is not None:
            keep_on(out._fn, keep)
        return out
    if not STATE.enabled:
        out = make(data, False, None, 0)
        if observer.TRACER is not None:  # a no_grad cut point, drawn by the tracer
            observer.TRACER.untracked(cls._name, (out,), inputs)
        return out
    for t in inputs:
        if t is not None and t._rg:
            break
    else:
        return make(data, False, None, 0)
    if _dtype.kind(data.dtype) == "c":  # conjugate Wirtinger gradients (ops/complex_grad.py)
        from engine.ops.complex_grad import complex_twin

        cls, keep = complex_twin(cls, inputs, keep)
    node = new_node(cls, inputs)
    if keep is not None:
        keep_on(node, keep)
    node._shapes = shapes
    node._input_meta = ((data.shape, data.dtype),)  # PyTorch's `_input_metadata`
    out = make(data, True, node, 0)
    if saved is not None or out_saved is not None:
        node._saved = store = {}
        if saved is not None:
            if observer.SAVED_HOOKS:
                saved = packing_order(saved)
            for k, v in saved.items():
                store[k] = save(v) if type(v) is Tensor or isinstance(v, Tensor) else v
        if out_saved is not None:
            store[out_saved] = SavedTensor(out, True)
    tracer = observer.TRACER
    if tracer is not None:
        tracer.node_made(node, (out,), inputs)
    return out


def record_multi(
    cls: type[Node],
    datas: list[np.ndarray[Any, Any]],
    inputs: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None = None,
    differentiable: list[bool] | None = None,
    keep: dict[str, Any] | None = None,
) -> list[Tensor]:
    """Like `record` for ops with several outputs (split, max with dim, ...)."""
    if FW.on:
        from engine.autograd.forward_jvp import flush, record_multi_dual

        flush()
        FW.on = False
        try:
            outs = record_multi(cls, datas, inputs, saved, differentiable, keep)
        finally:
            FW.on = True
        return record_multi_dual(outs, cls, inputs, saved)
    if not wants_grad(*inputs):
        return [make(d, False, None, 0) for d in datas]
    node = new_node(cls, inputs)
    if keep is not None:
        keep_on(node, keep)
    outs = []
    for i, d in enumerate(datas):
        if differentiable is None or differentiable[i]:
            outs.append(make(d, True, node, i))
        else:
            outs.append(make(d, False, None, 0))
    node._input_meta = tuple((d.shape, d.dtype) for d in datas)
    if saved is not None:
        if observer.SAVED_HOOKS:
            saved = packing_order(saved)
        node._saved = {k: save(v) if isinstance(v, Tensor) else v for k, v in saved.items()}
    tracer = observer.TRACER
    if tracer is not None:
        tracer.node_made(node, tuple(outs), inputs)
    return outs


def keep_on(node: Node, keep: dict[str, Any]) -> None:
    """Set `record`'s `keep` values on a node (slots or its dict, whichever the class has)."""
    for k, v in keep.items():
        setattr(node, k, v)


def packing_order(saved: dict[str, Any]) -> dict[str, Any]:
    """Saved inputs in the order PyTorch packs them: its generated code saves them sorted by
    name (`a * b` packs `other` before `self`), which pack hooks can observe."""
    return dict(sorted(saved.items()))


def save(t: Tensor) -> SavedTensor:
    """Save an input tensor for backward (PyTorch refuses inference tensors here)."""
    if not t._inference and not observer.SAVED_HOOKS:
        # the common case, without SavedTensor.__init__'s branches
        s: SavedTensor = _new(SavedTensor)
        s._tensor = t
        s._ver = v = t._ver
        s._ver_at = v[0]
        s._is_output = False
        s._hooks_packed = None
        s._data = None
        s._nr = 0
        s._rg = False
        return s
    if t._inference and not STATE.inference:
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
            "inference mode in computation tracked by autograd. To work around this, you can "
            "make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`."
        )
    return SavedTensor(t, False)


def zeros_for(node: Node, grads: Grads) -> list[Tensor]:
    """Replace missing output gradients of a multi-output node by zeros."""
    out = []
    for g, (shape, dt) in zip(grads, node._input_meta):
        out.append(g if g is not None else make(np.zeros(shape, dt), False, None, 0))
    return out


# -- reduced precision -------------------------------------------------------------------
_BF16 = _dtype.bfloat16.np
_F32 = np.dtype(np.float32)


def acc_dtype(d: np.dtype[Any]) -> np.dtype[Any] | None:
    """float32 for bfloat16 data (PyTorch's CPU kernels accumulate in it), else None."""
    return _F32 if d == _BF16 else None


def opmath(fn: Any, d: np.ndarray[Any, Any]) -> Any:
    """`fn(d)`, with bfloat16 data computed in float32 and rounded once (ATen's opmath type)."""
    if d.dtype == _BF16:
        return np.asarray(fn(d.astype(_F32))).astype(_BF16)
    return fn(d)


def matmul_np(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """`np.matmul`, with bfloat16 products summed in float32 and rounded once, as PyTorch."""
    if a.dtype == _BF16 or b.dtype == _BF16:
        return np.asarray(np.matmul(a.astype(_F32), b.astype(_F32))).astype(_BF16)
    return np.asarray(np.matmul(a, b))


# -- broadcasting ------------------------------------------------------------------------
def unbroadcast(g: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum `g` down to `shape`: the one place broadcasting is undone."""
    gs = g._d.shape
    if gs == shape:
        return g
    lead = len(gs) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and gs[i + lead] != 1
    )
    if not STATE.enabled:
        d = g._d
        if axes and d.dtype == _BF16:  # summed in float32, rounded once (as PyTorch's sum)
            r = d.astype(_F32).sum(axis=axes).astype(_BF16)
        else:
            r = d.sum(axis=axes) if axes else d
        return make(np.reshape(r, shape), False, None, 0)
    from engine.ops.reduce import sum as _sum
    from engine.ops.shape import reshape

    # PyTorch's sum_to: sum() to a scalar, else sum(dims, keepdim=True), then a view only
    # when leading dims were summed away (so create_graph records the same nodes)
    if not shape:
        return _sum(g)
    r2 = _sum(g, axes, True) if axes else g
    return reshape(r2, shape) if lead else r2


# -- operands ----------------------------------------------------------------------------
def as_tensor(x: Any, dtype: _dtype.dtype | None = None) -> Tensor:
    """A tensor from a Tensor, scalar, list or ndarray (no copy for tensors)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return make(x if dtype is None else x.astype(dtype.np), False, None, 0)
    if dtype is None:
        dtype = _dtype.scalar_dtype(x) if isinstance(x, bool | int | float) else None
    if dtype is None:
        arr = np.asarray(x)
        if _dtype.kind(arr.dtype) == "f":
            arr = arr.astype(_dtype.get_default_dtype().np)
        return make(arr, False, None, 0)
    return make(np.asarray(x, dtype=dtype.np), False, None, 0)


def in_shape(node: Node, i: int, g: Tensor) -> tuple[int, ...]:
    """Shape of input `i` of a broadcasting op (the gradient's shape when none was stored)."""
    shapes = node._shapes
    return g._d.shape if shapes is None else shapes[i]


def bshapes(a: Tensor, b: Any, out: np.ndarray[Any, Any]) -> tuple[tuple[int, ...], ...] | None:
    """Input shapes to store on a broadcasting op's node, or None when nothing broadcast."""
    bs = b._d.shape if isinstance(b, Tensor) else ()
    if a._d.shape == out.shape and bs == out.shape:
        return None
    return (a._d.shape, bs)


def binary_arrays(
    a: Tensor, b: Any
) -> tuple[np.ndarray[Any, Any], Any, Tensor | None, np.dtype[Any]]:
    """Operands of a binary op as arrays in PyTorch's result dtype.

    Returns (a_data, b_data, b_tensor_or_None, result numpy dtype). Python scalars stay scalars.
    """
    ad = a._d
    if isinstance(b, Tensor):
        bd = b._d
        if ad.dtype is bd.dtype or ad.dtype == bd.dtype:
            return ad, bd, b, ad.dtype
        rt = _dtype.result_type([(a.dtype, ad.ndim), (b.dtype, bd.ndim)], []).np
        return ad.astype(rt, copy=False), bd.astype(rt, copy=False), b, rt
    if isinstance(b, bool | int | float):
        kind = _dtype.kind(ad.dtype)
        if type(b) is float and kind != "f" and kind != "c":
            rt = _dtype.get_default_dtype().np
            return ad.astype(rt), b, None, rt
        if type(b) is float and ad.dtype == _BF16:  # the scalar is rounded to bfloat16 first
            return ad, float(np.asarray(b, _BF16)), None, ad.dtype
        if type(b) is int and kind == "b":
            return ad.astype(np.int64), b, None, np.dtype(np.int64)
        if type(b) is int and kind in "iu" and not -(2**63) <= b < 2**63:
            raise OverflowError("int too big to convert")
        if type(b) is int and kind in "iu" and b != (w := int(np.int64(b).astype(ad.dtype))):
            b = w  # PyTorch casts the scalar to the tensor's dtype, wrapping (int8 + 300)
        return ad, b, None, ad.dtype
    if isinstance(b, list | tuple):
        symbol = _operator_symbol()
        if symbol is not None:  # `t + [1, 2]`: PyTorch's Tensor.__add__ refuses lists
            raise _operand_error(symbol, b)
        return binary_arrays(a, as_tensor(b))
    if isinstance(b, np.ndarray) or hasattr(b, "__array__"):
        return binary_arrays(a, as_tensor(b))
    if isinstance(b, np.generic):
        return binary_arrays(a, b.item())
    if isinstance(b, complex):  # `x * 1j`: complex64 for float32/int/bool, complex128 for float64
        rt = _dtype.result_type([(a.dtype, ad.ndim)], [b]).np
        return ad.astype(rt, copy=False), b, None, rt
    symbol = _operator_symbol()
    if symbol is not None:
        raise _operand_error(symbol, b)
    raise TypeError(f"unsupported operand type for a Tensor op: '{type(b).__name__}'")


def _operator_symbol() -> str | None:
    """The operator (`+`, `*=`, ...) of the user's code that led here, or None for a call.

    Only on error paths: reads the caller's current bytecode instruction, so the operators
    themselves stay plain functions with no wrapper.
    """
    import dis
    import sys

    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset == frame.f_lasti:
            return ins.argrepr if ins.opname == "BINARY_OP" else None
    return None


def _operand_error(symbol: str, b: Any) -> TypeError:
    shown = "** or pow()" if symbol == "**" else symbol
    return TypeError(f"unsupported operand type(s) for {shown}: 'Tensor' and '{type(b).__name__}'")


_ENGINE_DIR = str(__import__("pathlib").Path(__file__).resolve().parents[1])


def float_array(a: Tensor) -> np.ndarray[Any, Any]:
    """The data of `a` for a floating op (ints and bools become the default float)."""
    d = a._d
    if _dtype.kind(d.dtype) != "f" and _dtype.kind(d.dtype) != "c":
        return d.astype(_dtype.get_default_dtype().np)
    return d


# -- in place ----------------------------------------------------------------------------
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def check_inplace(t: Tensor, *others: Any) -> None:
    """PyTorch's refusals before an in-place op on `t`."""
    if FW.on:  # pending tangents read their inputs: compute them before the write
        from engine.autograd.forward_jvp import flush

        flush()
    if t._view_fn is not None:
        from engine.ops.views import check_view_inplace

        check_view_inplace(t)
    elif t._base is not None and STATE.enabled and t._rg and "_custom_view" in t.__dict__:
        raise RuntimeError(custom_view_error(t))
    if STATE.enabled and t._rg and t._fn is None:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if t._inference and not STATE.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    tracer = observer.TRACER
    if tracer is not None:  # events not yet built must show the values before the write
        tracer.before_write(t)


def custom_view_error(t: Tensor) -> str:
    """PyTorch's refusal to modify in place an output that a custom Function returned as a view
    of (or as) one of its inputs."""
    return (
        f"Output {t._nr} of {t.__dict__['_custom_view']} is a view and is being modified "
        "inplace. This view was created inside a custom Function (or because an input was "
        "returned as-is) and the autograd logic to handle view+inplace would override the "
        "custom backward associated with the custom Function, leading to incorrect gradients. "
        "This behavior is forbidden. You can fix this by cloning the output of the custom "
        "Function."
    )


def overwrite(t: Tensor, values: Any) -> None:
    """Write `values` into `t`'s memory in place without recording (an initialiser, a state
    dict load, running statistics), as PyTorch's in-place ops under no_grad do: the version
    moves and a tracer sees the values before and after (engine/_tensor.py `write`)."""
    write(t, values)


def rebase(t: Tensor, out: Tensor) -> Tensor:
    """Make `t` (modified in place) take `out`'s data and history; returns `t`.

    For a view of a tensor in the graph, the base's history becomes a CopySlices node (see
    engine/ops/views.py), so gradients flow to the whole base.
    """
    new_tangent = None
    if FW.on:  # computed now: pending tangents read `t` before the write (and their nodes)
        from engine.autograd.forward_jvp import tangent_of

        new_tangent = tangent_of(out)
    src = t._d
    on_view = t._base is not None and (t._base._rg or out._rg)
    tracer = observer.TRACER
    if tracer is not None and out._fn is not None and not on_view:
        tracer.rebased(t, out)  # the op's output is `t` itself, at its new version
    if src is not out._d:  # (check_inplace told the observer before the op computed)
        write(t, out._d, told=True)
    else:  # the op wrote into t's memory itself
        with writing(t, told=True):
            pass
    if FW.on:
        from engine.autograd.forward_jvp import inplace_tangent

        inplace_tangent(t, new_tangent)
    if out._fn is not None:
        if on_view:
            from engine.ops.views import rebase_view

            rebase_view(t, out._fn)
        else:
            t._fn = out._fn
            t._nr = out._nr
            t._rg = True
            _fix_saved_output(out._fn, t)
            if "_views" in t.__dict__:  # its views now see the new history
                from engine.ops.views import regenerate_views

                regenerate_views(t)
    return t


def _fix_saved_output(node: Node, t: Tensor) -> None:
    # an op that saved its result saved `out`'s data; `t` now owns that history
    if node._saved is not None:
        for v in node._saved.values():
            if isinstance(v, SavedTensor) and v._is_output:
                v._data = t._d
                v._ver = t._ver
                v._ver_at = t._ver[0]


def broadcast_error(a: Any, b: Any, error: Exception | None = None) -> Exception:
    """PyTorch's message for shapes that do not broadcast (first clash from the right)."""
    sa, sb = np.shape(a), np.shape(b)
    nd = max(len(sa), len(sb))
    for i in range(nd - 1, -1, -1):
        x = sa[i - nd + len(sa)] if i - nd + len(sa) >= 0 else 1
        y = sb[i - nd + len(sb)] if i - nd + len(sb) >= 0 else 1
        if x != y and x != 1 and y != 1:
            return RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i}"
            )
    # the shapes were fine: NumPy refused for another reason
    return error if error is not None else ValueError(f"{list(sa)} and {list(sb)}")
