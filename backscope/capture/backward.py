"""Real torch's backward, node by node: backscope's own pre-hook on every node is its entry
(incoming gradients), its own post-hook its exit (outgoing gradients). A pass starts and ends
around `torch.autograd._engine_run_backward` (backward() and autograd.grad both go through it).

PyTorch runs a node's tensor hooks before its pre-hooks: what they do (their firings, what they
print) is held until the node's entry is reported, so the stream reads as the engine's does:
enter, hooks, exit. The ready queue and dependency counts are kept here as PyTorch's engine keeps
them (it does not expose its own).

The stepper pauses in the entry hook, on the thread running the backward, until the controller
says step / continue / stop; the rest of the process keeps running.
"""

from __future__ import annotations

from typing import Any

import torch

from backscope.capture.forward import Forward, ModuleScopes
from backscope.capture.hooks import Hooks
from backscope.capture.passes import Pass, count_dependencies
from backscope.capture.recorder import ACCUMULATE, Recorder
from backscope.capture.stepper import Stepper
from protocol import HookKind, TensorValue

_SEQ_MAX = 2**64 - 1


class Backward:
    """Records backward passes and runs the stepper."""

    def __init__(self, rec: Recorder, controller: Any, options: dict[str, Any]) -> None:
        self.rec = rec
        self.scopes = ModuleScopes(rec)
        self.forward = Forward(rec, self.scopes, controller)
        self.hooks = Hooks(rec, self)
        self.stepper = Stepper(rec, controller, options)
        self.passes: list[Pass] = []
        self.bid = -1
        self.seq: dict[int, int] = {}  # node id -> PyTorch's sequence number (queue order)
        self.failed: Any = None  # the node that raised, for the error event
        self.orig_run: Any = None
        rec.on_node = self._discovered

    # -- install -------------------------------------------------------------------------------
    def install(self) -> None:
        self.hooks.install()
        self.scopes.install()
        self.orig_run = torch.autograd._engine_run_backward
        orig = self.orig_run

        def run_backward(t_outputs: Any, *args: Any, **kwargs: Any) -> Any:
            return self.run(orig, t_outputs, args, kwargs)

        torch.autograd._engine_run_backward = run_backward

    def uninstall(self) -> None:
        if self.orig_run is not None:
            torch.autograd._engine_run_backward = self.orig_run
            self.orig_run = None
        self.scopes.uninstall()
        self.hooks.uninstall()

    def _discovered(self, node: Any, nid: int) -> None:
        seq = node._sequence_nr()
        self.seq[nid] = seq

        def pre(grad_outputs: Any) -> None:
            self.enter(nid, grad_outputs)

        def post(grad_inputs: Any, grad_outputs: Any) -> None:
            self.exit(nid, grad_inputs)

        self.hooks.own(node, nid, pre, post)

    # -- a pass --------------------------------------------------------------------------------
    def run(self, orig: Any, t_outputs: Any, args: tuple[Any, ...], kwargs: Any) -> Any:
        rec = self.rec
        grads = args[0] if args else kwargs.get("grad_tensors")
        keep = bool(args[1]) if len(args) > 1 else False
        create = bool(args[2]) if len(args) > 2 else False
        inputs = args[3] if len(args) > 3 else ()
        with rec.quiet():
            line, frame = rec.site()
            self.bid += 1
            p = Pass(self.bid, keep, create)
            roots = []
            for t in t_outputs:
                edge = (
                    t
                    if isinstance(t, torch.autograd.graph.GradientEdge)
                    else torch.autograd.graph.get_gradient_edge(t)
                )
                # (a backward run inside another one's node, as a reentrant checkpoint does:
                # the nodes it starts from were made during the outer pass)
                outer = self.passes[-1].bid if self.passes else None
                nid = rec.node_id(edge.node, line=line, backward=outer)
                roots.append({"node": nid, "input_nr": edge.output_nr})
                count_dependencies(rec, edge.node, p)
            p.ready = {
                r["node"] for r in roots if r["node"] is not None and not p.deps.get(r["node"])
            }
            ins = [rec.tensor_id(t, line, frame) for t in inputs or ()]
            rec.add(
                {
                    "type": "backward_started",
                    "t": rec.now(),
                    "backward": p.bid,
                    "roots": roots,
                    "grad_tensors": rec.grads(grads or ()),
                    "retain_graph": keep,
                    "create_graph": create,
                    "inputs": [i for i in ins if i is not None],
                    "line": line,
                },
                frame,
            )
            rec.flush()
        self.passes.append(p)
        self.forward.in_backward = p.bid
        try:
            out = orig(t_outputs, *args, **kwargs)
        except BaseException:
            with rec.quiet():
                # the node that was running, or (anomaly mode checks a node's outputs after its
                # post-hooks) the one that just ran
                node = p.current if p.current is not None else p.exit[0] if p.exit else None
                self.failed = rec.node_object(node) if node is not None else None
                self._settle(p)
            raise
        finally:
            self.passes.pop()
            self.forward.in_backward = self.passes[-1].bid if self.passes else None
        with rec.quiet():
            self._settle(p)
            rec.add(
                {
                    "type": "backward_finished",
                    "t": rec.now(),
                    "backward": p.bid,
                    "nodes_run": p.nodes_run,
                }
            )
            rec.flush()
        return out

    def _settle(self, p: Pass) -> None:
        """Report what waits: a held entry, an exit."""
        if p.held_for is not None:
            self._enter_event(p, p.held_for, None)
        self._flush_exit(p)

    def _flush_exit(self, p: Pass) -> None:
        if p.exit is None:
            return
        rec = self.rec
        nid, gs = p.exit
        p.exit = None
        rec.add(
            {
                "type": "node_exit",
                "t": rec.now(),
                "backward": p.bid,
                "node": nid,
                "grad_inputs": rec.grads(gs),
                "freed": not p.keep_graph and bool(rec.node_saved.get(nid)),
            }
        )

    def _pass(self) -> Pass | None:
        return self.passes[-1] if self.passes else None

    # -- entry and exit (backscope's own node hooks) -------------------------------------------
    def enter(self, nid: int, grad_outputs: Any) -> None:
        p = self._pass()
        if p is None:
            return
        rec = self.rec
        with rec.quiet():
            self._flush_exit(p)
            self._enter_event(p, nid, grad_outputs)
            p.enter_grads[nid] = grad_outputs
            p.current = nid
        self.stepper.at_node(nid, p.bid, grad_outputs)

    def _enter_event(self, p: Pass, nid: int, grad_outputs: Any) -> None:
        rec = self.rec
        if nid in p.entered:
            return
        p.entered.add(nid)
        p.ready.discard(nid)
        gs = rec.grads(grad_outputs) if grad_outputs is not None else []
        for slot, v in p.slot_grads.pop(nid, {}).items():  # as given, before the tensor hooks
            while len(gs) <= slot:
                gs.append(None)
            gs[slot] = v
        node = rec.node_object(nid)
        deps = []
        for m, _ in node.next_functions if node is not None else ():
            if m is not None:
                mid = rec.node_id(m)
                if mid is not None:
                    deps.append({"node": mid, "count": p.deps.get(mid, 0)})
        queue = sorted(p.ready, key=lambda n: (-self.seq.get(n, 0), n))
        held, p.held, p.held_for = p.held, [], None
        rec.divert = None
        rec.add(
            {
                "type": "node_enter",
                "t": rec.now(),
                "backward": p.bid,
                "node": nid,
                "grad_outputs": gs,
                "queue": queue,
                "deps": deps,
            }
        )
        for event, frame in held:
            rec.add(event, frame)

    def exit(self, nid: int, grad_inputs: Any) -> None:
        p = self._pass()
        if p is None:
            return
        rec = self.rec
        with rec.quiet():
            node = rec.node_object(nid)
            if node is not None and node.name() == ACCUMULATE:
                self._accumulated(p, nid, node.variable)
            p.nodes_run += 1
            p.exit = [nid, list(grad_inputs)]
            p.current = None
            for m, _ in node.next_functions if node is not None else ():
                if m is None:
                    continue
                mid = rec.node_id(m)
                if mid is None:
                    continue
                p.deps[mid] = p.deps.get(mid, 0) - 1
                if p.deps[mid] <= 0:
                    p.ready.add(mid)
            if p.create_graph:  # nodes made by the backward itself, drawn as discovered
                for g in grad_inputs:
                    if isinstance(g, torch.Tensor) and g.grad_fn is not None:
                        rec.node_id(g.grad_fn, backward=p.bid, mode="grad")

    def _accumulated(self, p: Pass, nid: int, var: Any) -> None:
        if nid in p.accumulated:
            return
        p.accumulated.add(nid)
        rec = self.rec
        gs = p.enter_grads.get(nid) or (None,)
        total = var.grad
        rec.own_grad(var)
        rec.add(
            {
                "type": "grad_accumulated",
                "t": rec.now(),
                "backward": p.bid,
                "node": nid,
                "tensor": rec.tensor_id(var),
                "grad": rec.grads(gs[:1])[0],
                "total": rec.value(total) if isinstance(total, torch.Tensor) else None,
            }
        )

    # -- the user's hooks, as they fire --------------------------------------------------------
    def tensor_hook(self, hid: int, nid: int | None, slot: int, fn: Any, grad: Any) -> Any:
        p = self._pass()
        rec = self.rec
        if p is not None and nid is not None and nid not in p.entered:
            with rec.quiet():
                self._flush_exit(p)
                if p.held_for not in (None, nid):
                    self._enter_event(p, p.held_for, None)  # (its own entry never came)
                p.slot_grads.setdefault(nid, {}).setdefault(slot, rec.value(grad))
                p.held_for = nid
                rec.divert = p.held
        res = fn(grad)
        self._fired("tensor", hid, nid, [grad], None if res is None else [res])
        return res

    def node_hook(self, kind: HookKind, hid: int, nid: int, fn: Any, args: tuple[Any, ...]) -> Any:
        res = fn(*args)
        p = self._pass()
        if kind == "node_post" and p is not None and res is not None and p.exit is not None:
            p.exit[1] = list(res)
        out = None if res is None else list(res) if isinstance(res, tuple | list) else [res]
        self._fired(kind, hid, nid, list(args[0]), out)
        return res

    def post_accumulate_hook(self, hid: int, nid: int | None, fn: Any, param: Any) -> Any:
        p = self._pass()
        rec = self.rec
        with rec.quiet():
            if p is not None and nid is not None:
                self._accumulated(p, nid, param)
            g = param.grad
            before = (g, g._version if g is not None else None)
            gin = [rec.value(g) if g is not None else None]
        res = fn(param)
        with rec.quiet():
            g = param.grad
            changed = g is not before[0] or (g is not None and g._version != before[1])
            self._fired("post_accumulate", hid, nid, None, [g] if changed else None, gin)
            if changed:
                rec.grad_changed(param, "hook", None, None, hid)
        return res

    def module_hook(
        self, kind: HookKind, hid: int, fn: Any, args: tuple[Any, ...], kwargs: Any
    ) -> Any:
        res = fn(*args, **kwargs)
        module = args[0]
        if kind in ("module_forward_pre", "module_forward"):
            gin = [a for a in _leaves(args[1]) if isinstance(a, torch.Tensor)]
        else:
            gin = list(args[1]) if args[1] is not None else []
        out = None if res is None else _leaves(res)
        p = self._pass()
        nid = p.current if p is not None and kind.startswith("module_backward") else None
        self._fired(kind, hid, nid, gin, out, path=self.scopes.path_of(module))
        return res

    def _fired(
        self,
        kind: HookKind,
        hid: int,
        nid: int | None,
        gin: list[Any] | None,
        gout: list[Any] | None,
        gin_values: list[TensorValue | None] | None = None,
        path: str | None = None,
    ) -> None:
        rec = self.rec
        p = self._pass()
        forward = kind in ("module_forward_pre", "module_forward")
        with rec.quiet():
            rec.add(
                {
                    "type": "hook_fired",
                    "t": rec.now(),
                    "hook": hid,
                    "kind": kind,
                    "backward": p.bid if p is not None and not forward else None,
                    "node": nid if not forward else None,
                    "grad_in": gin_values if gin_values is not None else rec.grads(gin or []),
                    "grad_out": rec.grads(gout) if gout is not None else None,
                    "module_path": path,
                }
            )

    def unpacked(self, box: Any) -> None:
        """The user's unpack hook is about to run for a saved tensor."""
        rec = self.rec
        hit = rec.packed_names.get(id(box))
        p = self._pass()
        with rec.quiet():
            rec.add(
                {
                    "type": "saved_unpack",
                    "t": rec.now(),
                    "node": hit[0] if hit is not None else (p.current if p else None),
                    "name": hit[1] if hit is not None else None,
                }
            )


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, tuple | list):
        return list(x)
    return [x]
