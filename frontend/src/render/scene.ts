// What the renderers draw: the state at the cursor, where the layout put each box, and the
// view's choices. Pure helpers for titles, hooks, staleness and edge curves, shared by the
// canvas, the SVG export and the panels.
import { NODE_H, RANK_GAP, type Placed } from "../layout/layered";
import type { Placement } from "../layout/placement";
import type { HookInfo, RunState, Vertex } from "../model/types";
import type { ModuleLabel } from "../view/model";

export interface Scene {
  state: RunState;
  place: Placement;
  selected: string | null;
  breakpoints: Set<string>;
  /** What a collapsed module's box says, by its call key. */
  moduleLabel: (key: string) => ModuleLabel;
}

/** True when a drawn box is a collapsed module call (id "m:<key>"). */
export function isModuleBox(id: string): boolean {
  return id.startsWith("m:");
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

/** PyTorch's node name without the C++ namespace (torch::autograd::AccumulateGrad). */
export function shortName(name: string): string {
  const i = name.lastIndexOf("::");
  return i >= 0 ? name.slice(i + 2) : name;
}

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
};

/** What a user calls this hook, with where it was registered: "tensor hook … <lambda>, line 5". */
export function hookTitle(h: HookInfo): string {
  // nn.Module full backward hooks run through hooks PyTorch puts on BackwardHookFunctionBackward
  // nodes (BackwardHook._output_hook / _input_hook): name what the user registered
  if (h.fn.startsWith("BackwardHook.")) return `module backward hook (register_full_backward_hook)${h.line !== null ? ` · module called at line ${h.line}` : ""}`;
  const where = [h.fn, h.line !== null ? `line ${h.line}` : ""].filter(Boolean).join(", ");
  return `${HOOK_KINDS[h.kind] ?? `${h.kind} hook`}${where ? ` · ${where}` : ""}`;
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
