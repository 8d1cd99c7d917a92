// Answers to the questions a user asks while stepping: why is this leaf's .grad what it is,
// why did the run pause, which hooks fired in what order, why did the second backward fail.
// Pure functions of the state (and the event log), shared by the panels and the unit tests.
import type { WireEvent } from "../wire";
import { savedEventText } from "./saved";
import type { RunState, Value, Vertex } from "./types";

/** One gradient that flowed into a leaf's AccumulateGrad in the current backward pass. */
export interface GradSource {
  from: Vertex;
  grad: Value;
}

/** The AccumulateGrad vertex of a leaf (or the vertex itself when it is one). */
export function accumulatorOf(s: RunState, v: Vertex): Vertex | null {
  if (v.kind === "accumulate") return v;
  if (v.kind !== "leaf") return null;
  for (const u of s.vertices.values()) {
    if (u.kind === "accumulate" && u.edges[0]?.to === v.id) return u;
  }
  return null;
}

/** The name of the leaf an AccumulateGrad feeds ("x", "fc1.weight"), or "". */
export function accumulatedName(s: RunState, acc: Vertex): string {
  if (acc.kind !== "accumulate") return "";
  const leaf = acc.edges[0] ? s.vertices.get(acc.edges[0].to) : undefined;
  return acc.label || leaf?.label || "";
}

/** The gradients each consumer sent to the leaf's AccumulateGrad in this backward pass, in
 *  the order backward ran them (PyTorch sums them in the node's input buffer before
 *  AccumulateGrad adds the sum to .grad once). */
export function gradSources(s: RunState, v: Vertex): GradSource[] {
  const acc = accumulatorOf(s, v);
  if (!acc) return [];
  const out: GradSource[] = [];
  for (const u of s.vertices.values()) {
    u.edges.forEach((e, i) => {
      if (e.to !== acc.id) return;
      const g = s.edgeGrads.get(`${u.id}>${i}`);
      if (g) out.push({ from: u, grad: g });
    });
  }
  return out;
}

/** Element-wise sum of gradients with one shape and inline values, else null. */
export function sumValues(vals: Value[]): number[] | null {
  const first = vals[0];
  if (!first?.flat) return null;
  const acc = first.flat.slice();
  for (const v of vals.slice(1)) {
    if (!v.flat || v.flat.length !== acc.length) return null;
    for (let i = 0; i < acc.length; i++) acc[i] = (acc[i] as number) + (v.flat[i] as number);
  }
  return acc;
}

/** True when the values (or, for a summary, its stats) hold a NaN. */
export function hasNaN(v: Value): boolean {
  if (v.flat) return v.flat.some((x) => Number.isNaN(x));
  if (v.complex) return v.complex.re.some(Number.isNaN) || v.complex.im.some(Number.isNaN);
  return (v.stats?.nan ?? 0) > 0;
}

/** Why the head of the run is paused, in words; null when it is a plain step (nothing to say). */
export function pauseReason(s: RunState): { title: string; detail: string } | null {
  if (s.status !== "paused" || s.pauseReason === "finished") return null;
  const node = s.pausedAt ? s.vertices.get(s.pausedAt) : undefined;
  const at = node ? `${node.name}${node.line !== null ? ` (line ${node.line})` : ""}` : "the next node";
  if (s.pauseReason === "step") {
    // the first stop of a backward pass ("pause in backward"): say how to go on, once
    const ran = [...s.nodeState.values()].some((st) => st === "done" || st === "freed");
    if (ran || !node) return null;
    return { title: `Paused before the first backward node, ${at}`, detail: "Step (→ or F10) runs backward one event at a time, ← steps back, Continue (C) runs to the end." };
  }
  if (s.pauseReason === "nan") {
    const outs = node ? (s.gradOutputs.get(node.id) ?? []) : [];
    const bad = outs.findIndex(hasNaN);
    const from = node ? nanSenders(s, node) : [];
    const which = bad >= 0 ? `its grad_output[${bad}] holds NaN` : "a gradient holds NaN";
    const src = from.length ? `, sent by ${from.map((u) => `${u.name}${u.line !== null ? ` (line ${u.line})` : ""}`).join(", ")}` : "";
    return { title: `Paused on a NaN gradient before ${at}`, detail: `${which}${src}. Step (→) to follow it toward the leaves, Continue (C) to run on.` };
  }
  if (s.pauseReason === "breakpoint") return { title: `Paused at a breakpoint before ${at}`, detail: "Step (→) runs this node; Continue (C) runs to the next breakpoint or the end." };
  return { title: `Paused before ${at}`, detail: "Step (→) runs one node; Continue (C) runs on." };
}

