// The forward graph as events build it: tensors (with every version they go through), grad_fn
// nodes, AccumulateGrad, leaves, and the cut points where a tensor left the graph.
import type { Cut, NodeEvent, RequiresGradSet, TensorInfo as WireTensor, TensorValues, UntrackedOp, VersionBump } from "../protocol";
import type { Edge, RunState, SavedRef, TensorInfo, VersionEntry, Vertex } from "./types";
import { BARE, kindOf } from "./cowmap";
import { parseValue } from "./value";

/** Kinds of the vertex keys `t<tensor id>` (a leaf or constant) and `c<tensor id>` (a cut). */
const LEAF = kindOf("t");
const CUT = kindOf("c");

/** A wire id (a number, or null for "none") as the model's string key. */
export function sid(n: number | null | undefined): string | null {
  return n === null || n === undefined ? null : String(n);
}

export function addVertex(s: RunState, v: Vertex): void {
  if (s.vertices.has(v.id)) return reviseVertex(s, v);
  appendVertex(s, v);
}

/** A vertex the state does not have yet. */
function appendVertex(s: RunState, v: Vertex): void {  // states replaying from a snapshot find their id already in the shared array
  if (s.order[s.orderLen] !== v.id) {
    s.order.length = s.orderLen;
    s.order.push(v.id);
  }
  s.orderLen += 1;
  s.vertices.set(v.id, v);
}

/** Describe a vertex the run already has again (a name heard later, requires_grad flipped, its
 *  node event repeated): its id goes on the revision log (see RunState.revised). */
export function reviseVertex(s: RunState, v: Vertex): void {
  s.vertices.set(v.id, v);
  if (s.revised[s.revisedLen] !== v.id) {
    s.revised.length = s.revisedLen;
    s.revised.push(v.id);
  }
  s.revisedLen += 1;
}

/** Take a vertex back (its id stays in `order`, which is append-only; readers skip ids with
 *  no vertex). */
function removeVertex(s: RunState, id: string): void {
  if (s.vertices.delete(id)) s.removed += 1;
}

/** Add a version to a tensor's log. The log starts at the first change (most tensors never
 *  change: they keep no log), with the version the tensor held before it. A write the version
 *  counter did not count (`uncounted`) is a change too, at the same version. */
function logVersion(s: RunState, id: string, entry: VersionEntry): void {
  let log = s.versionLog.get(id);
  if (!log) {
    const t = s.tensors.get(id);
    if (!t || t.version > entry.version || (t.version === entry.version && !entry.uncounted)) return;
    log = [{ version: t.version, seq: t.seq, line: t.line, value: t.value }];
  }
  const last = log[log.length - 1] as VersionEntry;
  if (entry.version < last.version) return;
  if (entry.version === last.version && entry.uncounted) {
    s.versionLog.set(id, [...log, entry]);
    return;
  }
  if (entry.version === last.version) {
    // the same version described again (a later `tensor` event): keep the first, fill a gap
    if (!last.value && entry.value) s.versionLog.set(id, [...log.slice(0, -1), { ...last, value: entry.value }]);
    return;
  }
  s.versionLog.set(id, [...log, entry]);
}

/** A name that is only the reducer's stand-in for a parameter the tracer did not name. */
function isStandIn(label: string): boolean {
  return / param [\d×]+$| param scalar$/.test(label);
}

/** Register a tensor (from a `tensor` event or a node's outputs); leaves become vertices. */
export function onTensorInfo(s: RunState, e: WireTensor, seq: number): TensorInfo {
  const id = String(e.id);
  const prev = s.tensors.getAt(BARE, e.id);
  const t: TensorInfo = {
    id, shape: e.shape, dtype: e.dtype, requiresGrad: e.requires_grad, isLeaf: e.is_leaf,
    version: e.version, name: e.name ?? prev?.name ?? "", line: e.line ?? prev?.line ?? null,
    gradFn: sid(e.grad_fn), value: parseValue(e.value, e.shape), seq,
  };
  if (prev?.cutBy) t.cutBy = prev.cutBy;
  if (prev?.retainsGrad !== undefined) t.retainsGrad = prev.retainsGrad;
  // a tensor seen first has no version log to add to (logVersion would find no earlier version)
  if (prev) logVersion(s, id, { version: e.version, seq, line: t.line, value: t.value });
  s.tensors.setAt(BARE, e.id, t);
  if (e.version >= (s.versions.getAt(BARE, e.id) ?? 0)) s.versions.setAt(BARE, e.id, e.version);
  if (t.gradFn !== null) {
    labelVertex(s, s.vertices.get(t.gradFn), t);
    const cut = s.vertices.getAt(CUT, e.id);
    // an op run under no_grad inside a custom Function's forward is not a cut: its output
    // got a grad_fn after all, so the provisional cut vertex goes away
    // (its id stays in `order`, which is append-only; readers skip ids with no vertex)
    if (cut) removeVertex(s, cut.id);
    return t;
  }
  // a cut's output named later (the tracer names tensors at the batch's end): the cut says it
  labelVertex(s, s.vertices.getAt(CUT, e.id), t);
  const leaf = s.vertices.getAt(LEAF, e.id);
  if (leaf) {
    // a name heard later (a parameter named once its module ran) replaces a stand-in
    if (t.name && (leaf.label === "" || isStandIn(leaf.label))) reviseVertex(s, { ...leaf, name: t.name, label: t.name });
  } else if (t.isLeaf && (t.requiresGrad || t.name) && !s.vertices.hasAt(CUT, e.id)) {
    addVertex(s, {
      id: `t${id}`, kind: t.requiresGrad ? "leaf" : "const", name: t.name || "tensor", label: t.name,
      seq, edges: [], line: t.line, module: "", gradMode: "", saved: [], tensor: id, shape: t.shape,
    });
  }
  return t;
}

