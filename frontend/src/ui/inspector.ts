// The inspector: everything known about the selected vertex at the cursor.
import type { HookInfo, RunState, TensorInfo, Value, VersionEntry, Vertex } from "../model/types";
import { accumulatedName, gradSources, sumValues } from "../model/explain";
import { formatShape, formatValues, hasAllValues, statsOf, summary } from "../model/value";
import { savedHookText } from "../model/saved";
import { whyGradNone } from "../model/gradnone";
import { madeByText } from "../model/naming";
import { hookTitle, hooksOn, isStale } from "../render/scene";
import { h } from "./dom";
import { valueView } from "./values";
import "./inspector.css";

function section(title: string, ...body: (Node | string | null)[]): HTMLElement {
  return h("section", {}, h("h3", {}, title), ...body);
}

function kv(rows: [string, Node | string][]): HTMLElement {
  const dl = h("dl", { class: "kv" });
  for (const [k, v] of rows) dl.append(h("dt", {}, k), h("dd", {}, v));
  return dl;
}

function gradList(vals: (Value | undefined)[], labels: string[]): HTMLElement {
  const box = h("div", { class: "grads" });
  vals.forEach((v, i) => {
    if (!v) return;
    const d = h("details", {}, h("summary", {}, `${labels[i] ?? i} `, h("code", {}, summary(v))), valueView(v));
    box.append(d);
  });
  return box;
}

/** The tensor a vertex stands for: its own tensor, or the output it produced. */
function tensorOf(s: RunState, v: Vertex): string | null {
  if (v.tensor !== null) return v.tensor;
  for (const t of s.tensors.values()) if (t.gradFn === v.id) return t.id;
  return null;
}

/** What the inspector needs from the app besides the state: line links and full values. */
export interface InspectorCtx {
  onLine: (line: number) => void;
  /** Full values fetched for a tensor: a Value, an error text, null while loading. */
  full: (tensorId: string) => Value | string | null | undefined;
  /** True while the run's worker can still answer `tensor_values`. */
  canLoad: boolean;
  load: (tensorId: string) => void;
  /** True when `v` is shown because backward is at it (nothing is selected). */
  following?: boolean;
  /** True when `v` is shown because backward failed in it (the run ended on that error). */
  failed?: boolean;
  /** Every version of a tensor the whole run has shown (the head's log: later ones too). */
  versions?: (tensorId: string) => VersionEntry[] | undefined;
  /** Move the cursor to an event (a version's bump). */
  seek?: (seq: number) => void;
}

/** The value the inspector shows for a tensor at the cursor: the one its current version
 *  carried (full values once loaded: the reducer folds `tensor_values` into that version). */
export function shownValue(s: RunState, tid: string): { version: number; value: Value | null } | null {
  const t = s.tensors.get(tid);
  if (!t) return null;
  return { version: s.versions.get(tid) ?? t.version, value: t.value };
}

/** What `shownValue` holds, as plain data (a read-only test hook on the page). */
export interface ShownValue {
  version: number;
  shape: number[];
  flat: number[] | null;
  stats: { min: number; max: number; mean: number; nan: number; inf: number } | null;
}

export function shownForTests(s: RunState, tid: string): ShownValue | null {
  const shown = shownValue(s, tid);
  const v = shown?.value;
  if (!shown || !v) return null;
  const st = statsOf(v);
  return { version: shown.version, shape: v.shape, flat: v.flat, stats: st ? { min: st.min, max: st.max, mean: st.mean, nan: st.nan, inf: st.inf } : null };
}

/** The values of a tensor whose inline form is only a summary: a button that fetches them. */
function fullValues(tid: string, ctx: InspectorCtx): HTMLElement {
  const got = ctx.full(tid);
  const box = h("div", { class: "full-values" });
  if (typeof got === "string") box.append(h("p", { class: "note" }, got));
  if (got === null) box.append(h("p", { class: "note" }, "loading full values…"));
  else if (ctx.canLoad) {
    const b = h("button", { type: "button", "data-testid": "load-values" }, "Load full values");
    b.addEventListener("click", () => ctx.load(tid));
    box.append(b);
  } else {
    box.append(h("p", { class: "note" }, "Only a summary was sent for this large tensor; full values can be loaded while the run is alive (paused in backward)."));
  }
  return box;
}

