// Where to point when backward fails: the in-place op that made a saved tensor stale.
import type { WireEvent } from "../wire";
import type { RunState } from "./types";

/** For PyTorch's "modified by an inplace operation" error: the line of the last version bump
 *  of a stale saved tensor of the failing node (or of any node, when the node is unknown). */
export function inplaceBlameLine(s: RunState, events: readonly WireEvent[]): number | null {
  const e = s.error;
  if (!e || !/modified by an inplace operation/.test(e.message)) return null;
  const stale = new Set<string>();
  const node = e.node !== null ? s.vertices.get(e.node) : undefined;
  for (const v of node ? [node] : s.vertices.values()) {
    for (const sv of v.saved) {
      if (sv.tensor !== null && (s.versions.get(sv.tensor) ?? -1) > sv.versionAtSave) stale.add(sv.tensor);
    }
  }
  for (let i = Math.min(e.seq, events.length - 1); i >= 0 && stale.size; i--) {
    const ev = events[i];
    if (ev?.type === "version_bump" && stale.has(String(ev.tensor)) && ev.line !== null) return ev.line;
  }
  return null;
}
