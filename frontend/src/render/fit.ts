// Pure geometry for Fit: the extent of a graph, the loss end, and the last forward pass of a
// training loop (its grad_fn nodes, without the parameters every pass shares).
import type { Placed } from "../layout/layered";
import type { ModuleBox, Scene } from "./scene";

export interface Rect { x0: number; y0: number; x1: number; y1: number }

/** World space above vertices for a leaf's .grad label (two lines when neighbours' labels
 *  are staggered: render/decor.ts) and below them for saved-tensor chips. */
const ABOVE = 31;
const BELOW = 18;

/** The extent of placed vertices and boxes, with room for a leaf's .grad label above and the
 *  saved-tensor chips below. */
export function bounds(placed: Placed[], boxes: ModuleBox[]): Rect {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of placed) {
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + p.w); y1 = Math.max(y1, p.y + p.h);
  }
  for (const b of boxes) {
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.w); y1 = Math.max(y1, b.y + b.h);
  }
  return { x0, y0: y0 - ABOVE, x1, y1: y1 + BELOW };
}

/** The lowest vertex, the rightmost of a row: the newest loss (passes without module bands
 *  sit side by side; with bands each pass starts below the last). */
export function lossEnd(placed: Placed[]): Placed {
  return placed.reduce((a, b) => (b.y > a.y || (b.y === a.y && b.x > a.x) ? b : a));
}

/** The grad_fn nodes reachable from `from` (the last loss): in a training loop, the last
 *  iteration's graph without the parameters every iteration shares (placed at the top). */
export function lastGraph(s: Scene, from: string): Placed[] {
  const out: Placed[] = [];
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length) {
    const id = stack.pop() as string;
    const v = s.state.vertices.get(id);
    const p = s.pos.get(id);
    if (!v || v.kind !== "fn" || !p) continue;
    out.push(p);
    for (const e of v.edges) if (!seen.has(e.to)) (seen.add(e.to), stack.push(e.to));
  }
  return out;
}
