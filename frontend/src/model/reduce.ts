// The reducer: state(k) = events[0..k] folded by applyEvent. `applyEvent` writes into a draft
// that the store owns; `reduce` is the pure form (clone, then apply) used by tests and seeks.
import type { WireEvent } from "../wire";
import type { Edge, RunState, RunStatus, SavedRef, TensorInfo, Value, Vertex } from "./types";
import { asObj, bool, idOf, ids, list, num, shapeOf, str, type Obj } from "./fields";
import { parseValue } from "./value";
import { CowMap } from "./cowmap";
import { onSavedPack, onSavedUnpack } from "./saved";

export function emptyState(): RunState {
  return {
    seq: -1, runId: "", code: "", status: "idle", engine: "",
    vertices: new CowMap(), order: [], orderLen: 0, tensors: new CowMap(), versions: new CowMap(), grads: new CowMap(),
    nodeState: new CowMap(), edgeGrads: new CowMap(), gradOutputs: new CowMap(), unpacked: new CowMap(), current: null,
    readyQueue: [], deps: new Map(), hooks: new Map(), lastHook: null, console: [], error: null,
    inBackward: false, backwards: 0, pausedAt: null, pauseReason: "", modules: [],
  };
}

/** A copy whose maps and arrays can be written without touching the original. */
export function cloneState(s: RunState): RunState {
  return {
    ...s,
    vertices: s.vertices.fork(), tensors: s.tensors.fork(),
    versions: s.versions.fork(), grads: s.grads.fork(), nodeState: s.nodeState.fork(),
    edgeGrads: s.edgeGrads.fork(), gradOutputs: s.gradOutputs.fork(), unpacked: s.unpacked.fork(),
    readyQueue: s.readyQueue.slice(), deps: new Map(s.deps), hooks: new Map(s.hooks),
    console: s.console.slice(), modules: s.modules.slice(),
  };
}

/** The ids of the vertices this state has, in arrival order. */
export function vertexOrder(s: RunState): string[] {
  return s.order.length === s.orderLen ? s.order : s.order.slice(0, s.orderLen);
}

export function reduce(s: RunState, ev: WireEvent): RunState {
  const next = cloneState(s);
  applyEvent(next, ev);
  return next;
}

function addVertex(s: RunState, v: Vertex): void {
  if (!s.vertices.has(v.id)) {
    // states replaying from a snapshot find their id already in the shared array
    if (s.order[s.orderLen] !== v.id) {
      s.order.length = s.orderLen;
      s.order.push(v.id);
    }
    s.orderLen += 1;
  }
  s.vertices.set(v.id, v);
}

/** Register a tensor (from a `tensor` event or a node's outputs); leaves become vertices. */
function onTensorInfo(s: RunState, e: Obj, seq: number): TensorInfo | null {
  const id = idOf(e.id);
  if (id === null) return null;
  const t: TensorInfo = {
    id, shape: shapeOf(e.shape), dtype: str(e, "dtype"), requiresGrad: bool(e, "requires_grad"),
    isLeaf: e.is_leaf !== false, version: num(e, "version") ?? 0, name: str(e, "name"),
    line: num(e, "line"), gradFn: idOf(e.grad_fn), value: parseValue(e.value, shapeOf(e.shape)), seq,
  };
  const prev = s.tensors.get(id);
  if (prev && !t.name) t.name = prev.name;
  s.tensors.set(id, t);
  s.versions.set(id, t.version);
  if (t.gradFn !== null) {
    labelVertex(s, t.gradFn, t);
    const cut = s.vertices.get(`c${id}`);
    // an op run under no_grad inside a custom Function's forward is not a cut: its output
    // got a grad_fn after all, so the provisional cut vertex goes away
    // (its id stays in `order`, which is append-only; readers skip ids with no vertex)
    if (cut) s.vertices.delete(cut.id);
    return t;
  }
  if (t.isLeaf && (t.requiresGrad || t.name) && !s.vertices.has(`t${id}`)) {
    addVertex(s, {
      id: `t${id}`, kind: t.requiresGrad ? "leaf" : "const", name: t.name || "tensor", label: t.name,
      seq, edges: [], line: t.line, module: "", gradMode: "", saved: [], tensor: id, shape: t.shape,
    });
  }
  return t;
}

function labelVertex(s: RunState, vid: string, t: TensorInfo): void {
  const fn = s.vertices.get(vid);
  if (!fn || !t.name || fn.label.split(", ").includes(t.name)) return;
  s.vertices.set(vid, { ...fn, label: fn.label ? `${fn.label}, ${t.name}` : t.name, shape: t.shape });
}

