// The node list: a searchable, keyboard-reachable text view of the graph (the accessible view).
import "./nodelist.css";
import type { RunState, Vertex } from "../model/types";
import { formatNumber, scalarOf, summary } from "../model/value";
import { h } from "./dom";
import { vertexOrder } from "../model/reduce";
import { hookTitle, hooksOn, shortName } from "../render/scene";
import type { HookInfo } from "../model/types";
import { accumulatedName } from "../model/explain";
import { savedHookText, unpackedNow } from "../model/saved";
import { leafUse, whyGradNone, type GradNone, type LeafUse } from "../model/gradnone";
import { madeByText } from "../model/naming";

/** "hook", "2 hooks", "hook fired" (firing now), "hook ×3" (fired three times so far). */
function hookBadge(hooks: (HookInfo & { firing: boolean })[]): string {
  if (hooks.some((x) => x.firing)) return "hook fired";
  const n = hooks.reduce((a, x) => a + x.fired, 0);
  return `${hooks.length > 1 ? `${hooks.length} hooks` : "hook"}${n ? ` ×${n}` : ""}`;
}

/** "packed 2/3" (saved tensors a saved_tensors_hooks pack hook took: unpacked in this
 *  backward pass / packed), "unpacking" at a saved_unpack step of this node. */
function savedBadge(s: RunState, v: Vertex): HTMLElement | null {
  const hooked = v.saved.filter((sv) => sv.hooked);
  if (!hooked.length) return null;
  const texts = hooked.map((sv) => savedHookText(s, v.id, sv));
  if (texts.some((x) => x?.now)) return h("span", { class: "nl-saved now" }, "unpacking");
  const done = hooked.filter((sv) => unpackedNow(s, v.id, sv.name)).length;
  const title = hooked.map((sv, i) => `${sv.name}: ${texts[i]?.packed ?? ""} · ${texts[i]?.unpacked ?? ""}`).join("\n");
  return h("span", { class: "nl-saved", title }, s.backwards > 0 ? `packed ${done}/${hooked.length} unpacked` : `packed ${hooked.length}`);
}

/** A long dotted name keeps its end, where names differ ("…self_attn.in_proj_weight"). */
export function tailName(name: string, max = 28): string {
  if (name.length <= max || !name.includes(".")) return name;
  const parts = name.split(".");
  let out = parts.pop() as string;
  while (parts.length && out.length + (parts[parts.length - 1] as string).length + 1 <= max - 1) out = `${parts.pop() as string}.${out}`;
  return `…${out}`;
}

function gradText(s: RunState, v: Vertex): string {
  const g = v.tensor !== null ? s.grads.get(v.tensor) : undefined;
  if (!g || v.kind === "accumulate") return "";
  const x = scalarOf(g);
  return x !== null ? `grad ${formatNumber(x)}` : `grad ${summary(g)}`;
}

/** The node's state at the cursor; the current node reads "running" until its exit event. */
function stateText(s: RunState, v: Vertex): string {
  const st = s.nodeState.get(v.id);
  if (s.current === v.id && st !== "done" && st !== "freed") return "running";
  return st ?? "";
}

/** Why a leaf gets no gradient, in one word where the list has room: "unused", "no_grad only". */
function leafTag(why: GradNone | null): HTMLElement | null {
  if (!why) return null;
  if (why.code === "unused") return h("span", { class: "nl-unused", title: `.grad is None: ${why.text}` }, "unused");
  if (why.code === "only_untracked") return h("span", { class: "nl-unused", title: `.grad is None: ${why.text}` }, why.text.startsWith("used only through") ? "detached only" : "no_grad only");
  return null;
}

/** Why a listed leaf has no gradient after backward (null for other vertices). */
function noGrad(s: RunState, v: Vertex, use: LeafUse): GradNone | null {
  const t = v.kind === "leaf" && v.tensor !== null ? s.tensors.get(v.tensor) : undefined;
  return t && s.backwards > 0 ? whyGradNone(s, t, use) : null;
}

/** The list's rows: the ids it shows, in order (matching vertices, then from `unusedFrom` leaves
 *  no op used before backward), and how leaves are used (null before any backward), found in
 *  the same pass: rows read it rather than walk every vertex again. */