/** `v` (the node that made `t`, or the cut it left the graph at) also says `t`'s name. */
function labelVertex(s: RunState, v: Vertex | undefined, t: TensorInfo): void {
  if (!v || !t.name || v.label.split(", ").includes(t.name)) return;
  reviseVertex(s, { ...v, label: v.label ? `${v.label}, ${t.name}` : t.name, shape: t.shape });
}

/** The vertex a tensor hangs off: its grad_fn, or its leaf or cut vertex. */
export function vertexOfTensor(s: RunState, tid: string): string | null {
  const t = s.tensors.get(tid);
  if (t?.gradFn != null && s.vertices.has(t.gradFn)) return t.gradFn;
  if (s.vertices.has(`t${tid}`)) return `t${tid}`;
  if (s.vertices.has(`c${tid}`)) return `c${tid}`;
  return null;
}

export function onNode(s: RunState, e: NodeEvent, seq: number): void {
  const id = String(e.id);
  const edges: Edge[] = [];
  for (const ref of e.next) if (ref.node !== null) edges.push({ to: String(ref.node), inputNr: ref.input_nr });
  const saved: SavedRef[] = [];
  for (const o of e.saved) {
    const ref: SavedRef = { name: o.name, tensor: sid(o.tensor), versionAtSave: o.version ?? 0 };
    if (o.hooked) ref.hooked = true;
    if (typeof o.repr === "string") ref.repr = o.repr;
    saved.push(ref);
    // the version at save is news about the tensor too (in-place updates under no_grad send no bump)
    if (typeof o.tensor === "number" && ref.versionAtSave > (s.versions.getAt(BARE, o.tensor) ?? 0)) s.versions.setAt(BARE, o.tensor, ref.versionAtSave);
  }
  const tensor = sid(e.variable);
  const kind = e.name.endsWith("AccumulateGrad") ? "accumulate" : "fn";
  if (kind === "accumulate" && tensor !== null) {
    // an AccumulateGrad's variable is a leaf that requires grad, whatever an earlier event said
    // (one taken before requires_grad was set on it)
    const t = s.tensors.get(tensor);
    if (t && !s.vertices.has(`t${tensor}`)) {
      s.tensors.set(tensor, { ...t, requiresGrad: true, isLeaf: true });
      addVertex(s, {
        id: `t${tensor}`, kind: "leaf", name: t.name || "tensor", label: t.name, seq, edges: [], line: t.line, module: "",
        gradMode: "", saved: [], tensor, shape: t.shape,
      });
    } else if (t && !t.requiresGrad) s.tensors.set(tensor, { ...t, requiresGrad: true });
    if (s.vertices.has(`t${tensor}`)) edges.push({ to: `t${tensor}`, inputNr: 0 });
  }
  const prev = s.vertices.getAt(BARE, e.id);
  const module = e.module_path ?? "";
  const v: Vertex = {
    id, kind, name: e.name, label: prev?.label ?? "", seq: prev?.seq ?? seq, edges,
    line: e.line, module, gradMode: e.grad_mode, saved, tensor, shape: prev?.shape ?? [],
    scope: moduleScope(module, e.module_calls),
  };
  // create_graph=True: backward itself records the ops of its formulas (the event says which
  // pass, 0-based; a stored run from before that field: the pass running when it arrived)
  const made = e.backward !== undefined ? (e.backward === null ? undefined : e.backward + 1) : s.inBackward && kind === "fn" ? s.backwards : undefined;
  const madeBy = prev?.madeBy ?? made;
  if (madeBy !== undefined) v.madeBy = madeBy;
  if (prev) reviseVertex(s, v);
  else appendVertex(s, v);
  for (const out of e.outputs) onTensorInfo(s, out, seq);
  if (kind === "fn" && module) {
    for (const edge of edges) nameParameter(s, edge.to, module);
    // the op is the last one so far of its module and of every module around it
    for (let i = module.indexOf("."); ; i = module.indexOf(".", i + 1)) {
      s.lastNodeOf.set(i < 0 ? module : module.slice(0, i), id);
      if (i < 0) break;
    }
    // a module's pre-forward hooks are drawn on the first op of the call they ran before
    for (const [path, hooks] of s.pendingPre) {
      if (module !== path && !module.startsWith(`${path}.`)) continue;
      for (const h of hooks) {
        const hk = s.hooks.get(h);
        if (hk) s.hooks.set(h, { ...hk, target: id });
      }
      s.pendingPre.delete(path);
    }
  }
}