/** What a module hook is given and may return, in PyTorch's words (a forward hook is given the
 *  module's inputs, not a gradient); tensor and node hooks see gradients. */
const HOOK_ARGS: Record<string, [string, string]> = {
  module_forward_pre: ["input", "input"],
  module_forward: ["input", "output"],
  module_backward_pre: ["grad_output", "grad_output"],
  module_backward: ["grad_input", "grad_input"],
};

/** One hook: what it is and where it came from, how often it fired, what it last saw. */
function hookItem(hk: HookInfo & { firing: boolean }): HTMLElement {
  const [saw, gives] = HOOK_ARGS[hk.kind] ?? ["grad", "grad"];
  const seen = hk.gradIn.length ? gradList(hk.gradIn, hk.gradIn.map((_, i) => `saw ${saw}[${i}]`)) : null;
  const gave = hk.gradOut?.length ? gradList(hk.gradOut, hk.gradOut.map((_, i) => `returned ${gives}[${i}]`)) : null;
  const fired = hk.fired ? `fired ${hk.fired}×${hk.firing ? " · firing now" : ""}` : "not fired yet";
  return h("li", { class: hk.firing ? "fired" : "" }, h("div", {}, hookTitle(hk)), h("div", { class: "note" }, fired), seen, gave);
}

/** Why a leaf's .grad is what it is: the gradient each path sent in this backward pass, and
 *  (when it does not match the sum) the note that .grad also holds earlier passes. */
function gradOrigin(s: RunState, v: Vertex, grad: Value, tensor: string): HTMLElement | null {
  const src = gradSources(s, v);
  if (!src.length) return null;
  const rows = src.map(({ from, grad: g }) => h("li", {}, h("span", { class: "src-from" }, `from ${from.name}${from.label ? ` (${from.label})` : ""}${from.line !== null ? ` · line ${from.line}` : ""}`), " ", h("code", {}, summary(g))));
  const sum = src.length > 1 ? sumValues(src.map((x) => x.grad)) : null;
  const note = src.length > 1
    ? `${src.length} paths reach this leaf: backward sums their gradients${sum && sum.length <= 4 ? ` (= [${formatValues(sum).join(", ")}])` : ""} and AccumulateGrad adds the sum to .grad once.`
    : "One path reaches this leaf: AccumulateGrad adds its gradient to .grad.";
  const total = sumValues(src.map((x) => x.grad));
  const differs = grad.flat && total && grad.flat.some((x, i) => Math.abs(x - (total[i] ?? 0)) > 1e-5 * (1 + Math.abs(x)));
  // why .grad is not what this pass sent: a write outside backward (zero_grad(set_to_none=False),
  // `.grad = t`), after the pass or before it, else earlier passes it accumulated onto
  const set = s.gradSet.get(tensor);
  const where = set ? `${set.by}${set.line !== null ? ` at line ${set.line}` : ""}` : "";
  const why = !differs ? null
    : set && !set.accumulatedSince ? `.grad is not what this pass sent: ${where} wrote it after the pass.`
    : set ? `.grad is not only what this pass sent: backward added it onto what ${where} left in .grad.`
    : ".grad is more than this pass sent: it also holds gradients from earlier backward calls (.grad accumulates; zero it with .grad = None or optimizer.zero_grad()).";
  return section("where .grad comes from",
    h("ul", { class: "grad-src", "data-testid": "grad-sources" }, ...rows),
    h("p", { class: "note" }, note),
    why ? h("p", { class: "note", "data-testid": "grad-differs" }, why) : null);
}

/** The node's saved tensors: version at save and now (stale ones red) and, for those a
 *  saved_tensors_hooks pack hook took, what it packed them into and when backward unpacked them. */
