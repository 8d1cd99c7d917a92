"""Batch side of the tracer: one builder per capture type (`captures.py`), appending events of
the protocol's vocabulary (typed dict literals: checked by mypy, free at run time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.autograd.graph import AccumulateGrad, Node, SavedTensor
from engine.tracing import captures as cap
from protocol import (
    Cut,
    EdgeRef,
    GradChanged,
    GradMode,
    HookFired,
    HookRegistered,
    NodeEvent,
    SavedInfo,
    SavedPack,
    TensorInfo,
    TensorValue,
    VersionBump,
)

if TYPE_CHECKING:
    from engine.tracing.tracer import Event, Tracer

Out = list["Event"]


def tensor_info(
    tr: Tracer,
    t: Tensor,
    line: int | None,
    fn: Node | None = None,
    mode: GradMode | None = None,
    backward: int | None = None,
) -> TensorInfo:
    """The description of a tensor, giving it an id (`mode`: the grad mode it was made in,
    when known: an output of a recorded node was made in grad mode, an inference tensor in
    inference mode)."""
    tid = tr.tensors.of(t)
    first = tid not in tr.described
    tr.described.add(tid)
    fn = t._fn if fn is None else fn
    v = tr.value(t._d, tid)
    if mode is not None or backward is not None:
        tr.made[tid] = (mode, backward)  # (for telling it again with a name)
    elif not first:
        mode, backward = tr.made.get(tid, (None, None))
    if mode is None:
        if t._inference:
            mode = "inference_mode"
        elif t._fn is not None:
            mode = "grad"
    name = tr.names.get(id(t))
    found = None
    if name is None and first and t._rg and t._fn is None:
        found = tr.name_now(t)  # a leaf that requires grad: drawn with the name it keeps
        if found is not None:
            name = found[0]
            tr.name_depth[id(t)] = found[1]
    if tr.unnamed and (line is None or first):
        # the line that made a leaf described late (first used by an op on another line)
        held = tr.unnamed.get(id(t))
        if held is not None and (line is None or held[0]() is t):
            line = held[1]
    told = tr.told.get(tid)
    if name is not None:
        depth = tr.name_depth.pop(id(t)) if found is not None else tr.name_depth[id(t)]
        if told is not None and told[1] <= depth:
            name, depth = told  # a deeper frame's name does not replace a shallower one
        elif told != (name, depth):
            tr.told[tid] = (name, depth)
    elif told is not None:
        name, depth = told  # (its variable since rebound: the tensor keeps its name)
    if name is None:
        # described before the snippet's frame that names it was seen in a batch (`x` bound
        # at the top level, used only inside a model's forward; `logits = model(x)` flushed
        # before the assignment): told again once a batch finds its name
        tr.unnamed_tensor(t, line)
    elif depth > 0:
        tr.unnamed_tensor(t, line, depth)  # told again if a shallower frame names it
    elif tr.unnamed:
        tr.unnamed.pop(id(t), None)  # described with its name: nothing left to tell
    return {
        "id": tid,
        "shape": v["shape"],  # one list object, serialized twice
        "dtype": v["dtype"],
        "requires_grad": t._rg,
        "is_leaf": t._fn is None,
        "version": t._ver[0],
        "grad_fn": tr.nodes.get(fn) if fn is not None else None,
        "output_nr": t._nr,
        "name": name,
        "line": line,
        "grad_mode": mode,
        "backward": backward,
        "value": v,
    }


def tensor_id(
    tr: Tracer,
    t: Any,
    ts: int,
    line: int | None,
    out: Out,
    mode: GradMode | None = None,
    backward: int | None = None,
) -> int | None:
    """The id of a tensor, emitting its `tensor` event first when it has not been seen."""
    if not isinstance(t, Tensor):
        return None
    tid = tr.tensors.get(t)
    if tid is None or tid not in tr.described:  # a gradient may have an id but no event yet
        info = tensor_info(tr, t, line, None, mode, backward)
        out.append({"type": "tensor", "t": ts - tr.t0, "tensor": info})
        tid = info["id"]
    return tid


def node_id(tr: Tracer, node: Node | None, ts: int, out: Out, rank: int = -1) -> int | None:
    """The id of a node, emitting events for it (and unseen nodes below it) first; nodes
    first seen below a rank's node (its leaves' AccumulateGrad) carry that rank."""
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
        made = cap.NodeMade(ts, None, None, n, (), (), "grad", None, None, None, rank)
        _node_event(tr, made, out)
    return tr.nodes.get(node)


def _edges(tr: Tracer, node: Node, ts: int, out: Out, rank: int) -> list[EdgeRef]:
    lo, hi = tr.nodes.lo, tr.nodes.hi
    res: list[EdgeRef] = []
    for m, nr in node.next_functions:
        nid = None
        if m is not None:
            v = m._tr_id  # Ids.get, inline
            nid = v - lo if lo <= v < hi else node_id(tr, m, ts, out, rank)
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
) -> list[SavedInfo]:
    """The node's saved tensors; `saved_pack` events for hooked ones go to `late` (they follow
    the node's own event)."""
    res: list[SavedInfo] = []
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
            pack: SavedPack = {
                "type": "saved_pack",
                "t": ts - tr.t0,
                "node": tr.nodes.get(node),
                "name": name,
                "tensor": tid,
                "packed_type": type(packed).__name__,
            }
            late.append(pack)
    return res