/** The module path with each module's call number ("MLP#3.fc1#4"): two calls of one module
 *  are two scopes even when no op runs between them. Without call numbers, the path. */
export function moduleScope(path: string, calls: number[] | null | undefined): string {
  if (!path) return path;
  const parts = path ? path.split(".") : [];
  if (!Array.isArray(calls) || calls.length !== parts.length) return path;
  return parts.map((p, i) => `${p}#${String(calls[i])}`).join(".");
}

/** An unnamed leaf first used inside a module is one of its parameters: until the tracer names
 *  it (as named_parameters() does), say which module owns it. */
function nameParameter(s: RunState, accId: string, module: string): void {
  const acc = s.vertices.get(accId);
  if (acc?.kind !== "accumulate" || acc.tensor === null) return;
  nameLeaf(s, acc.tensor, module);
}

/** The leaf of tensor `tensor`, unnamed, used inside `module`: one of its parameters. */
function nameLeaf(s: RunState, tensor: string, module: string): void {
  const leaf = s.vertices.get(`t${tensor}`);
  if (leaf?.kind !== "leaf" || leaf.label) return;
  const named = s.tensors.get(tensor)?.name;
  const name = named || `${module} param ${leaf.shape.join("×") || "scalar"}`;
  reviseVertex(s, { ...leaf, name, label: name });
}

/** An op on grad-requiring tensors under no_grad/inference_mode: drawn as a cut point. */
export function onUntracked(s: RunState, e: UntrackedOp, seq: number): void {
  const outs = e.outputs.map((o) => String(o.id));
  if (!outs.length) return;
  const how = e.grad_mode || "no_grad";
  for (const o of e.outputs) {
    const t = onTensorInfo(s, o, seq);
    s.tensors.set(t.id, { ...t, cutBy: { how, line: e.line } });
  }
  // a stored run from before the field has no module: the cut is drawn outside any module
  const module = e.module_path ?? "";
  addCut(s, { name: `${e.name} · ${how}`, how, inputs: e.inputs, outputs: outs, line: e.line, module, scope: moduleScope(module, e.module_calls) }, seq);
  // under no_grad a module's parameters are used directly (no AccumulateGrad between)
  if (module) for (const i of e.inputs) if (i !== null) nameLeaf(s, String(i), module);
}

const CUT_HOW: Record<Cut["kind"], string> = { detach: "detach", detach_: "detach", data: ".data" };

/** detach(), detach_() or .data: the output shares the values but leaves the graph. */
export function onCut(s: RunState, e: Cut): void {
  if (e.tensor === null) return;
  const how = CUT_HOW[e.kind];
  const out = String(e.output ?? e.tensor);
  const name = e.kind === "data" ? ".data" : `${e.kind}()`;
  if (e.kind === "detach_") {
    // in place: the tensor itself leaves the graph (its cut hangs below its old node)
    const t = s.tensors.get(out);
    if (t) s.tensors.set(out, { ...t, gradFn: null, requiresGrad: false });
  }
  addCut(s, { name, how, inputs: e.kind === "detach_" ? [] : [e.tensor], outputs: [out], line: e.line }, e.seq, e.kind === "detach_" ? s.tensors.get(out)?.gradFn ?? null : null);
  const t = s.tensors.get(out);
  if (t) s.tensors.set(out, { ...t, cutBy: { how, line: e.line } });
}

/** requires_grad set on a tensor: to False a cut point (the leaf stops being tracked), to True
 *  a leaf that requires grad from now on. */
