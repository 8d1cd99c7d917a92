// Why a tensor's .grad is None at the cursor, in the user's terms: each reason PyTorch has,
// with the line that caused it when the run showed one.
import type { RunState, TensorInfo, Vertex } from "./types";

export type GradNoneCode =
  | "no_grad" | "inference_mode" | "detach" | "data" | "requires_grad_false" | "no_requires_grad"
  | "nonleaf" | "not_run" | "unused" | "only_untracked" | "not_reached" | "cleared";

export interface GradNone {
  code: GradNoneCode;
  /** The line that caused it (the no_grad op, the detach, the clear), when known. */
  line: number | null;
  text: string;
}

/** How each leaf vertex is used: by an AccumulateGrad (a recorded op used it), and the cuts
 *  (ops under no_grad, detach…) that read it. One pass over the vertices, shared by whoever
 *  asks for the same state (read-only). */
export interface LeafUse {
  readonly accumulated: ReadonlySet<string>;
  readonly cutBy: ReadonlyMap<string, readonly Vertex[]>;
}

export function leafUse(s: RunState): LeafUse {
  // the list, its rows and the inspector ask for it on every render: it is counted again only
  // when the vertices changed. Two states of one run (one shared `order`) with as many
  // vertices added, described again and taken back have the same vertices (the counts only
  // grow as the run goes on); use reads only their kinds and edges.
  const m = used;
  if (m && m.order === s.order && m.len === s.orderLen && m.revised === s.revisedLen && m.removed === s.removed) return m.use;
  const use = countUse(s);
  used = { order: s.order, len: s.orderLen, revised: s.revisedLen, removed: s.removed, use };
  return use;
}

/** The vertices the last leaf use was counted over. */
let used: { order: readonly string[]; len: number; revised: number; removed: number; use: LeafUse } | null = null;

function countUse(s: RunState): LeafUse {
  const accumulated = new Set<string>();
  const cutBy = new Map<string, Vertex[]>();
  for (const v of s.vertices.values()) {
    if (v.kind === "accumulate" && v.edges[0]) accumulated.add(v.edges[0].to);
    if (v.kind === "cut") {
      for (const e of v.edges) {
        const list = cutBy.get(e.to);
        if (list) list.push(v);
        else cutBy.set(e.to, [v]);
      }
    }
  }
  return { accumulated, cutBy };
}

const CUT_TEXT: Record<string, (line: string) => string> = {
  no_grad: (at) => `made under torch.no_grad()${at}: no graph was recorded for it, so backward never reaches it`,
  inference_mode: (at) => `made under torch.inference_mode()${at}: no graph was recorded for it, so backward never reaches it`,
  detach: (at) => `made by .detach()${at}: it shares the values but not the graph, so backward never reaches it`,
  ".data": (at) => `taken from .data${at}: it shares the values but not the graph, so backward never reaches it`,
  "requires_grad_(False)": (at) => `requires_grad_(False) was called on it${at}: autograd no longer tracks it`,
};

const CUT_CODE: Record<string, GradNoneCode> = {
  no_grad: "no_grad", inference_mode: "inference_mode", detach: "detach", ".data": "data", "requires_grad_(False)": "requires_grad_false",
};

function at(line: number | null): string {
  return line !== null ? ` at line ${line}` : "";
}

/** Why `t.grad` is None at the cursor; null when it is not (it holds a gradient). */
export function whyGradNone(s: RunState, t: TensorInfo, use: LeafUse = leafUse(s)): GradNone | null {
  if (s.grads.has(t.id)) return null;
  const cleared = s.gradCleared.get(t.id);
  if (cleared) return { code: "cleared", line: cleared.line, text: `.grad was cleared${at(cleared.line)} by ${cleared.by}` };
  if (t.cutBy) {
    const text = CUT_TEXT[t.cutBy.how]?.(at(t.cutBy.line)) ?? `made under ${t.cutBy.how}${at(t.cutBy.line)}`;
    return { code: CUT_CODE[t.cutBy.how] ?? "no_grad", line: t.cutBy.line, text };
  }
  if (t.gradFn !== null && t.retainsGrad !== undefined) {
    const why = s.backwards === 0 ? "backward has not run yet" : "no backward since has reached it";
    return { code: "not_reached", line: t.retainsGrad, text: `retain_grad() was called${at(t.retainsGrad)}, but ${why}` };
  }
  if (t.gradFn !== null) {
    return {
      code: "nonleaf", line: t.line,
      text: "a non-leaf tensor (made by an op, it has a grad_fn): backward passes its gradient on without keeping it; call .retain_grad() on it before backward to keep it",
    };
  }
  if (!t.requiresGrad) return { code: "no_requires_grad", line: t.line, text: "it does not require grad (made without requires_grad=True), so autograd computes no gradient for it" };
  const vid = `t${t.id}`;
  const cuts = use.cutBy.get(vid) ?? [];
  if (!use.accumulated.has(vid) && cuts.length) {
    const first = cuts[0] as Vertex;
    const how = first.cut ?? "no_grad";
    const where = cuts.map((c) => c.line).filter((l): l is number => l !== null);
    const lines = where.length ? ` (line${where.length > 1 ? "s" : ""} ${[...new Set(where)].join(", ")})` : "";
    return { code: "only_untracked", line: first.line, text: `used only ${how === "detach" || how === ".data" ? `through ${how}` : `under ${how}`}${lines}: no recorded op used it, so no backward can reach it` };
  }
  if (s.backwards === 0) return { code: "not_run", line: null, text: "backward has not run yet" };
  const last = s.backwardCalls[s.backwardCalls.length - 1];
  if (last && t.seq > last.seq && !s.inBackward) return { code: "not_run", line: null, text: `no backward has run since it was made${at(t.line)}` };
  if (s.inBackward && use.accumulated.has(vid)) return { code: "not_run", line: null, text: "backward has not reached it yet" };
  if (!use.accumulated.has(vid)) return { code: "unused", line: null, text: "unused: no op that backward could follow used it before backward ran" };
  return { code: "not_reached", line: null, text: "not reached by backward: the outputs backward started from do not depend on it" };
}