/** The vertex a tensor hangs off: its grad_fn, or its leaf vertex. */
function vertexOfTensor(s: RunState, tid: string): string | null {
  const t = s.tensors.get(tid);
  if (t?.gradFn != null && s.vertices.has(t.gradFn)) return t.gradFn;
  if (s.vertices.has(`t${tid}`)) return `t${tid}`;
  if (s.vertices.has(`c${tid}`)) return `c${tid}`;
  return null;
}

function onNode(s: RunState, e: Obj, seq: number): void {
  const id = idOf(e.id);
  if (id === null) return;
  const name = str(e, "name");
  const edges: Edge[] = [];
  const next = list(e, "next");
  for (let i = 0; i < next.length; i++) {
    const raw = next[i];
    const o = asObj(raw);
    const to = o ? idOf(o.node) : Array.isArray(raw) ? idOf(raw[0]) : null;
    if (to === null) continue;
    const nr = o ? o.input_nr : Array.isArray(raw) ? raw[1] : i;
    edges.push({ to, inputNr: typeof nr === "number" ? nr : i });
  }
  const saved: SavedRef[] = [];
  for (const raw of list(e, "saved")) {
    const o = asObj(raw);
    if (!o) continue;
    const ref: SavedRef = { name: str(o, "name"), tensor: idOf(o.tensor), versionAtSave: num(o, "version") ?? 0 };
    if (bool(o, "hooked")) ref.hooked = true;
    if (typeof o.repr === "string") ref.repr = o.repr;
    saved.push(ref);
    // the version at save is news about the tensor too (in-place updates under no_grad send no bump)
    if (ref.tensor !== null && ref.versionAtSave > (s.versions.get(ref.tensor) ?? 0)) s.versions.set(ref.tensor, ref.versionAtSave);
  }
  const tensor = idOf(e.variable);
  const kind = name.endsWith("AccumulateGrad") ? "accumulate" : "fn";
  if (kind === "accumulate" && tensor !== null && s.vertices.has(`t${tensor}`)) edges.push({ to: `t${tensor}`, inputNr: 0 });
  const prev = s.vertices.get(id);
  const module = str(e, "module_path");
  addVertex(s, {
    id, kind, name, label: prev?.label ?? "", seq: prev?.seq ?? seq, edges,
    line: num(e, "line"), module, gradMode: str(e, "grad_mode"),
    saved, tensor, shape: prev?.shape ?? [], scope: moduleScope(module, e.module_calls),
  });
  for (const out of list(e, "outputs")) {
    const o = asObj(out);
    if (o) onTensorInfo(s, o, seq);
  }
  if (kind === "fn" && module) for (const edge of edges) nameParameter(s, edge.to, module);
}

/** The module path with each module's call number ("MLP#3.fc1#4"): two calls of one module
 *  are two scopes even when no op runs between them. Without call numbers, the path. */
export function moduleScope(path: string, calls: unknown): string {
  const parts = path ? path.split(".") : [];
  if (!Array.isArray(calls) || calls.length !== parts.length) return path;
  return parts.map((p, i) => `${p}#${String(calls[i])}`).join(".");
}

/** An unnamed leaf first used inside a module is one of its parameters: the tracer sends no
 *  name for it (it is an attribute, not a local), so say which module owns it. */
function nameParameter(s: RunState, accId: string, module: string): void {
  const acc = s.vertices.get(accId);
  if (acc?.kind !== "accumulate" || acc.tensor === null) return;
  const leaf = s.vertices.get(`t${acc.tensor}`);
  if (!leaf || leaf.label) return;
  const name = `${module} param ${leaf.shape.join("×") || "scalar"}`;
  s.vertices.set(leaf.id, { ...leaf, name, label: name });
}

