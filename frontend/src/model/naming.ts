// What a vertex is called where it is listed: PyTorch's node name without the C++ namespace,
// and, when several listed together share a name, what tells them apart (the tensor they made,
// their line, else an index in the order they were made).
import type { RunState, Vertex } from "./types";

/** PyTorch's node name without the C++ namespace (torch::autograd::AccumulateGrad). */
export function shortName(name: string): string {
  const i = name.lastIndexOf("::");
  return i >= 0 ? name.slice(i + 2) : name;
}

/** A vertex's own name: a node's PyTorch name, a tensor's variable name. */
export function baseName(v: Vertex): string {
  return v.kind === "fn" || v.kind === "accumulate" ? shortName(v.name) : v.label || v.name;
}

/** Titles for vertices shown side by side ("SumBackward0 (loss)", "SumBackward0 L7"): a name
 *  that occurs once stays bare; same-named ones get their output's name, else their line, else
 *  "#n" by the order they were made. Ids with no vertex keep the id. */
export function distinctTitles(s: RunState, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const groups = new Map<string, Vertex[]>();
  for (const id of ids) {
    const v = s.vertices.get(id);
    if (!v) {
      out.set(id, id);
      continue;
    }
    const name = baseName(v);
    const g = groups.get(name);
    if (g) {
      if (!g.includes(v)) g.push(v);
    } else groups.set(name, [v]);
  }
  for (const [name, vs] of groups) {
    if (vs.length === 1) {
      out.set((vs[0] as Vertex).id, name);
      continue;
    }
    const tell = (pick: (v: Vertex) => string): boolean => new Set(vs.map(pick)).size === vs.length && vs.every((v) => pick(v) !== "");
    const label = (v: Vertex): string => (v.kind === "fn" ? v.label : "");
    const line = (v: Vertex): string => (v.line !== null ? `L${v.line}` : "");
    const both = (v: Vertex): string => (label(v) && line(v) ? `${label(v)}, ${line(v)}` : "");
    const by = tell(label) ? (v: Vertex) => ` (${label(v)})` : tell(line) ? (v: Vertex) => ` ${line(v)}` : tell(both) ? (v: Vertex) => ` (${both(v)})` : null;
    const order = [...vs].sort((a, b) => a.seq - b.seq);
    for (const v of vs) out.set(v.id, `${name}${by ? by(v) : ` #${order.indexOf(v) + 1}`}`);
  }
  return out;
}

/** One vertex's title among all the vertices of the run (for a single mention). */
export function titleAmong(s: RunState, id: string, others: readonly string[]): string {
  return distinctTitles(s, [...new Set([...others, id])]).get(id) ?? id;
}

/** "made by backward #1 (line 4)": the backward pass that recorded a node (create_graph=True). */
export function madeByText(s: RunState, v: Vertex): string {
  if (v.madeBy === undefined) return "";
  const call = s.backwardCalls[v.madeBy - 1];
  return `made by backward #${v.madeBy}${call?.line != null ? ` (line ${call.line})` : ""}`;
}
