// What the layout is told about each new vertex: its inputs, its box width, whether it waits
// for a consumer (leaves, AccumulateGrad), and the module call it belongs to (grad_fn nodes).
import type { RunState } from "../model/types";
import { contentWidth } from "../render/scene";
import { boxWidth, type LayoutItem } from "./layered";

/** Layout items for the vertices `state.order[from..]`; `measure` gives text widths in px. */
export function layoutItems(state: RunState, from: number, measure: (text: string) => number): LayoutItem[] {
  const items: LayoutItem[] = [];
  for (let i = from; i < state.orderLen; i++) {
    const v = state.vertices.get(state.order[i] as string);
    if (!v) continue;
    const defer = v.kind === "leaf" || v.kind === "const" || v.kind === "accumulate";
    const scope = v.kind === "fn" ? (v.scope ?? v.module) : undefined;
    items.push({ id: v.id, to: v.edges.map((e) => e.to), width: boxWidth(contentWidth(v, measure)), defer, scope });
  }
  return items;
}