/** An op on grad-requiring tensors under no_grad/inference_mode: drawn as a cut point. */
function onUntracked(s: RunState, e: Obj, seq: number): void {
  const outs = list(e, "outputs").map(asObj).filter((o): o is Obj => o !== null);
  const first = outs[0] ? idOf(outs[0].id) : null;
  if (first === null) return;
  const edges = ids(e, "inputs").flatMap((tid) => {
    const v = vertexOfTensor(s, tid);
    return v === null ? [] : [{ to: v, inputNr: 0 }];
  });
  const names = outs.map((o) => str(o, "name")).filter(Boolean).join(", ");
  addVertex(s, {
    id: `c${first}`, kind: "cut", name: `${str(e, "name")} · ${str(e, "grad_mode") || "no_grad"}`, label: names,
    seq, edges, line: num(e, "line"), module: "", gradMode: str(e, "grad_mode"), saved: [], tensor: first, shape: shapeOf(outs[0]?.shape),
  });
  for (const o of outs) {
    const id = idOf(o.id);
    if (id !== null) s.tensors.set(id, { id, shape: shapeOf(o.shape), dtype: str(o, "dtype"), requiresGrad: bool(o, "requires_grad"), isLeaf: true, version: num(o, "version") ?? 0, name: str(o, "name"), line: num(o, "line"), gradFn: null, value: parseValue(o.value), seq });
  }
}

/** The innermost frame of the snippet in a forward trace (anomaly mode's "forward call that
 *  caused" it): frames of the engine or the runner are skipped by checking that the frame's
 *  source text is the snippet's text at that line. */
function traceLine(trace: unknown[], code: string): number | null {
  const lines = code.split("\n");
  let found: number | null = null;
  for (const entry of trace) {
    if (typeof entry !== "string") continue;
    const m = /line (\d+)[^\n]*\n([^\n]*)/.exec(entry);
    if (!m) continue;
    const n = Number(m[1]);
    const text = (m[2] ?? "").trim();
    if (text && lines[n - 1]?.trim() === text) found = n;
  }
  return found;
}

function onError(s: RunState, e: Obj, seq: number): void {
  const trace = list(e, "anomaly_trace");
  // an error raised during backward belongs to the node being run when the event has none
  const node = idOf(e.node) ?? (s.inBackward ? s.current : null);
  const message = str(e, "message");
  let anomalyLine = trace.length ? traceLine(trace, s.code) : null;
  if (anomalyLine === null && node !== null && /returned nan values/.test(message)) {
    // detect_anomaly names the node whose backward made the NaN; its forward line is on the node
    anomalyLine = s.vertices.get(node)?.line ?? null;
  }
  s.error = {
    seq, kind: str(e, "error_type", "kind") || "Error", message, line: num(e, "line"), node,
    traceback: str(e, "traceback"), anomalyLine,
  };
  // the console shows what Python would print: the traceback ends with "Type: message"
  const tb = s.error.traceback || `${s.error.kind}: ${message}`;
  s.console.push({ seq, stream: "stderr", text: tb.endsWith("\n") ? tb : `${tb}\n` });
}

function onBackward(s: RunState, type: string, e: Obj): boolean {
  const node = idOf(e.node);
  switch (type) {
    case "backward_started":
      s.inBackward = true;
      s.backwards += 1;
      s.edgeGrads = new CowMap();
      s.gradOutputs = new CowMap();
      for (const [k, v] of s.nodeState) if (v !== "freed") s.nodeState.delete(k);
      return true;
    case "node_enter": {
      if (node === null) return true;
      if (s.current && s.nodeState.get(s.current) === "running") s.nodeState.set(s.current, "done");
      s.current = node;
      if (s.nodeState.get(node) !== "freed") s.nodeState.set(node, "running");
      s.readyQueue = ids(e, "queue");
      for (const q of s.readyQueue) if (!s.nodeState.has(q)) s.nodeState.set(q, "ready");
      s.deps = new Map();
      for (const d of list(e, "deps")) {
        const o = asObj(d);
        const n = o ? idOf(o.node) : null;
        if (o && n !== null) s.deps.set(n, num(o, "count") ?? 0);
      }
      const gout = list(e, "grad_outputs").map((g) => parseValue(g)).filter((g): g is Value => g !== null);
      s.gradOutputs.set(node, gout);
      return true;
    }
    case "node_exit":
      if (node === null) return true;
      if (s.nodeState.get(node) !== "freed") s.nodeState.set(node, "done");
      list(e, "grad_inputs").forEach((g, i) => {
        const v = parseValue(g);
        if (v) s.edgeGrads.set(`${node}>${i}`, v);
      });
      return true;
    case "grad_accumulated": {
      const t = idOf(e.tensor);
      const v = parseValue(e.total ?? e.grad);
      if (t !== null && v) s.grads.set(t, v);
      return true;
    }
    case "buffers_freed":
      if (node !== null) s.nodeState.set(node, "freed");
      return true;
    case "backward_finished":
      s.inBackward = false;
      if (s.current && s.nodeState.get(s.current) === "running") s.nodeState.set(s.current, "done");
      s.current = null;
      s.readyQueue = [];
      s.deps = new Map();
      return true;
    case "paused":
      s.pausedAt = node;
      s.pauseReason = str(e, "why");
      s.status = "paused";
      return true;
  }
  return false;
}

