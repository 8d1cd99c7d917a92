// What the renderers draw: positions, the state at the cursor, and view choices. Pure helpers
// compute derived geometry (module boxes, collapsed redirects) for both canvas and SVG.
import { BOX, NODE_H, RANK_GAP, scopeChain, type Placed } from "../layout/layered";
import type { HookInfo, RunState, Vertex } from "../model/types";
import { vertexOrder } from "../model/reduce";
import { shortName } from "../model/naming";

export interface Scene {
  state: RunState;
  pos: Map<string, Placed>;
  selected: string | null;
  collapsed: Set<string>;
  breakpoints: Set<string>;
}

export interface ModuleBox {
  path: string;
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
  depth: number;
  members: Set<string>;
}

/** The module path a vertex is hidden under, if any enclosing module is collapsed. */
export function hiddenUnder(v: Vertex, collapsed: Set<string>): string | null {
  if (!v.module || collapsed.size === 0) return null;
  for (const c of collapsed) if (v.module === c || v.module.startsWith(c + ".")) return c;
  return null;
}

/** Boxes of module scopes: one per call of a module (a run of consecutive ops under the same
 *  path in tape order), so a loop that calls a model three times draws three boxes. A box
 *  also holds the parameters (leaf + AccumulateGrad) its ops use first: the layout puts them
 *  just above those ops. Nested boxes get room for their parent's title (geometry: BOX). */
