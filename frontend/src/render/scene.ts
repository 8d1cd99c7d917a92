// What the renderers draw: positions, the state at the cursor, and view choices. Pure helpers
// compute derived geometry (module boxes, collapsed redirects) for both canvas and SVG.
import type { Placed } from "../layout/layered";
import type { RunState, Vertex } from "../model/types";
import { vertexOrder } from "../model/reduce";

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
 *  path in tape order), so a loop that calls a model three times draws three boxes. */
export function moduleBoxes(scene: Scene): ModuleBox[] {
  const boxes: ModuleBox[] = [];
  const open = new Map<string, ModuleBox>();
  let lastModule: string | null = null;
  let prefixes: string[] = [];
  for (const id of vertexOrder(scene.state)) {
    const v = scene.state.vertices.get(id);
    if (!v || v.kind !== "fn") continue;
    const p = scene.pos.get(v.id);
    if (v.module !== lastModule) {
      // only recompute the open scopes when the module changes (runs of ops share one)
      lastModule = v.module;
      const parts = v.module ? v.module.split(".") : [];
      prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("."));
      for (const k of [...open.keys()]) if (!prefixes.includes(k)) open.delete(k);
    }
    prefixes.forEach((path, i) => {
      let b = open.get(path);
      if (!b) {
        b = { path, x: Infinity, y: Infinity, w: 0, h: 0, count: 0, depth: i + 1, members: new Set() };
        open.set(path, b);
        boxes.push(b);
      }
      b.members.add(v.id);
      if (!p) return;
      if (b.count === 0) {
        Object.assign(b, { x: p.x, y: p.y, w: p.w, h: p.h, count: 1 });
        return;
      }
      const x2 = Math.max(b.x + b.w, p.x + p.w), y2 = Math.max(b.y + b.h, p.y + p.h);
      b.x = Math.min(b.x, p.x);
      b.y = Math.min(b.y, p.y);
      b.w = x2 - b.x;
      b.h = y2 - b.y;
      b.count += 1;
    });
  }
  return boxes
    .filter((b) => b.count > 0)
    .map((b) => {
      const pad = Math.max(4, 14 - 3 * b.depth);
      return { ...b, x: b.x - pad, y: b.y - 18 - pad, w: b.w + 2 * pad, h: b.h + 18 + 2 * pad + 14 };
    })
    .sort((a, b) => a.depth - b.depth);
}

/** True when a saved tensor's version moved since it was saved (backward would raise). */
export function isStale(state: RunState, tensor: string | null, versionAtSave: number): boolean {
  if (tensor === null) return false;
  const now = state.versions.get(tensor);
  return now !== undefined && now !== versionAtSave;
}

/** PyTorch's node name without the C++ namespace (torch::autograd::AccumulateGrad). */
export function shortName(name: string): string {
  const i = name.lastIndexOf("::");
  return i >= 0 ? name.slice(i + 2) : name;
}

export function vertexTitle(v: Vertex): string {
  const name = shortName(v.name);
  if (v.kind === "fn" || v.kind === "accumulate") return v.label && v.kind === "fn" ? `${v.label} · ${name}` : name;
  return v.label || v.name;
}

/** Hooks attached to a vertex (by node id or, for tensors, by tensor id). */
export function hooksOn(state: RunState, v: Vertex): { fired: boolean; count: number }[] {
  const out: { fired: boolean; count: number }[] = [];
  for (const h of state.hooks.values()) {
    if (h.removed) continue;
    const viaGradFn = h.target.startsWith("t") && state.tensors.get(h.target.slice(1))?.gradFn === v.id;
    if (h.target === v.id || viaGradFn) {
      out.push({ fired: h.lastFiredSeq >= 0 && state.lastHook === h.id, count: h.fired });
    }
  }
  return out;
}
