// What the layout is told about each new vertex: its inputs, its box width, whether it waits
// for a consumer (leaves, AccumulateGrad), the module calls it runs in and the parameters it
// uses (so a collapsed call can hold them), and its seq (which iteration it belongs to).
import type { RunIndex } from "../model/store";
import type { RunState, Vertex } from "../model/types";
import { contentWidth, isParamOf } from "../render/scene";
import type { RawItem } from "./graphview";
import { boxWidth } from "./layered";

/** The parameters `v` uses, each with the innermost of its module calls that owns it. */
function paramsOf(state: RunState, v: Vertex, chain: { key: string; path: string }[]): [string, string][] {
  const out: [string, string][] = [];
  for (const e of v.edges) {
    const a = state.vertices.get(e.to);
    if (!a) continue;
    const leafId = a.kind === "accumulate" ? a.edges[0]?.to : a.id;
    const leaf = leafId !== undefined ? state.vertices.get(leafId) : undefined;
    if (leaf?.kind !== "leaf") continue;
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i] as { key: string; path: string };
      if (!isParamOf(leaf, c.path)) continue;
      out.push([a.id, c.key]);
      if (leaf.id !== a.id) out.push([leaf.id, c.key]);
      break;
    }
  }
  return out;
}

/** The layout item of vertex `v`, and the width of each module call's box it runs in not yet
 *  in `sentModules` (added to it, and to `modules`); `measure` gives text widths in px. */
export function layoutItem(
  state: RunState, index: RunIndex, v: Vertex, measure: (text: string) => number,
  sentModules: Set<string>, moduleWidth: (key: string) => number, modules: [string, number][],
): RawItem {
  const defer = v.kind === "leaf" || v.kind === "const" || v.kind === "accumulate";
  const item: RawItem = { id: v.id, to: v.edges.map((e) => e.to), width: boxWidth(contentWidth(v, measure)), defer, seq: v.seq };
  // ops, and ops run under no_grad (cut points) inside a module, are laid out in its call
  if (v.kind === "fn" || (v.kind === "cut" && v.scope !== undefined)) {
    const chain = index.chainOf(v.id);
    item.scope = chain.map((c) => c.key);
    const params = chain.length ? paramsOf(state, v, chain) : [];
    if (params.length) item.params = params;
    for (const c of chain) {
      if (sentModules.has(c.key)) continue;
      sentModules.add(c.key);
      modules.push([c.key, moduleWidth(c.key)]);
    }
  }
  return item;
}

/** Whether two items of one vertex lay out alike (same box width, inputs, waiting, scope). */
export function sameItem(a: RawItem, b: RawItem): boolean {
  const key = (x: RawItem): string => JSON.stringify([x.width, x.defer ?? false, x.to, x.scope ?? null, x.params ?? null]);
  return key(a) === key(b);
}

/** Layout items for the vertices `state.order[from..]`, and the width of each module call's
 *  box not yet in `sentModules` (added to it); `measure` gives text widths in px. */
export function layoutItems(
  state: RunState, index: RunIndex, from: number, measure: (text: string) => number,
  sentModules: Set<string>, moduleWidth: (key: string) => number,
): { items: RawItem[]; modules: [string, number][] } {
  const items: RawItem[] = [];
  const modules: [string, number][] = [];
  for (let i = from; i < state.orderLen; i++) {
    const v = state.vertices.get(state.order[i] as string);
    if (v) items.push(layoutItem(state, index, v, measure, sentModules, moduleWidth, modules));
  }
  return { items, modules };
}