function savedSection(s: RunState, v: Vertex): HTMLElement {
  const hooked = v.saved.some((sv) => sv.hooked);
  const head = h("tr", {}, h("th", {}, "saved"), h("th", {}, "at save"), h("th", {}, "now"), hooked ? h("th", {}, "saved_tensors_hooks") : null);
  const tb = h("table", { class: "saved", "data-testid": "saved-tensors" }, head);
  for (const sv of v.saved) {
    const now = sv.tensor !== null ? s.versions.get(sv.tensor) : undefined;
    const stale = isStale(s, sv.tensor, sv.versionAtSave, v.id);
    const hk = savedHookText(s, v.id, sv);
    const hookCell = !hooked ? null : hk
      ? h("td", { class: "saved-hook" }, h("div", {}, hk.packed), h("div", { class: `unpack${hk.now ? " now" : ""}` }, hk.unpacked))
      : h("td", { class: "note" }, "not hooked");
    const cls = [stale ? "stale" : "", hk?.now ? "unpacking" : ""].filter(Boolean).join(" ");
    const name = sv.repr ? `${sv.name} = ${sv.repr}` : sv.name;
    tb.append(h("tr", { class: cls, "data-saved": sv.name }, h("td", {}, name), h("td", {}, sv.tensor === null ? "—" : `v${sv.versionAtSave}`), h("td", {}, now === undefined ? "—" : `v${now}${stale ? " (stale)" : ""}`), hookCell));
  }
  const note = hooked
    ? h("p", { class: "note" }, "A pack hook (torch.autograd.graph.saved_tensors_hooks) replaced the tensors marked packed with what it returned; backward calls the unpack hook for each when this node runs.")
    : null;
  return section("saved tensors", tb, note);
}

/** The tensor's versions: the line that made each and its value, the one current at the
 *  cursor marked; a click moves the cursor to that version. */
function versionsSection(s: RunState, t: TensorInfo, ctx: InspectorCtx): HTMLElement | null {
  const all = ctx.versions?.(t.id) ?? s.versionLog.get(t.id) ?? [];
  if (all.length < 2) return null;
  const now = s.versions.get(t.id) ?? t.version;
  // the last write at the current version up to the cursor (one the counter did not count
  // comes after its version's first entry)
  let at = -1;
  all.forEach((x, i) => {
    if (x.version === now && x.seq <= s.seq) at = i;
  });
  const rows = all.map((x, i) => {
    const current = i === at;
    const later = x.seq > s.seq;
    const what = x.value ? summary(x.value) : "";
    const made = x.line !== null ? `line ${x.line}` : "";
    const how = x.uncounted ? (made ? `written at ${made}, version not bumped (apply_, .data)` : "written, version not bumped (apply_, .data)") : null;
    const li = h("li", { class: `ver${current ? " now" : ""}${later ? " later" : ""}`, "data-version": String(x.version), title: later ? "after the cursor: click to move there" : "click to move the cursor here" },
      h("b", {}, `v${x.version}`), " ", h("span", { class: "ver-line" }, how ?? (i === 0 ? (made ? `made at ${made}` : "first seen") : made ? `in place at ${made}` : "in place")),
      what ? h("code", {}, what) : null, current ? h("span", { class: "ver-tag" }, "at cursor") : later ? h("span", { class: "ver-tag" }, "later") : null);
    li.addEventListener("click", () => ctx.seek?.(x.seq));
    return li;
  });
  return section("versions", h("ul", { class: "versions", "data-testid": "tensor-versions" }, ...rows));
}