/** Hook targets are vertex ids: `t<id>` for a tensor hook, the node id for a node hook. */
function onHook(s: RunState, type: string, e: Obj, seq: number): void {
  const id = idOf(e.hook);
  if (id === null) return;
  const prev = s.hooks.get(id);
  const values = (xs: unknown[]): Value[] => xs.map((g) => parseValue(g)).filter((g): g is Value => g !== null);
  if (type === "hook_registered") {
    const target = idOf(e.target) ?? "";
    const onTensor = str(e, "target_kind").startsWith("tensor");
    s.hooks.set(id, {
      id, target: onTensor ? `t${target}` : target, kind: str(e, "kind"), fired: 0, lastFiredSeq: -1, removed: false,
      line: num(e, "line"), fn: str(e, "fn"), gradIn: [], gradOut: null,
    });
  } else if (prev && type === "hook_removed") {
    s.hooks.set(id, { ...prev, removed: true });
  } else if (type === "hook_fired") {
    const base = prev ?? {
      id, target: idOf(e.node) ?? "", kind: str(e, "kind"), fired: 0, lastFiredSeq: -1, removed: false,
      line: null, fn: "", gradIn: [], gradOut: null,
    };
    const out = Array.isArray(e.grad_out) ? values(e.grad_out) : null;
    s.hooks.set(id, { ...base, fired: base.fired + 1, lastFiredSeq: seq, gradIn: values(list(e, "grad_in")), gradOut: out });
    if (base.kind === "post_accumulate" && Array.isArray(e.grad_out) && base.target.startsWith("t")) {
      // the hook changed or cleared the leaf's .grad (the fused optimizer step): show what it left
      const g = parseValue(e.grad_out[0]);
      if (g) s.grads.set(base.target.slice(1), g);
      else s.grads.delete(base.target.slice(1));
    }
    s.lastHook = id;
  }
}

/** Fold one event into the draft state. Unknown event types only advance the cursor. */
export function applyEvent(s: RunState, ev: WireEvent): void {
  // fields are read through the tolerant readers in fields.ts (ids as strings, nulls skipped)
  const e = ev as unknown as Obj;
  s.seq = ev.seq;
  // a fired hook stays lit while its node runs, until the next node starts
  if (ev.type === "node_enter" || ev.type === "backward_finished") s.lastHook = null;
  switch (ev.type) {
    case "run_started":
      s.runId = ev.run_id;
      s.code = str(e, "code");
      s.engine = str(e, "engine");
      s.status = "running";
      return;
    case "stdout":
    case "stderr":
      s.console.push({ seq: ev.seq, stream: ev.type, text: str(e, "text") });
      return;
    case "command_error":
      s.console.push({ seq: ev.seq, stream: "stderr", text: `[server] ${str(e, "message")}\n` });
      return;
    case "tensor": {
      const info = asObj(e.tensor);
      if (info) onTensorInfo(s, info, ev.seq);
      return;
    }
    case "node":
      return onNode(s, e, ev.seq);
    case "untracked_op":
      return onUntracked(s, e, ev.seq);
    case "version_bump": {
      const t = idOf(e.tensor);
      const v = num(e, "version");
      if (t !== null) s.versions.set(t, v ?? (s.versions.get(t) ?? 0) + 1);
      return;
    }
    case "hook_registered":
    case "hook_removed":
    case "hook_fired":
      return onHook(s, ev.type, e, ev.seq);
    case "saved_pack":
      return onSavedPack(s, e, ev.seq);
    case "saved_unpack":
      return onSavedUnpack(s, e, ev.seq);
    case "module_enter": {
      const path = str(e, "path");
      if (path && !s.modules.includes(path)) s.modules.push(path);
      return;
    }
    case "error":
      return onError(s, e, ev.seq);
    case "run_finished":
      s.status = (str(e, "status") || "ok") as RunStatus;
      s.pausedAt = null;
      s.current = null;
      s.inBackward = false;
      return;
  }
  if (onBackward(s, ev.type, e) && s.status === "paused" && ev.type !== "paused") {
    s.status = "running";
    s.pausedAt = null;
  }
}