/** Vertices whose gradient into `node` holds NaN. */
function nanSenders(s: RunState, node: Vertex): Vertex[] {
  const out: Vertex[] = [];
  for (const u of s.vertices.values()) {
    u.edges.forEach((e, i) => {
      const g = e.to === node.id ? s.edgeGrads.get(`${u.id}>${i}`) : undefined;
      if (g && hasNaN(g) && !out.includes(u)) out.push(u);
    });
  }
  return out;
}

/** The hook firing at exactly the cursor, if the cursor is on one. */
export function firingAt(s: RunState): string | null {
  const last = s.firings[s.firings.length - 1];
  return last !== undefined && last.seq === s.seq ? last.hook : null;
}

/** For "backward through the graph a second time": the line of the earlier backward call
 *  (without retain_graph) that freed the saved tensors, else null. */
export function freedByLine(s: RunState): number | null {
  if (!s.error || !/backward through the graph a second time/.test(s.error.message)) return null;
  const calls = s.backwardCalls.filter((c) => c.seq < (s.error?.seq ?? 0));
  // the last call is the failing one; the freeing one is an earlier call that kept no graph
  for (let i = calls.length - 2; i >= 0; i--) {
    const c = calls[i];
    if (c && !c.retainGraph && c.line !== null) return c.line;
  }
  return null;
}

/** A Python traceback split into the frames of the snippet and the library frames between
 *  them (shown folded): [text, isLibrary] runs in order. */
export function splitTraceback(text: string): [string, boolean][] {
  const lines = text.split("\n");
  const out: [string, boolean][] = [];
  let i = 0;
  const push = (chunk: string, lib: boolean): void => {
    const last = out[out.length - 1];
    if (last && last[1] === lib) last[0] += chunk;
    else out.push([chunk, lib]);
  };
  while (i < lines.length) {
    const line = lines[i] as string;
    const m = /^ {2}File "([^"]*)"/.exec(line);
    if (!m) {
      push(`${line}${i < lines.length - 1 ? "\n" : ""}`, false);
      i += 1;
      continue;
    }
    // a frame: its "File" line and the indented source lines under it
    let j = i + 1;
    while (j < lines.length && /^ {4}/.test(lines[j] as string)) j += 1;
    const chunk = lines.slice(i, j).join("\n") + (j < lines.length ? "\n" : "");
    push(chunk, !(m[1] as string).startsWith("<"));
    i = j;
  }
  return out;
}

/** Where a run waits for a sandbox worker: its queue position (1 = next) while it waits, 0
 *  once it runs (the server's `queued` events come first in the log). */
export function queuePosition(events: WireEvent[]): number {
  let pos = 0;
  for (const e of events) {
    if (e.type === "queued") pos = e.position;
    else if (e.type !== "run_started") return 0;
  }
  return pos;
}

const HOOK_WORDS: Record<string, string> = {
  tensor: "tensor hook", node_pre: "pre-hook", node_post: "node hook", post_accumulate: "post-accumulate hook",
  module_forward_pre: "forward pre-hook", module_forward: "forward hook", module_backward_pre: "module backward pre-hook",
  module_backward: "module backward hook",
};

/** A few words on the event at the cursor for the timeline label: which hook fired where,
 *  which tensor an in-place write changed, what a saved-tensor hook did. */
export function eventText(s: RunState, ev: WireEvent): string {
  switch (ev.type) {
    case "hook_fired": {
      const hk = s.hooks.get(String(ev.hook));
      const on = ev.module_path ?? hk?.module ?? "";
      return `${HOOK_WORDS[ev.kind] ?? ev.kind}${on ? ` on ${on}` : ""}${hk && hk.fired > 1 ? ` (${hk.fired}×)` : ""}`;
    }
    case "version_bump": {
      const t = ev.tensor !== null ? s.tensors.get(String(ev.tensor)) : undefined;
      return `${t?.name || `tensor ${ev.tensor ?? "?"}`} → v${ev.version}${ev.line !== null ? `, line ${ev.line}` : ""}`;
    }
    case "cut":
      return `${ev.kind === "data" ? ".data" : `${ev.kind}()`}${ev.line !== null ? `, line ${ev.line}` : ""}`;
    case "grad_changed": {
      const t = ev.tensor !== null ? s.tensors.get(String(ev.tensor)) : undefined;
      return `${t?.name || "a tensor"}.grad ${ev.value ? "replaced" : "cleared"} (${ev.how})`;
    }
    case "halted":
      return `stopped (${ev.why})${ev.line !== null ? ` at line ${ev.line}` : ""}`;
    default:
      return savedEventText(s, ev);
  }
}