def _node_event(tr: Tracer, it: cap.NodeMade, out: Out) -> None:
    node, ts, line, outputs = it.node, it.ts, it.line, it.outputs
    nexts = _edges(tr, node, ts, out, it.rank)
    lo, hi = tr.tensors.lo, tr.tensors.hi
    described = tr.described
    ins = []
    for t in it.inputs:  # the common case (a tensor already described) without calls
        v = t._tr_id if t is not None else 0
        tid = v - lo if lo <= v < hi else None
        ins.append(tid if tid in described else tensor_id(tr, t, ts, line, out))
    var = None
    if type(node) is AccumulateGrad:
        var = tensor_id(tr, node.variable, ts, line, out)
    nid = tr.nodes.of(node)
    tr.node_lines[nid] = line
    bw = it.backward
    outs = [tensor_info(tr, o, line, node if o._fn is node else None, it.mode, bw) for o in outputs]
    late: Out = []
    saved = (
        _saved(tr, node, outputs, ts, out, late)
        if node._saved or "_packed" in node.__dict__
        else []
    )
    mcalls = it.module_calls
    event: NodeEvent = {
        "type": "node",
        "t": ts - tr.t0,
        "id": nid,
        "name": node.name(),
        "next": nexts,
        "inputs": ins,
        "outputs": outs,
        "saved": saved,
        "line": line,
        "grad_mode": it.mode,
        "module_path": it.module_path,
        "module_calls": list(mcalls) if mcalls is not None else None,
        "variable": var,
        "backward": bw,
    }
    if it.rank >= 0:  # a torch.distributed rank's thread: each rank's graph is labelled
        event["rank"] = it.rank
    out.append(event)
    out.extend(late)


def _b_tensor(tr: Tracer, it: cap.TensorMade, out: Out) -> None:
    t = it.tensor
    if t._rg and t._fn is None and tr.tensors.get(t) not in tr.described and tr.name_now(t) is None:
        # a leaf that requires grad and has no name yet (a parameter in its module's
        # __init__): described once a batch finds its name, or when an op first uses it, so
        # its box is drawn with the name it will keep
        tr.unnamed_tensor(t, it.line)
        return
    tensor_id(tr, t, it.ts, it.line, out, it.mode, it.backward)


def _b_node(tr: Tracer, it: cap.NodeMade, out: Out) -> None:
    if tr.nodes.get(it.node) is None:
        _node_event(tr, it, out)


def _b_untracked(tr: Tracer, it: cap.Untracked, out: Out) -> None:
    ts, line = it.ts, it.line
    ins = [tensor_id(tr, t, ts, line, out) for t in it.inputs]
    outs = [tensor_info(tr, o, line, None, it.mode) for o in it.outputs]
    out.append(
        {
            "type": "untracked_op",
            "t": ts - tr.t0,
            "name": it.name,
            "inputs": ins,
            "outputs": outs,
            "line": line,
            "grad_mode": it.mode,
            "module_path": it.module_path,
            "module_calls": list(it.module_calls) if it.module_calls is not None else None,
        }
    )


def _b_cut(tr: Tracer, it: cap.CutMade, out: Out) -> None:
    ts, line = it.ts, it.line
    src = tensor_id(tr, it.tensor, ts, line, out)
    made = tensor_id(tr, it.output, ts, line, out) if it.output is not None else None
    event: Cut = {
        "type": "cut",
        "t": ts - tr.t0,
        "kind": it.kind,
        "tensor": src,
        "output": made,
        "line": line,
    }
    out.append(event)


def _b_requires_grad(tr: Tracer, it: cap.RequiresGradSet, out: Out) -> None:
    tid = tensor_id(tr, it.tensor, it.ts, it.line, out)
    out.append(
        {
            "type": "requires_grad_set",
            "t": it.ts - tr.t0,
            "tensor": tid,
            "requires_grad": it.value,
            "line": it.line,
        }
    )


def _b_retain(tr: Tracer, it: cap.GradRetained, out: Out) -> None:
    tid = tensor_id(tr, it.tensor, it.ts, it.line, out)
    out.append({"type": "retain_grad", "t": it.ts - tr.t0, "tensor": tid, "line": it.line})


def _b_bump(tr: Tracer, it: cap.Bumped, out: Out) -> None:
    t = it.tensor
    if id(t) in tr.unnamed and tr.tensors.get(t) not in tr.described and tr.name_now(t) is None:
        return  # a leaf not shown yet (above): its first description has its version then
    tid = tensor_id(tr, it.tensor, it.ts, it.line, out)
    fn = node_id(tr, it.grad_fn, it.ts, out)
    event: VersionBump = {
        "type": "version_bump",
        "t": it.ts - tr.t0,
        "tensor": tid,
        "version": it.version,
        "grad_fn": fn,
        "line": it.line,
        "value": tr.value(it.data, tid),
    }
    out.append(event)