export function onRequiresGradSet(s: RunState, e: RequiresGradSet): void {
  if (e.tensor === null) return;
  const id = String(e.tensor);
  const t = s.tensors.get(id);
  if (!t) return;
  const leaf = s.vertices.get(`t${id}`);
  if (e.requires_grad) {
    const { cutBy: _gone, ...rest } = t;
    s.tensors.set(id, { ...rest, requiresGrad: true });
    if (leaf) reviseVertex(s, { ...leaf, kind: "leaf" });
    else if (t.isLeaf) addVertex(s, { id: `t${id}`, kind: "leaf", name: t.name || "tensor", label: t.name, seq: e.seq, edges: [], line: t.line, module: "", gradMode: "", saved: [], tensor: id, shape: t.shape });
    return;
  }
  s.tensors.set(id, { ...t, requiresGrad: false, cutBy: { how: "requires_grad_(False)", line: e.line } });
  if (leaf) reviseVertex(s, { ...leaf, kind: "const" });
  if (!s.vertices.has(`c${id}`)) {
    addVertex(s, {
      id: `c${id}`, kind: "cut", name: "requires_grad_(False)", label: t.name, seq: e.seq, edges: leaf ? [{ to: leaf.id, inputNr: 0 }] : [],
      line: e.line, module: "", gradMode: "requires_grad_(False)", saved: [], tensor: id, shape: t.shape, cut: "requires_grad_(False)",
    });
  }
}

/** A cut vertex for the first output, with edges to the inputs' vertices (or `from`); the
 *  cut stands for its output, so a plain vertex for a named output gives way to it. */
function addCut(
  s: RunState,
  c: { name: string; how: string; inputs: (number | null)[]; outputs: string[]; line: number | null; module?: string; scope?: string },
  seq: number,
  from: string | null = null,
): void {
  const first = c.outputs[0];
  if (first === undefined) return;
  const edges: Edge[] = [];
  for (const i of c.inputs) {
    const v = i === null ? null : vertexOfTensor(s, String(i));
    if (v !== null) edges.push({ to: v, inputNr: 0 });
  }
  if (from !== null && s.vertices.has(from)) edges.push({ to: from, inputNr: 0 });
  const names = c.outputs.map((o) => s.tensors.get(o)?.name ?? "").filter(Boolean).join(", ");
  for (const o of c.outputs) if (s.vertices.get(`t${o}`)?.kind === "const") removeVertex(s, `t${o}`);
  const t = s.tensors.get(first);
  const v: Vertex = {
    id: `c${first}`, kind: "cut", name: c.name, label: names, seq, edges, line: c.line, module: c.module ?? "",
    gradMode: c.how, saved: [], tensor: first, shape: t?.shape ?? [], cut: c.how,
  };
  if (c.scope) v.scope = c.scope;
  addVertex(s, v);
}

/** An in-place write: the tensor's new version and the values it holds from now on (a write
 *  the counter does not count, `apply_` or through `.data`, comes at the version it had). */
export function onVersionBump(s: RunState, e: VersionBump, seq: number): void {
  if (e.tensor === null) return;
  const id = String(e.tensor);
  const value = parseValue(e.value);
  const entry: VersionEntry = { version: e.version, seq, line: e.line, value };
  if (e.version === (s.versions.get(id) ?? s.tensors.get(id)?.version)) entry.uncounted = true;
  logVersion(s, id, entry);
  s.versions.set(id, e.version);
  const t = s.tensors.get(id);
  if (t) s.tensors.set(id, { ...t, version: e.version, value: value ?? t.value, gradFn: sid(e.grad_fn) ?? t.gradFn });
}

/** The value a tensor held at version `version` when the run showed it (the last write at
 *  that version: one the counter did not count changes the values it keeps). */
export function valueAtVersion(s: RunState, tid: string, version: number): VersionEntry | null {
  const log = s.versionLog.get(tid) ?? [];
  for (let i = log.length - 1; i >= 0; i--) if ((log[i] as VersionEntry).version === version) return log[i] as VersionEntry;
  return null;
}

/** Full values the worker sent on request (`tensor_values`, in chunks, while paused): the
 *  values of the version current then, so they replace that version's summary. */
export function onTensorValues(s: RunState, e: TensorValues): void {
  if (e.tensor_id === null) return;
  const id = String(e.tensor_id);
  if (e.error !== undefined || e.values === undefined) return void s.valueChunks.delete(id);
  const parts = e.offset === 0 ? [] : (s.valueChunks.get(id) ?? []);
  const got = [...parts, ...e.values];
  if (!e.last) return void s.valueChunks.set(id, got);
  s.valueChunks.delete(id);
  const t = s.tensors.get(id);
  if (!t || e.shape === null || got.length !== e.total) return;
  const value = parseValue({ shape: e.shape, dtype: e.dtype ?? t.dtype, values: got });
  if (!value || value.shape.join() !== t.shape.join()) return;
  // the summary's exact stats (with its NaN/Inf counts) and histogram stay
  if (t.value?.stats) value.stats = t.value.stats;
  if (t.value?.hist) value.hist = t.value.hist;
  s.tensors.set(id, { ...t, value });
  const log = s.versionLog.get(id);
  const last = log?.[log.length - 1];
  if (log && last && last.version === (s.versions.get(id) ?? t.version)) s.versionLog.set(id, [...log.slice(0, -1), { ...last, value }]);
}