export interface Listed {
  ids: string[];
  unusedFrom: number;
  use: LeafUse | null;
  /** Rows that would read alike: each one's place among its twins (`TwinCount`). */
  nth: ReadonlyMap<string, number>;
  /** The count the rows were numbered with: the next list of a run that only grew extends it. */
  count: TwinCount;
}

/** Vertices whose rows would read alike (one kind, name, tensor name and line: a loop's
 *  `MulBackward0 L5` rows), each one's place among them in the order they were made (1, 2, …);
 *  a vertex with no twin is not in `nth`. AccumulateGrad rows say their leaf instead. Counted
 *  over a state's vertex order, and extended (not counted again) for a later state of the same
 *  run that only added vertices: a list that follows a growing run costs what is new. */
export class TwinCount {
  readonly nth = new Map<string, number>();
  /** Each row key's vertices in the order they were made, and each counted vertex's key and
   *  place in the vertex order. */
  private groups = new Map<string, string[]>();
  private keyOf = new Map<string, string>();
  private at = new Map<string, number>();
  private order: readonly string[] | null = null;
  private len = 0;
  private removed = 0;
  private revised = 0;

  /** Whether `s` is the counted state with vertices appended (some perhaps described again)
   *  and none taken back since. */
  extends(s: RunState): boolean {
    return s.order === this.order && s.orderLen >= this.len && s.removed === this.removed && s.revisedLen >= this.revised;
  }

  /** Count the vertices of `s` not counted yet and recount those described again since (`s`
   *  extends this count, or it is new): a group of twins is renumbered from where it changed. */
  add(s: RunState): this {
    const order = vertexOrder(s);
    const dirty = new Map<string, number>();
    const touch = (key: string, from: number): void => {
      const d = dirty.get(key);
      if (d === undefined || from < d) dirty.set(key, from);
    };
    // described again (a name heard later): its row may read like others now, or no longer
    const revised = s.revised;
    for (let i = this.revised; i < s.revisedLen; i++) {
      const id = revised[i] as string;
      const was = this.keyOf.get(id);
      const pos = this.at.get(id);
      if (pos === undefined) continue; // not counted yet (counted below) or an AccumulateGrad
      const v = s.vertices.get(id);
      const key = v ? rowKey(v) : undefined;
      if (key === was) continue;
      if (was !== undefined) {
        const g = this.groups.get(was) as string[];
        const j = g.indexOf(id);
        g.splice(j, 1);
        this.nth.delete(id);
        touch(was, j);
      }
      if (key === undefined) {
        this.keyOf.delete(id);
        continue;
      }
      const g = this.groups.get(key) ?? [];
      this.groups.set(key, g);
      // in the order made: after the twins made before it
      let lo = 0, hi = g.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((this.at.get(g[mid] as string) as number) < pos) lo = mid + 1;
        else hi = mid;
      }
      g.splice(lo, 0, id);
      this.keyOf.set(id, key);
      touch(key, lo);
    }
    for (let i = this.len; i < order.length; i++) {
      const id = order[i] as string;
      const v = s.vertices.get(id);
      const key = v ? rowKey(v) : undefined;
      if (key === undefined) continue;
      const g = this.groups.get(key);
      this.at.set(id, i);
      this.keyOf.set(id, key);
      if (g) {
        g.push(id);
        touch(key, g.length - 1);
      } else this.groups.set(key, [id]);
    }
    for (const [key, from] of dirty) {
      const g = this.groups.get(key) as string[];
      if (g.length === 1) this.nth.delete(g[0] as string);
      if (g.length < 2) continue;
      // the first of a group that just became one gets its number too
      for (let j = from <= 1 ? 0 : from; j < g.length; j++) this.nth.set(g[j] as string, j + 1);
    }
    this.order = s.order;
    this.len = order.length;
    this.removed = s.removed;
    this.revised = s.revisedLen;
    return this;
  }
}

/** What makes two rows read alike (AccumulateGrad rows say their leaf: never twins). */
function rowKey(v: Vertex): string | undefined {
  return v.kind === "accumulate" ? undefined : `${v.kind}|${v.name}|${v.label}|${v.line ?? ""}`;
}

/** The list's rows for `s`; `prev`, the list shown before, is extended when `s` only added
 *  vertices to its state. */
