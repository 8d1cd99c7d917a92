// Where to point when backward fails: the in-place op that made a saved tensor stale.
import type { RunState } from "./types";

/** For PyTorch's "modified by an inplace operation" error: the line of the last version bump
 *  of a stale saved tensor of the failing node (or of any node, when the node is unknown). */
export function inplaceBlameLine(s: RunState): number | null {
  const e = s.error;
  if (!e || !/modified by an inplace operation/.test(e.message)) return null;
  const node = e.node !== null ? s.vertices.get(e.node) : undefined;
  let best: { seq: number; line: number } | null = null;
  for (const v of node ? [node] : s.vertices.values()) {
    for (const sv of v.saved) {
      if (sv.tensor === null || (s.versions.get(sv.tensor) ?? -1) <= sv.versionAtSave) continue;
      // the version log holds each bump with its line; the last one before the error is to blame
      for (const entry of s.versionLog.get(sv.tensor) ?? []) {
        if (entry.version > sv.versionAtSave && entry.seq <= e.seq && entry.line !== null && (!best || entry.seq > best.seq)) {
          best = { seq: entry.seq, line: entry.line };
        }
      }
    }
  }
  return best?.line ?? null;
}