export function moduleBoxes(scene: Scene): ModuleBox[] {
  const boxes: (ModuleBox & { parent: ModuleBox | null })[] = [];
  const open = new Map<string, ModuleBox & { parent: ModuleBox | null }>();
  const claimed = new Set<string>();
  let lastModule: string | null = null;
  let prefixes: string[] = [];
  const grow = (b: ModuleBox, p: Placed, top: number): void => {
    if (b.x === Infinity) return void Object.assign(b, { x: p.x, y: p.y - top, w: p.w, h: p.h + top });
    const x1 = Math.max(b.x + b.w, p.x + p.w), y1 = Math.max(b.y + b.h, p.y + p.h);
    b.x = Math.min(b.x, p.x);
    b.y = Math.min(b.y, p.y - top);
    b.w = x1 - b.x;
    b.h = y1 - b.y;
  };
  for (const id of vertexOrder(scene.state)) {
    const v = scene.state.vertices.get(id);
    if (!v || v.kind !== "fn") continue;
    const p = scene.pos.get(v.id);
    const params = p ? firstUse(scene, v, p, claimed) : [];
    const scope = v.scope ?? v.module;
    if (scope !== lastModule) {
      // only recompute the open scopes when the module call changes (runs of ops share one)
      lastModule = scope;
      prefixes = scopeChain(scope);
      for (const k of [...open.keys()]) if (!prefixes.includes(k)) open.delete(k);
    }
    prefixes.forEach((key, i) => {
      let b = open.get(key);
      if (!b) {
        const parent = i > 0 ? (open.get(prefixes[i - 1] as string) ?? null) : null;
        const path = key.replace(/#\d+/g, ""); // shown and collapsed by path
        b = { path, x: Infinity, y: Infinity, w: 0, h: 0, count: 0, depth: i + 1, members: new Set(), parent };
        open.set(key, b);
        boxes.push(b);
      }
      b.members.add(v.id);
      if (!p) return;
      b.count += 1;
      grow(b, p, 0);
      for (const q of params) {
        b.members.add(q.id);
        grow(b, q, BOX.label);
      }
    });
  }
  // deepest first: a parent's extent takes its children's padded boxes
  const placed = boxes.filter((b) => b.count > 0).sort((a, b) => b.depth - a.depth);
  for (const b of placed) {
    Object.assign(b, { x: b.x - BOX.pad, y: b.y - BOX.pad - BOX.title, w: b.w + 2 * BOX.pad, h: b.h + 2 * BOX.pad + BOX.title });
  }
  for (const b of placed) {
    const p = b.parent;
    if (!p || p.count === 0) continue;
    const x1 = Math.max(p.x + p.w, b.x + b.w + BOX.nest), y1 = Math.max(p.y + p.h, b.y + b.h + BOX.nest);
    p.x = Math.min(p.x, b.x - BOX.nest);
    p.y = Math.min(p.y, b.y - BOX.title - 2);
    p.w = x1 - p.x;
    p.h = y1 - p.y;
  }
  return placed.map(({ parent: _parent, ...b }) => b).sort((a, b) => a.depth - b.depth);
}

/** True when `leaf` is a parameter of the module at `path` ("MLP.fc1"): the tracer names it
 *  as named_parameters() does ("fc1.weight", relative to the outermost module), or, when it
 *  has no name, the reducer labels it "<module> param …". A named input (x) is not one. */
export function isParamOf(leaf: Vertex | undefined, path: string): boolean {
  if (leaf?.kind !== "leaf" || !path) return false;
  if (leaf.label.startsWith(`${path} param `)) return true;
  const rel = path.split(".").slice(1).join(".");
  const dot = leaf.label.lastIndexOf(".");
  return rel !== "" && dot > 0 && leaf.label.slice(0, dot) === rel;
}

/** The parameters an op is the first to use: their AccumulateGrad and leaf vertices (placed
 *  above it). */
function firstUse(scene: Scene, v: Vertex, p: Placed, claimed: Set<string>): Placed[] {
  const out: Placed[] = [];
  const isParam = (leaf: Vertex | undefined): boolean => isParamOf(leaf, v.module);
  for (const e of v.edges) {
    const a = scene.state.vertices.get(e.to);
    if (!a || claimed.has(a.id)) continue;
    const leafId = a.kind === "accumulate" ? a.edges[0]?.to : a.id;
    const leaf = leafId !== undefined ? scene.state.vertices.get(leafId) : undefined;
    if (!isParam(leaf) || !leaf) continue;
    for (const id of new Set([a.id, leaf.id])) {
      const q = scene.pos.get(id);
      claimed.add(id);
      if (q && q.y < p.y) out.push(q);
    }
  }
  return out;
}

/** True when a saved tensor's version moved since it was saved (backward would raise), on a
 *  node whose buffers are not freed yet (an optimizer step after backward is no problem). */
export function isStale(state: RunState, tensor: string | null, versionAtSave: number, node?: string): boolean {
  if (tensor === null) return false;
  if (node !== undefined && state.nodeState.get(node) === "freed") return false;
  // only a bump after the save makes it stale: a lower known version is just older news (an
  // in-place update the tracer did not report, such as BatchNorm's running stats)
  const now = state.versions.get(tensor);
  return now !== undefined && now > versionAtSave;
}

export { shortName } from "../model/naming";

/** Width of what a vertex box shows, for the layout: the tensor pill plus the node name, or
 *  the title. `measure` is the canvas's text width at the graph font. */
export function contentWidth(v: Vertex, measure: (text: string) => number): number {
  if (v.kind === "fn" && v.label) return measure(v.label) + PILL_PAD + measure(shortName(v.name));
  return measure(vertexTitle(v));
}

/** Space the non-leaf tensor's pill adds around its label (padding, then a gap). */
export const PILL_PAD = 18;

/** True when a box `w` px wide shows the vertex's whole text (vertex.ts cuts the rest with
 *  an ellipsis): the pill's text runs from x+11 to x+w-8, a title from x+12 to x+w-8. */
export function fitsBox(v: Vertex, w: number, measure: (text: string) => number): boolean {
  return contentWidth(v, measure) <= (v.kind === "fn" && v.label ? w - 14 : w - 20);
}

export function vertexTitle(v: Vertex): string {
  const name = shortName(v.name);
  if (v.kind === "fn" || v.kind === "accumulate") return v.label && v.kind === "fn" ? `${v.label} · ${name}` : name;
  return v.label || v.name;
}

/** Hooks attached to a vertex (by node id or, for tensors, by tensor id). */
export function hooksOn(state: RunState, v: Vertex): (HookInfo & { firing: boolean })[] {
  const out: (HookInfo & { firing: boolean })[] = [];
  for (const h of state.hooks.values()) {
    if (h.removed) continue;
    const viaGradFn = h.target.startsWith("t") && state.tensors.get(h.target.slice(1))?.gradFn === v.id;
    if (h.target === v.id || viaGradFn) out.push({ ...h, firing: h.lastFiredSeq >= 0 && state.lastHook === h.id });
  }
  return out;
}

const HOOK_KINDS: Record<string, string> = {
  tensor: "tensor hook (Tensor.register_hook)",
  node_pre: "pre-hook (Node.register_prehook)",
  node_post: "hook (Node.register_hook)",
  post_accumulate: "post-accumulate-grad hook",
  module_forward_pre: "module forward pre-hook (register_forward_pre_hook)",
  module_forward: "module forward hook (register_forward_hook)",
  module_backward_pre: "module backward pre-hook (register_full_backward_pre_hook)",
  module_backward: "module backward hook (register_full_backward_hook)",
};

/** What a user calls this hook, with where it was registered: "tensor hook … <lambda>, line 5". */
export function hookTitle(h: HookInfo): string {
  // (stored runs from before module hooks were reported as such: BackwardHook's node hooks)
  if (h.fn.startsWith("BackwardHook.")) return `module backward hook (register_full_backward_hook)${h.line !== null ? ` · module called at line ${h.line}` : ""}`;
  const on = h.module ? ` on ${h.module}` : "";
  const where = [h.fn, h.line !== null ? `line ${h.line}` : ""].filter(Boolean).join(", ");
  return `${HOOK_KINDS[h.kind] ?? `${h.kind} hook`}${on}${where ? ` · ${where}` : ""}`;
}

/** Control points of an edge from a consumer's top (x0, y0) up to an input's bottom (x1, y1):
 *  an S-curve, or bowed to one `side` (+1 right, -1 left) around the vertices between. */
export function edgeCurve(x0: number, y0: number, x1: number, y1: number, side = 0): [number, number, number, number] {
  const d = y0 - y1;
  if (side !== 0) return [x0 + side * BOW, y0 - d / 4, x1 + side * BOW, y1 + d / 4];
  const my = (y0 + y1) / 2;
  return [x0, my, x1, my];
}

/** An edge that skips ranks in one column runs straight through the vertices between and
 *  reads as a chain through them: the side to bow it to (0 when nothing is in the way).
 *  `boxes` are the vertices that could be in the way (those in view). */
export function bowSide(x0: number, y0: number, x1: number, y1: number, boxes: Placed[]): number {
  // one rank apart is RANK_GAP - NODE_H (plus a band's gap); skipping a rank adds RANK_GAP
  if (Math.abs(x0 - x1) > 48 || y0 - y1 < RANK_GAP + NODE_H - 4) return 0;
  const hits = (side: number): number => {
    const [ax, ay, bx, by] = edgeCurve(x0, y0, x1, y1, side);
    let n = 0;
    for (let i = 1; i < SAMPLES; i++) {
      const t = i / SAMPLES, u = 1 - t;
      const x = u * u * u * x0 + 3 * u * u * t * ax + 3 * u * t * t * bx + t * t * t * x1;
      const y = u * u * u * y0 + 3 * u * u * t * ay + 3 * u * t * t * by + t * t * t * y1;
      for (const p of boxes) if (x > p.x && x < p.x + p.w && y > p.y && y < p.y + p.h) n += 1;
    }
    return n;
  };
  if (hits(0) === 0) return 0;
  const right = hits(1);
  return right === 0 || right <= hits(-1) ? 1 : -1;
}

/** Points along a curve tested against the boxes (every ~10 px of a two-rank edge). */
const SAMPLES = 12;

/** How far a bowed edge's control points sit to the side (the curve reaches 3/4 of it). */
const BOW = 130;
