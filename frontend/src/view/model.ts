// What the view shows, derived from the run's index and the view state: which modules are
// collapsed (a big model starts with its modules shut), which iteration of a training loop is
// drawn, and what a collapsed module's box says.
import type { ModuleCall, RunIndex } from "../model/store";
import type { RunState } from "../model/types";
import type { ViewState } from "./state";

/** A graph with more vertices than this (per iteration) starts with modules collapsed. */
export const COLLAPSE_ABOVE = 30;
/** Collapse at the deepest module level that leaves at most this many boxes and ops. */
const TARGET_UNITS = 24;

/** The smallest nesting depth of each module path (1: called at top level). */
function pathDepths(index: RunIndex): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of index.calls.values()) out.set(c.path, Math.min(out.get(c.path) ?? Infinity, c.depth));
  return out;
}

/** Boxes, and boxes plus loose ops, drawn for iteration `it` when every call at depth >= d
 *  is shut. */
function drawnAt(index: RunIndex, d: number, it: number | null): { boxes: number; units: number } {
  let total = 0, calls = 0, inside = 0;
  for (let i = 0; i < index.iterationOps.length; i++) if (it === null || i === it) total += index.iterationOps[i] ?? 0;
  for (const c of index.calls.values()) {
    if (c.depth !== d || c.ops === 0 || (it !== null && c.iteration !== it)) continue;
    calls += 1;
    inside += c.ops;
  }
  return { boxes: calls, units: calls + total - inside };
}

function unitsAt(index: RunIndex, d: number, it: number | null): number {
  return drawnAt(index, d, it).units;
}

/** Module paths collapsed by default: none for a small graph; else every module from the
 *  shallowest level that keeps the drawing to about TARGET_UNITS boxes, opened a level further
 *  while that is too coarse: fewer than 4 boxes and ops, or the model one box (a model with a
 *  few ops beside it, such as a reshape before the loss) when its insides fit. */
export function defaultCollapsed(index: RunIndex, iteration: number | null): Set<string> {
  const ops = iteration === null ? index.iterationOps.reduce((a, b) => a + (b ?? 0), 0) : (index.iterationOps[iteration] ?? 0);
  const out = new Set<string>();
  if (index.calls.size === 0 || ops + 2 * index.accumulators <= COLLAPSE_ABOVE) return out;
  const depths = pathDepths(index);
  const maxDepth = Math.max(...depths.values());
  let d = 0;
  for (let k = maxDepth; k >= 1; k--) {
    if (unitsAt(index, k, iteration) <= TARGET_UNITS) d = k;
  }
  if (d === 0) d = 1;
  // too coarse (the whole model one box, a few loose ops beside it): one level more
  const perIteration = iteration === null ? Math.max(1, index.iterationOps.filter((n) => (n ?? 0) > 0).length) : 1;
  const coarse = (k: number): boolean => {
    const { boxes, units } = drawnAt(index, k, iteration);
    if (units < 4) return true;
    return boxes <= perIteration && unitsAt(index, k + 1, iteration) <= 2 * TARGET_UNITS;
  };
  while (d < maxDepth && coarse(d)) d += 1;
  for (const [path, depth] of depths) if (depth >= d) out.add(path);
  return out;
}

/** True when the run is a loop of independent iterations worth drawing one at a time. */
export function foldsIterations(index: RunIndex): boolean {
  if (index.linked) return false;
  return index.iterationOps.filter((n) => (n ?? 0) > 0).length >= 2;
}

/** The iteration to draw: the picked one, else the one backward is stepping through, else
 *  the latest one with ops at the cursor; null when the run is not folded. */
export function shownIteration(index: RunIndex, s: RunState, view: ViewState): number | null {
  if (!foldsIterations(index)) return null;
  const last = index.iterationOps.length - 1;
  if (view.iteration !== null) return Math.max(0, Math.min(view.iteration, last));
  if (s.inBackward && s.backwards > 0) return s.backwards - 1;
  let i = 0;
  while (i < index.backwardSeqs.length && (index.backwardSeqs[i] as number) < s.seq) i++;
  while (i > 0 && !(index.iterationOps[i] ?? 0)) i--;
  return i;
}

/** Iterations that drew ops (for the selector). */
export function iterationCount(index: RunIndex): number {
  let n = index.iterationOps.length;
  while (n > 0 && !(index.iterationOps[n - 1] ?? 0)) n--;
  return n;
}

/** The collapsed module paths: the user's choices over the default. */
export function collapsedPaths(index: RunIndex, view: ViewState, iteration: number | null): string[] {
  const out = defaultCollapsed(index, iteration);
  for (const [path, shut] of Object.entries(view.collapse)) {
    if (shut) out.add(path);
    else out.delete(path);
  }
  return [...out].sort();
}

export interface ModuleLabel {
  /** "conv1 · Conv2d" */
  title: string;
  /** "8×1×28×28 → 8×8×28×28" (when known) */
  shapes: string;
}

/** The module's name within its model ("conv1", "layers.0"), its class, and its shapes. */
export function moduleLabel(index: RunIndex, call: ModuleCall | undefined, key: string): ModuleLabel {
  if (!call) return { title: key, shapes: "" };
  const parent = call.parent !== null ? index.calls.get(call.parent) : undefined;
  const name = parent && call.path.startsWith(`${parent.path}.`) ? call.path.slice(parent.path.length + 1) : call.path;
  const title = name === call.type ? name : `${name} · ${call.type}`;
  // what it returned; else (a log from before module_exit said) its last op's output
  const out = call.output ?? (call.last !== null ? index.outShape.get(call.last) : undefined);
  const input = call.input;
  const dims = (shape: number[]): string => (shape.length ? shape.join("×") : "scalar");
  const shapes = out ? `${input ? `${dims(input)} → ` : ""}${dims(out)}` : "";
  return { title, shapes };
}