export function listedIds(s: RunState, filter: string, prev: Listed | null = null): Listed {
  const f = filter.trim().toLowerCase();
  const order = vertexOrder(s);
  // numbered over every vertex, so a filter does not renumber what it keeps
  const count = prev?.count.extends(s) ? prev.count.add(s) : new TwinCount().add(s);
  const nth = count.nth;
  if (!f && s.backwards === 0) return { ids: order, unusedFrom: order.length, use: null, nth, count };
  const match = (v: Vertex): boolean => !f || v.name.toLowerCase().includes(f) || v.label.toLowerCase().includes(f) || String(v.line ?? "") === f
    || (v.kind === "accumulate" && accumulatedName(s, v).toLowerCase().includes(f));
  // leaves no op used (a module's parameters it never called) go last, marked; leaves used
  // only under no_grad or through detach are marked so, not "unused"
  const use = leafUse(s);
  const first: string[] = [], last: string[] = [];
  for (const id of order) {
    const v = s.vertices.get(id);
    if (!v || !match(v)) continue;
    (noGrad(s, v, use)?.code === "unused" ? last : first).push(id);
  }
  return { ids: first.concat(last), unusedFrom: first.length, use, nth, count };
}

/** One row of the list; `use` is the list's (leafUse of the same vertices), else found here. */
export function nodeRow(s: RunState, v: Vertex, selected: string | null, onPick: (id: string) => void, use: LeafUse | null = null, nth?: number): HTMLElement {
  const id = v.id;
  const st = stateText(s, v);
  const name = v.kind === "fn" || v.kind === "accumulate" ? shortName(v.name) : v.label || v.name;
  const attrs: Record<string, string> = {
    class: `nl-item kind-${v.kind}${st ? ` st-${st}` : ""}${selected === id ? " selected" : ""}`,
    "data-node-name": name, "data-node-id": id, role: "option", tabindex: "-1",
    "aria-selected": selected === id ? "true" : "false",
  };
  if (s.current === id) attrs["aria-current"] = "step";
  const hooks = hooksOn(s, v);
  if (hooks.length) attrs["data-hook"] = hooks.some((x) => x.firing) ? "fired" : "idle";
  const dep = s.deps.get(id);
  const li = h("li", attrs,
    h("span", { class: "nl-dot" }),
    h("span", { class: "nl-name", title: name }, tailName(name)),
    v.label && (v.kind === "fn") ? h("span", { class: "nl-label" }, v.label) : null,
    // a cut named by its tensor says what cut it (detach(), .data, requires_grad_(False), an op
    // under no_grad): else `p` after p.requires_grad_(False) reads like a second `p`
    v.kind === "cut" && v.label && v.label !== v.name ? h("span", { class: "nl-cut", title: "what cut the graph here" }, v.name) : null,
    // two AccumulateGrad rows read alike: say which leaf each one feeds
    v.kind === "accumulate" && accumulatedName(s, v) ? h("span", { class: "nl-var", title: "the leaf this AccumulateGrad adds into" }, `→ ${accumulatedName(s, v)}`) : null,
    h("span", { class: "nl-grad" }, gradText(s, v)),
    dep !== undefined && s.inBackward ? h("span", { class: "nl-dep", title: "dependencies left" }, `deps ${dep}`) : null,
    hooks.length ? h("span", { class: "nl-hook", title: hooks.map(hookTitle).join("\n") }, hookBadge(hooks)) : null,
    savedBadge(s, v),
    v.madeBy !== undefined ? h("span", { class: "nl-madeby", title: madeByText(s, v) }, `by backward #${v.madeBy}`) : null,
    st ? h("span", { class: "nl-state" }, st) : null,
    v.kind === "leaf" && s.backwards > 0 ? leafTag(noGrad(s, v, use ?? leafUse(s))) : null,
    nth !== undefined ? h("span", { class: "nl-nth", title: `the ${ordinal(nth)} of the rows that read alike, in the order they were made` }, `#${nth}`) : null,
    v.line !== null ? h("span", { class: "nl-line" }, `L${v.line}`) : null,
  );
  li.addEventListener("click", () => onPick(id));
  return li;
}

function ordinal(n: number): string {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${tail}`;
}
