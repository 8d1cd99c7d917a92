// The backward pass as events tell it: which node runs, what flowed along each edge, which
// .grad got what, which hooks fired (folded here once, so no panel scans the event log).
import type { Event, GradChanged, HookFired, HookRegistered, HookRemoved, RetainGrad, TensorValue } from "../protocol";
import type { HookInfo, RunState, Value } from "./types";
import { CowMap } from "./cowmap";
import { sid } from "./forward";
import { parseValue } from "./value";

function values(xs: readonly (TensorValue | null)[]): Value[] {
  const out: Value[] = [];
  for (const x of xs) {
    const v = parseValue(x);
    if (v) out.push(v);
  }
  return out;
}

/** A protocol 2 log's separate event for what node_exit's `freed` says now (stored runs). */
interface LegacyBuffersFreed {
  type: "buffers_freed";
  node: number | null;
}

function isLegacyFreed(ev: Event | LegacyBuffersFreed): ev is LegacyBuffersFreed {
  return ev.type === "buffers_freed";
}

/** Fold a backward event; false when `ev` is not one. */
export function onBackward(s: RunState, ev: Event): boolean {
  const legacy = ev as Event | LegacyBuffersFreed;
  if (isLegacyFreed(legacy)) {
    const node = sid(legacy.node);
    if (node !== null) s.nodeState.set(node, "freed");
    return true;
  }
  switch (ev.type) {
    case "backward_started":
      s.inBackward = true;
      s.backwards += 1;
      s.edgeGrads = new CowMap();
      s.gradOutputs = new CowMap();
      s.firings = [];
      s.backwardCalls.push({ seq: ev.seq, line: ev.line, retainGraph: ev.retain_graph, createGraph: ev.create_graph });
      for (const [k, v] of s.nodeState) if (v !== "freed") s.nodeState.delete(k);
      return true;
    case "node_enter": {
      const node = sid(ev.node);
      if (node === null) return true;
      if (s.current && s.nodeState.get(s.current) === "running") s.nodeState.set(s.current, "done");
      s.current = node;
      if (s.nodeState.get(node) !== "freed") s.nodeState.set(node, "running");
      s.readyQueue = [];
      for (const q of ev.queue) if (q !== null) s.readyQueue.push(String(q));
      for (const q of s.readyQueue) if (!s.nodeState.has(q)) s.nodeState.set(q, "ready");
      s.deps = new Map();
      for (const d of ev.deps) if (d.node !== null) s.deps.set(String(d.node), d.count);
      s.gradOutputs.set(node, values(ev.grad_outputs));
      return true;
    }
    case "node_exit": {
      const node = sid(ev.node);
      if (node === null) return true;
      if (ev.freed) s.nodeState.set(node, "freed");
      else if (s.nodeState.get(node) !== "freed") s.nodeState.set(node, "done");
      ev.grad_inputs.forEach((g, i) => {
        const v = parseValue(g);
        if (v) s.edgeGrads.set(`${node}>${i}`, v);
      });
      return true;
    }
    case "grad_accumulated": {
      const t = sid(ev.tensor);
      const v = parseValue(ev.total ?? ev.grad);
      if (t !== null && v) {
        s.grads.set(t, v);
        s.gradCleared.delete(t);
        const set = s.gradSet.get(t);
        if (set && !set.accumulatedSince) s.gradSet.set(t, { ...set, accumulatedSince: true });
      }
      return true;
    }
    case "backward_finished":
      s.inBackward = false;
      if (s.current && s.nodeState.get(s.current) === "running") s.nodeState.set(s.current, "done");
      s.current = null;
      s.readyQueue = [];
      s.deps = new Map();
      return true;
    case "paused":
      s.pausedAt = sid(ev.node);
      s.pauseReason = ev.why;
      s.status = "paused";
      return true;
  }
  return false;
}

