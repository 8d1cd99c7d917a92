"""Batch side of the tracer: one builder per captured tuple kind, appending event dicts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.autograd.graph import AccumulateGrad, Node, SavedTensor

if TYPE_CHECKING:
    from engine.tracing.tracer import Event, Tracer

Item = tuple[Any, ...]
Out = list["Event"]


def tensor_info(tr: Tracer, t: Tensor, line: int | None, fn: Node | None = None) -> dict[str, Any]:
    """The description of a tensor, giving it an id."""
    tid = tr.tensors.of(t)
    tr.described.add(tid)
    fn = t._fn if fn is None else fn
    v = tr.value(t._d, tid)
    return {
        "id": tid,
        "shape": v["shape"],  # one list object, serialized twice
        "dtype": v["dtype"],
        "requires_grad": t._rg,
        "is_leaf": t._fn is None,
        "version": t._ver[0],
        "grad_fn": tr.nodes.get(fn) if fn is not None else None,
        "output_nr": t._nr,
        "name": tr.names.get(id(t)),
        "line": line,
        "value": v,
    }


def tensor_id(tr: Tracer, t: Any, ts: int, line: int | None, out: Out) -> int | None:
    """The id of a tensor, emitting its `tensor` event first when it has not been seen."""
    if not isinstance(t, Tensor):
        return None
    tid = tr.tensors.get(t)
    if tid is None or tid not in tr.described:  # a gradient may have an id but no event yet
        info = tensor_info(tr, t, line)
        out.append(tr.event("tensor", ts, tensor=info))
        tid = info["id"]
    return tid


def node_id(tr: Tracer, node: Node | None, ts: int, out: Out) -> int | None:
    """The id of a node, emitting events for it (and unseen nodes below it) first."""
    if node is None:
        return None
    nid = tr.nodes.get(node)
    if nid is not None:
        return nid
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        n, ready = stack.pop()
        if tr.nodes.get(n) is not None:
            continue
        if not ready:
            stack.append((n, True))
            stack.extend((m, False) for m, _ in n.next_functions if m is not None)
            continue
        _node_event(tr, n, ts, None, (), (), "grad", None, None, out)
    return tr.nodes.get(node)


def _edges(tr: Tracer, node: Node, ts: int, out: Out) -> list[dict[str, Any]]:
    lo, hi = tr.nodes.lo, tr.nodes.hi
    res = []
    for m, nr in node.next_functions:
        nid = None
        if m is not None:
            v = m._tr_id  # Ids.get, inline
            nid = v - lo if lo <= v < hi else node_id(tr, m, ts, out)
        res.append({"node": nid, "input_nr": nr})
    return res


def saved_store(node: Node) -> dict[str, Any]:
    """A node's saved values by name, a custom Function's as `saved_tensors[i]`."""
    store: dict[str, Any] = node._saved or {}
    packed = node.__dict__.get("_packed")
    if packed:
        store = dict(store)
        for i, s in enumerate(packed):
            store[f"saved_tensors[{i}]"] = s
    return store


def _saved(
    tr: Tracer, node: Node, outputs: tuple[Tensor, ...], ts: int, out: Out, late: Out
) -> list[Any]:
    """The node's saved tensors; `saved_pack` events for hooked ones go to `late` (they follow
    the node's own event)."""
    res = []
    for name, v in saved_store(node).items():
        if not isinstance(v, SavedTensor):
            inner = getattr(v, "t", None)  # custom Function saved outside grad mode
            if isinstance(inner, Tensor):
                res.append({"name": name, "tensor": tensor_id(tr, inner, ts, None, out)})
            else:
                res.append({"name": name, "repr": repr(v)[:200]})
            continue
        tid = None
        src = tr.packed.pop(id(v), None) if v._hooks_packed is not None else None
        if src is not None and src[0] is v:
            tid = tensor_id(tr, src[1], ts, None, out)
        elif v._tensor is not None:
            tid = tensor_id(tr, v._tensor, ts, None, out)
        elif v._is_output:
            for o in outputs:
                if o._d is v._data:
                    tid = tr.tensors.get(o)
        res.append(
            {
                "name": name,
                "tensor": tid,
                "version": v._ver_at,
                "hooked": v._hooks_packed is not None,
            }
        )
        if v._hooks_packed is not None:
            packed = v._hooks_packed[1]
            late.append(
                tr.event(
                    "saved_pack",
                    ts,
                    node=tr.nodes.get(node),
                    name=name,
                    tensor=tid,
                    packed_type=type(packed).__name__,
                )
            )
    return res


def _node_event(
    tr: Tracer,
    node: Node,
    ts: int,
    line: int | None,
    outputs: tuple[Tensor, ...],
    inputs: tuple[Any, ...],
    mode: str,
    mpath: str | None,
    mcalls: tuple[int, ...] | None,
    out: Out,
) -> None:
    nexts = _edges(tr, node, ts, out)
    lo, hi = tr.tensors.lo, tr.tensors.hi
    described = tr.described
    ins = []
    for t in inputs:  # the common case (a tensor already described) without calls
        v = t._tr_id if t is not None else 0
        tid = v - lo if lo <= v < hi else None
        ins.append(tid if tid in described else tensor_id(tr, t, ts, line, out))
    var = None
    if type(node) is AccumulateGrad:
        var = tensor_id(tr, node.variable, ts, line, out)  # type: ignore[attr-defined]
    nid = tr.nodes.of(node)
    tr.node_lines[nid] = line
    outs = [tensor_info(tr, o, line, node if o._fn is node else None) for o in outputs]
    late: Out = []
    saved = (
        _saved(tr, node, outputs, ts, out, late)
        if node._saved or "_packed" in node.__dict__
        else []
    )
    out.append(
        {
            "type": "node",
            "t": ts - tr.t0,
            "id": nid,
            "name": node.name(),
            "next": nexts,
            "inputs": ins,
            "outputs": outs,
            "saved": saved,
            "line": line,
            "grad_mode": mode,
            "module_path": mpath,
            "module_calls": list(mcalls) if mcalls is not None else None,
            "variable": var,
        }
    )
    out.extend(late)