export function renderInspector(el: HTMLElement, s: RunState, v: Vertex | null, ctx: InspectorCtx): void {
  const onLine = ctx.onLine;
  el.replaceChildren();
  if (!v) {
    el.append(h("div", { class: "empty" },
      h("p", {}, "Nothing selected."),
      h("p", {}, "Click a node in the graph or the node list, or click a line in the editor to select the nodes it made."),
      h("p", { class: "note" }, "Press ? for keyboard shortcuts.")));
    return;
  }
  const kindName = { fn: "grad_fn node", accumulate: "AccumulateGrad", leaf: "leaf tensor (requires_grad)", const: "tensor (no grad)", cut: "graph cut" }[v.kind];
  const line = v.line !== null ? h("a", { href: "#", class: "line-link" }, `line ${v.line}`) : "—";
  if (line instanceof HTMLElement) line.addEventListener("click", (e) => (e.preventDefault(), onLine(v.line ?? 0)));
  const state = s.nodeState.get(v.id) ?? (s.inBackward ? "waiting" : "—");
  const note = ctx.failed ? "The node backward failed in · click a node to inspect another." : "Following the current backward step · click a node to pin it.";
  if (ctx.following) el.append(h("p", { class: "note", "data-testid": "inspector-following" }, note));
  el.append(h("header", { class: `insp-head kind-${v.kind}` }, h("div", { class: "insp-name" }, v.kind === "fn" || v.kind === "accumulate" ? v.name : v.label || v.name), h("div", { class: "insp-kind" }, kindName)));
  const rows: [string, Node | string][] = [["source", line], ["state", state]];
  if (v.label && v.kind === "fn") rows.unshift(["output", h("span", {}, h("span", { class: "nonleaf-chip" }, v.label), " non-leaf tensor")]);
  else if (v.kind === "accumulate" && accumulatedName(s, v)) rows.unshift(["variable", accumulatedName(s, v)]);
  if (v.madeBy !== undefined) rows.push(["made by", h("span", { "data-testid": "made-by-backward" }, `${madeByText(s, v).replace(/^made by /, "")}, create_graph=True: backward recorded this op, so a later backward can differentiate through it`)]);
  if (v.module) rows.push(["module", v.module]);
  if (v.gradMode) rows.push(["grad mode", v.gradMode]);
  const dep = s.deps.get(v.id);
  if (dep !== undefined) rows.push(["dependencies", String(dep)]);
  const tid = tensorOf(s, v);
  const t = tid !== null ? s.tensors.get(tid) : undefined;
  if (t) rows.push(["tensor", `${formatShape(t.shape)} ${t.dtype} · v${s.versions.get(t.id) ?? t.version}${t.requiresGrad ? " · requires_grad" : ""}`]);
  // a hook firing now is what the step is about: show it before everything else
  const hooks = hooksOn(s, v).sort((a, b) => Number(b.firing) - Number(a.firing));
  const hookList = hooks.length ? section("hooks", h("ul", { class: "hooks", "data-testid": "inspector-hooks" }, ...hooks.map(hookItem))) : null;
  if (hookList && hooks[0]?.firing) el.append(hookList);
  el.append(kv(rows));
  // an unpack hook running now (a saved_unpack step) is what the step is about, like a hook
  const saved = v.saved.length ? savedSection(s, v) : null;
  const unpacking = v.saved.some((sv) => savedHookText(s, v.id, sv)?.now === true);
  if (saved && unpacking) el.append(saved);
  const values: HTMLElement[] = [];
  const shown = t ? shownValue(s, t.id) : null;
  const at = shown && shown.version > 0 ? ` · v${shown.version}` : "";
  if (shown?.value) values.push(section(v.kind === "fn" ? `output${v.label ? ` ${v.label}` : ""} (non-leaf)${at}` : `value${at}`, h("div", { "data-testid": "inspector-value" }, valueView(shown.value))));
  const vers = t ? versionsSection(s, t, ctx) : null;
  if (vers) values.push(vers);
  if (shown?.value && !hasAllValues(shown.value) && tid !== null) values.push(fullValues(tid, ctx));
  // a leaf is inspected for its gradient: .grad and where it came from before its values
  const leafish = v.kind === "leaf" || v.kind === "accumulate";
  if (!leafish) el.append(...values);
  const g = t ? s.grads.get(t.id) : undefined;
  if (g) el.append(section(".grad", h("div", { class: "grad-now", "data-testid": "inspector-grad" }, summary(g)), valueView(g)));
  const none = t && !g ? whyGradNone(s, t) : null;
  if (none) el.append(section(".grad is None", h("p", { class: "grad-none", "data-testid": "grad-none", "data-reason": none.code }, none.text)));
  // once AccumulateGrad has written .grad (before that the gradients are still in flight)
  const origin = leafish && g && t ? gradOrigin(s, v, g, t.id) : null;
  if (origin) el.append(origin);
  if (leafish) el.append(...values);
  const gout = s.gradOutputs.get(v.id);
  if (gout && gout.length) el.append(section("grad_outputs (incoming)", gradList(gout, gout.map((_, i) => `grad_output[${i}]`))));
  const gin = v.edges.map((_, i) => s.edgeGrads.get(`${v.id}>${i}`));
  if (gin.some((x) => x)) el.append(section("grad_inputs (to next_functions)", gradList(gin, v.edges.map((e) => `→ ${s.vertices.get(e.to)?.name ?? e.to}`))));
  if (saved && !unpacking) el.append(saved);
  if (hookList && !hooks[0]?.firing) el.append(hookList);
}