/** Hook targets are vertex ids: `t<id>` for a tensor hook, the node id for a node hook. */
export function onHookRegistered(s: RunState, e: HookRegistered): void {
  const id = String(e.hook);
  const target = sid(e.target) ?? "";
  const hk: HookInfo = {
    id, target: e.target_kind === "tensor" ? `t${target}` : target, kind: e.kind, fired: 0,
    lastFiredSeq: -1, removed: false, line: e.line, fn: e.fn, gradIn: [], gradOut: null,
  };
  if (e.target_kind === "module") {
    // a module hook is drawn on the module's last op (its output) once the module has run
    if (e.module_path) hk.module = e.module_path;
    if (e.module_type) hk.moduleType = e.module_type;
    hk.target = e.module_path ? (s.lastNodeOf.get(e.module_path) ?? "") : "";
  }
  s.hooks.set(id, hk);
}

export function onHookRemoved(s: RunState, e: HookRemoved): void {
  const prev = s.hooks.get(String(e.hook));
  if (prev) s.hooks.set(prev.id, { ...prev, removed: true });
}

export function onHookFired(s: RunState, e: HookFired): void {
  const id = String(e.hook);
  const node = sid(e.node);
  const base: HookInfo = s.hooks.get(id) ?? {
    id, target: node ?? "", kind: e.kind, fired: 0, lastFiredSeq: -1, removed: false, line: null, fn: "", gradIn: [], gradOut: null,
  };
  const out = e.grad_out ? values(e.grad_out) : null;
  const next: HookInfo = { ...base, fired: base.fired + 1, lastFiredSeq: e.seq, gradIn: values(e.grad_in), gradOut: out };
  const module = e.module_path ?? base.module;
  if (module) next.module = module;
  if (module && e.kind === "module_forward") next.target = s.lastNodeOf.get(module) ?? next.target;
  if (module && e.kind === "module_forward_pre") s.pendingPre.set(module, [...(s.pendingPre.get(module) ?? []).filter((h) => h !== id), id]);
  // a module backward hook runs at the module's BackwardHookFunctionBackward node: drawn there
  if (module && (e.kind === "module_backward" || e.kind === "module_backward_pre")) next.target = node ?? s.lastNodeOf.get(module) ?? next.target;
  s.hooks.set(id, next);
  const firing = module ? { seq: e.seq, hook: id, node, module } : { seq: e.seq, hook: id, node };
  if (s.inBackward) s.firings.push(firing);
  else s.forwardFirings.push(firing);
  if (base.kind === "post_accumulate" && e.grad_out && base.target.startsWith("t")) {
    // the hook changed or cleared the leaf's .grad (the fused optimizer step): show what it left
    const g = parseValue(e.grad_out[0]);
    const t = base.target.slice(1);
    if (g) s.grads.set(t, g);
    else if (s.grads.delete(t)) s.gradCleared.set(t, { line: null, by: `its post-accumulate-grad hook${base.fn && base.fn !== "<lambda>" ? ` ${base.fn}` : ""} (registered at line ${base.line ?? "?"})` });
  }
  s.lastHook = id;
}

/** `.grad` cleared, replaced or written outside backward (zero_grad, `p.grad = …`,
 *  clip_grad_norm_) or by a hook: the new .grad, or None and why. */
export function onGradChanged(s: RunState, e: GradChanged): void {
  const t = sid(e.tensor);
  if (t === null) return;
  const v = parseValue(e.value);
  const hk = e.hook !== undefined ? s.hooks.get(String(e.hook)) : undefined;
  const by = e.how === "set_to_none" ? "zero_grad() (set_to_none=True)"
    : e.how === "hook" ? `a post-accumulate-grad hook${hk?.fn && hk.fn !== "<lambda>" ? ` ${hk.fn}` : ""}${hk?.line != null ? ` (registered at line ${hk.line})` : ""}`
    : e.how === "assigned" ? "an assignment to .grad" : e.how === "written" ? "an in-place write into .grad"
    : "zero_grad(set_to_none=False)";
  if (v) {
    s.grads.set(t, v);
    s.gradCleared.delete(t);
    s.gradSet.set(t, { line: e.line, by, accumulatedSince: false });
    return;
  }
  s.grads.delete(t);
  s.gradSet.delete(t);
  s.gradCleared.set(t, { line: e.line, by });
}

/** `retain_grad()` on a non-leaf. */
export function onRetainGrad(s: RunState, e: RetainGrad): void {
  const id = sid(e.tensor);
  const t = id !== null ? s.tensors.get(id) : undefined;
  if (t) s.tensors.set(t.id, { ...t, retainsGrad: e.line });
}