def _b_tensor(tr: Tracer, it: Item, out: Out) -> None:
    tensor_id(tr, it[4], it[1], it[2], out)


def _b_node(tr: Tracer, it: Item, out: Out) -> None:
    if tr.nodes.get(it[4]) is None:
        _node_event(tr, it[4], it[1], it[2], it[5], it[6], it[7], it[8], it[9], out)


def _b_untracked(tr: Tracer, it: Item, out: Out) -> None:
    ins = [tensor_id(tr, t, it[1], it[2], out) for t in it[6]]
    outs = [tensor_info(tr, o, it[2]) for o in it[5]]
    out.append(
        tr.event(
            "untracked_op", it[1], name=it[4], inputs=ins, outputs=outs, line=it[2], grad_mode=it[7]
        )
    )


def _b_bump(tr: Tracer, it: Item, out: Out) -> None:
    tid = tensor_id(tr, it[4], it[1], it[2], out)
    fn = node_id(tr, it[7], it[1], out)
    out.append(
        tr.event(
            "version_bump",
            it[1],
            tensor=tid,
            version=it[5],
            grad_fn=fn,
            line=it[2],
            value=tr.value(it[6], tid),
        )
    )


def _target(tr: Tracer, target: Any, ts: int, line: int | None, out: Out) -> tuple[str, int | None]:
    if isinstance(target, Tensor):
        return "tensor", tensor_id(tr, target, ts, line, out)
    if isinstance(target, Node):
        return "node", node_id(tr, target, ts, out)
    return type(target).__name__, None


def _b_hook_reg(tr: Tracer, it: Item, out: Out) -> None:
    kind_t, tid = _target(tr, it[6], it[1], it[2], out)
    fn = it[7]
    fname = str(getattr(fn, "__qualname__", None) or type(fn).__name__)[:200]
    out.append(
        tr.event(
            "hook_registered",
            it[1],
            hook=it[4],
            kind=it[5],
            target_kind=kind_t,
            target=tid,
            fn=fname,
            line=it[2],
        )
    )


def _b_hook_rm(tr: Tracer, it: Item, out: Out) -> None:
    out.append(tr.event("hook_removed", it[1], hook=it[4], line=it[2]))


def grads(tr: Tracer, gs: Any) -> list[Any]:
    """Gradients (tensors or None) as wire values."""
    res: list[Any] = []
    inline = tr.inline
    value = tr.value
    for g in gs:
        if g is None or not isinstance(g, Tensor):
            res.append(None)
            continue
        d = g._d
        # a large gradient gets a tensor id, so its full values can be asked for
        res.append(value(d) if d.size <= inline else value(d, tr.tensors.of(g)))
    return res


def _b_hook_fired(tr: Tracer, it: Item, out: Out) -> None:
    kind, args, res = it[4], it[6], it[7]
    gout = None
    if kind == "post_accumulate":
        # the .grad the hook was given; out: what it left there, when it changed it
        kept, version, value = it[10] if it[10] is not None else (None, None, None)
        g = args[0]._grad
        gin = [value]
        if g is not kept or (g is not None and g._ver[0] != version):
            gout = grads(tr, [g])
    elif kind == "tensor":
        gin = grads(tr, [args[0]])
    else:
        gin = grads(tr, args[0])
    if res is not None:
        gout = grads(tr, [res] if isinstance(res, Tensor) else list(res))
    node = it[9]
    out.append(
        tr.event(
            "hook_fired",
            it[1],
            hook=it[5],
            kind=kind,
            backward=it[8],
            node=tr.nodes.get(node) if node is not None else None,
            grad_in=gin,
            grad_out=gout,
        )
    )


def _b_unpack(tr: Tracer, it: Item, out: Out) -> None:
    node = it[5]
    nid = tr.nodes.get(node) if node is not None else None
    out.append(tr.event("saved_unpack", it[1], node=nid, name=it[6]))


def _b_menter(tr: Tracer, it: Item, out: Out) -> None:
    out.append(
        tr.event("module_enter", it[1], path=it[4], module_type=it[5], line=it[2], call=it[6])
    )


def _b_mexit(tr: Tracer, it: Item, out: Out) -> None:
    out.append(tr.event("module_exit", it[1], path=it[4], call=it[5]))


def _b_raw(tr: Tracer, it: Item, out: Out) -> None:
    out.append(tr.event(it[4], it[1], **it[5]))


BUILDERS: dict[str, Callable[[Tracer, Item, Out], None]] = {
    "tensor": _b_tensor,
    "node": _b_node,
    "untracked_op": _b_untracked,
    "version_bump": _b_bump,
    "hook_registered": _b_hook_reg,
    "hook_removed": _b_hook_rm,
    "hook_fired": _b_hook_fired,
    "saved_unpack": _b_unpack,
    "module_enter": _b_menter,
    "module_exit": _b_mexit,
    "raw": _b_raw,
}