def _b_grad_reset(tr: Tracer, it: cap.GradReset, out: Out) -> None:
    tid = tensor_id(tr, it.tensor, it.ts, it.line, out)
    event: GradChanged = {
        "type": "grad_changed",
        "t": it.ts - tr.t0,
        "tensor": tid,
        "how": it.how,
        "value": tr.value(it.data) if it.data is not None else None,
        "line": it.line,
    }
    if it.hook is not None:
        event["hook"] = it.hook
    out.append(event)


def _b_hook_reg(tr: Tracer, it: cap.HookRegistered, out: Out) -> None:
    target = it.target
    fn = it.fn
    event: HookRegistered = {
        "type": "hook_registered",
        "t": it.ts - tr.t0,
        "hook": it.hook,
        "kind": it.kind,
        "target_kind": "module",
        "target": None,
        "fn": str(getattr(fn, "__qualname__", None) or type(fn).__name__)[:200],
        "line": it.line,
    }
    if isinstance(target, Tensor):
        event["target_kind"] = "tensor"
        event["target"] = tensor_id(tr, target, it.ts, it.line, out)
    elif isinstance(target, Node):
        event["target_kind"] = "node"
        event["target"] = node_id(tr, target, it.ts, out)
    else:
        event["module_type"] = type(target).__name__
        event["module_path"] = it.module_path
    out.append(event)


def _b_hook_rm(tr: Tracer, it: cap.HookRemoved, out: Out) -> None:
    out.append({"type": "hook_removed", "t": it.ts - tr.t0, "hook": it.hook, "line": it.line})


def grads(tr: Tracer, gs: Any) -> list[TensorValue | None]:
    """Gradients (tensors or None) as wire values."""
    res: list[TensorValue | None] = []
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


def _b_hook_fired(tr: Tracer, it: cap.HookFired, out: Out) -> None:
    kind, args, res = it.kind, it.args, it.out
    gout = None
    if kind == "post_accumulate":
        # the .grad the hook was given; out: what it left there, when it changed it
        kept, version, value = it.before if it.before is not None else (None, None, None)
        g = args[0]._grad
        gin = [value]
        if g is not kept or (g is not None and g._ver[0] != version):
            gout = grads(tr, [g])
    elif kind == "tensor":
        gin = grads(tr, [args[0]])
    elif kind in ("module_forward_pre", "module_forward"):
        gin = grads(tr, args[1])  # the module's tensor inputs (args[2] is forward's output)
    elif kind == "module_backward":
        gin = grads(tr, args[1])  # grad_input; args[2] is grad_output
    elif kind == "module_backward_pre":
        gin = grads(tr, args[1])  # grad_output
    else:
        gin = grads(tr, args[0])
    if res is not None:
        gout = grads(tr, [res] if isinstance(res, Tensor) else _flat(res))
    node = it.node
    event: HookFired = {
        "type": "hook_fired",
        "t": it.ts - tr.t0,
        "hook": it.hook,
        "kind": kind,
        "backward": it.backward,
        "node": tr.nodes.get(node) if node is not None else None,
        "grad_in": gin,
        "grad_out": gout,
        "module_path": it.module_path,
    }
    out.append(event)


def _flat(res: Any) -> list[Any]:
    """A hook's result as a list (a forward pre-hook may return (args, kwargs))."""
    if isinstance(res, tuple | list):
        return list(res)
    return [res]


def _b_unpack(tr: Tracer, it: cap.Unpacked, out: Out) -> None:
    node = it.node
    nid = tr.nodes.get(node) if node is not None else None
    out.append({"type": "saved_unpack", "t": it.ts - tr.t0, "node": nid, "name": it.name})


def _b_menter(tr: Tracer, it: cap.ModuleEntered, out: Out) -> None:
    out.append(
        {
            "type": "module_enter",
            "t": it.ts - tr.t0,
            "path": it.path,
            "module_type": it.module_type,
            "line": it.line,
            "call": it.call,
        }
    )


def _b_mexit(tr: Tracer, it: cap.ModuleExited, out: Out) -> None:
    out.append(
        {
            "type": "module_exit",
            "t": it.ts - tr.t0,
            "path": it.path,
            "call": it.call,
            "output_shape": it.output_shape,
        }
    )


def _b_raw(tr: Tracer, it: cap.Raw, out: Out) -> None:
    out.append(it.event)


BUILDERS: dict[type, Callable[[Tracer, Any, Out], None]] = {
    cap.TensorMade: _b_tensor,
    cap.NodeMade: _b_node,
    cap.Untracked: _b_untracked,
    cap.CutMade: _b_cut,
    cap.RequiresGradSet: _b_requires_grad,
    cap.GradRetained: _b_retain,
    cap.Bumped: _b_bump,
    cap.GradReset: _b_grad_reset,
    cap.HookRegistered: _b_hook_reg,
    cap.HookRemoved: _b_hook_rm,
    cap.HookFired: _b_hook_fired,
    cap.Unpacked: _b_unpack,
    cap.ModuleEntered: _b_menter,
    cap.ModuleExited: _b_mexit,
    cap.Raw: _b_raw,
}
