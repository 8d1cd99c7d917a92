// What the panels say while stepping: where a leaf's .grad came from, the order hooks fired
// in, why a run paused, which call freed the graph, and how a traceback folds. Recorded runs.
import { describe, expect, it } from "vitest";
import { applyEvent, emptyState } from "../src/model/reduce";
import { accumulatedName, firingAt, freedByLine, gradSources, hasNaN, hookFirings, pauseReason, queuePosition, splitTraceback, sumValues } from "../src/model/explain";
import type { RunState, Vertex } from "../src/model/types";
import type { WireEvent } from "../src/wire";
import { tailName } from "../src/ui/nodelist";
import { fixture } from "./load";

function stateAt(events: WireEvent[], upto: number): RunState {
  const s = emptyState();
  for (const ev of events.slice(0, upto + 1)) applyEvent(s, ev);
  return s;
}

const leaf = (s: RunState, name: string): Vertex => {
  const v = [...s.vertices.values()].find((x) => x.kind === "leaf" && x.label === name);
  if (!v) throw new Error(`no leaf ${name}`);
  return v;
};

describe("where a leaf's .grad comes from", () => {
  // twopaths.py: a = x * w, b = x.exp(), y = (a + b).sum(), backward twice
  const events = fixture("twopaths");
  const firstEnd = events.findIndex((e) => e.type === "backward_finished");

  it("lists one gradient per path into x: w from MulBackward0, exp(x) from ExpBackward0", () => {
    const s = stateAt(events, firstEnd);
    const src = gradSources(s, leaf(s, "x"));
    expect(src.map((g) => g.from.name).sort()).toEqual(["ExpBackward0", "MulBackward0"]);
    const byName = new Map(src.map((g) => [g.from.name, g.grad.flat ?? []]));
    expect(byName.get("MulBackward0")).toEqual([0.5, -1, 2]);
    (byName.get("ExpBackward0") ?? []).forEach((g, i) => expect(g).toBeCloseTo(Math.exp(i + 1), 4));
    // the sum of the paths is what .grad holds after one backward
    const sum = sumValues(src.map((g) => g.grad)) ?? [];
    const grad = s.grads.get(leaf(s, "x").tensor ?? "")?.flat ?? [];
    sum.forEach((v, i) => expect(grad[i]).toBeCloseTo(v, 4));
  });

  it("w has one path; its AccumulateGrad names it", () => {
    const s = stateAt(events, firstEnd);
    expect(gradSources(s, leaf(s, "w")).map((g) => g.from.name)).toEqual(["MulBackward0"]);
    const names = [...s.vertices.values()].filter((v) => v.kind === "accumulate").map((v) => accumulatedName(s, v));
    expect(names.sort()).toEqual(["w", "x"]);
  });

  it("after the second backward .grad is twice one pass: more than the paths sent", () => {
    const s = stateAt(events, events.length - 1);
    const src = sumValues(gradSources(s, leaf(s, "x")).map((g) => g.grad)) ?? [];
    const grad = s.grads.get(leaf(s, "x").tensor ?? "")?.flat ?? [];
    src.forEach((v, i) => expect(grad[i]).toBeCloseTo(2 * v, 4));
  });
});

describe("hook firings", () => {
  // hookorder.py: a tensor hook, a pre-hook and a hook on y's node, a post-accumulate hook on x
  const events = fixture("hookorder");
  const fired = events.flatMap((e, i) => (e.type === "hook_fired" ? [i] : []));

  it("are listed in the order backward ran them, up to the cursor", () => {
    const last = fired[fired.length - 1] as number;
    const s = stateAt(events, last);
    const kinds = hookFirings(events, last).map((f) => s.hooks.get(f.hook)?.kind);
    // PyTorch: tensor hooks, then the node's pre-hooks, its hooks, then post-accumulate-grad
    expect(kinds).toEqual(["tensor", "node_pre", "node_post", "post_accumulate"]);
    expect(hookFirings(events, fired[1] as number)).toHaveLength(2);
    expect(firingAt(events, fired[1] as number)).toBe(hookFirings(events, fired[1] as number)[1]?.hook);
    expect(firingAt(events, events.findIndex((e) => e.type === "backward_started"))).toBeNull();
  });

  it("stop at the start of the backward pass the cursor is in", () => {
    const start = events.findIndex((e) => e.type === "backward_started");
    expect(hookFirings(events, start)).toEqual([]);
  });
});

describe("errors and pauses", () => {
  it("the second backward names the call that freed the graph", () => {
    // second.py: y.backward() on line 5, again on line 6
    const events = fixture("second");
    const s = stateAt(events, events.length - 1);
    expect(s.error?.message).toMatch(/backward through the graph a second time/);
    expect(freedByLine(s, events)).toBe(5);
  });

  it("a NaN pause names the node and the gradient that holds NaN", () => {
    const s = emptyState();
    const ev = (e: Record<string, unknown>, seq: number): void => applyEvent(s, { ...e, seq, t: 0, run_id: "r" } as unknown as WireEvent);
    ev({ type: "run_started", code: "", version: 1, options: {} }, 0);
    ev({ type: "node", id: 1, name: "DivBackward0", next: [{ node: 2, input_nr: 0 }], line: 5 }, 1);
    ev({ type: "node", id: 2, name: "SumBackward0", next: [], line: 6 }, 2);
    ev({ type: "backward_started", backward: 0, roots: [], line: 7 }, 3);
    ev({ type: "node_enter", backward: 0, node: 1, queue: [], deps: [], grad_outputs: [[1]] }, 4);
    ev({ type: "node_exit", backward: 0, node: 1, grad_inputs: [["nan"]] }, 5);
    ev({ type: "node_enter", backward: 0, node: 2, queue: [], deps: [], grad_outputs: [["nan"]] }, 6);
    ev({ type: "paused", backward: 0, node: 2, where: "before_node", why: "nan" }, 7);
    const why = pauseReason(s);
    expect(why?.title).toBe("Paused on a NaN gradient before SumBackward0 (line 6)");
    expect(why?.detail).toMatch(/grad_output\[0\] holds NaN, sent by DivBackward0 \(line 5\)/);
    ev({ type: "paused", backward: 0, node: 2, where: "before_node", why: "step" }, 8);
    expect(pauseReason(s)).toBeNull();
  });

  it("the first stop of a backward pass says how to step on; later stops say nothing", () => {
    const events = fixture("twopaths").filter((e) => e.type !== "run_finished");
    const enter = events.findIndex((e) => e.type === "node_enter");
    const paused = (upto: number): RunState => {
      const s = stateAt(events, upto);
      applyEvent(s, { type: "paused", seq: upto + 1, t: 0, run_id: "r", node: s.current === null ? null : Number(s.current), backward: 0, where: "before_node", why: "step" } as unknown as WireEvent);
      return s;
    };
    expect(pauseReason(paused(enter))?.title).toBe("Paused before the first backward node, SumBackward0 (line 7)");
    const nextEnter = events.findIndex((e, i) => i > enter && e.type === "node_enter");
    expect(pauseReason(paused(nextEnter))).toBeNull();
  });

  it("hasNaN reads inline values and summaries", () => {
    expect(hasNaN({ shape: [2], dtype: "", flat: [1, NaN], stats: null, hist: null })).toBe(true);
    expect(hasNaN({ shape: [2], dtype: "", flat: [1, 2], stats: null, hist: null })).toBe(false);
    expect(hasNaN({ shape: [99], dtype: "", flat: null, stats: { min: NaN, max: NaN, mean: NaN, std: NaN, norm: NaN }, hist: null })).toBe(true);
  });
});

describe("splitTraceback", () => {
  it("keeps the snippet's frames and the error, and folds library frames between them", () => {
    const tb = [
      "Traceback (most recent call last):",
      '  File "<snippet>", line 6, in <module>',
      "    y.backward()",
      '  File "/srv/engine/_tensor.py", line 293, in backward',
      "    backward(self, gradient)",
      "    ^^^^^^^^",
      '  File "/srv/engine/autograd/graph.py", line 12, in unpack',
      "    raise RuntimeError(FREED_MSG)",
      "RuntimeError: Trying to backward through the graph a second time",
      "",
    ].join("\n");
    const parts = splitTraceback(tb);
    expect(parts.map(([, lib]) => lib)).toEqual([false, true, false]);
    expect(parts[0]?.[0]).toContain("y.backward()");
    expect((parts[1]?.[0].match(/ {2}File /g) ?? []).length).toBe(2);
    expect(parts[2]?.[0]).toBe("RuntimeError: Trying to backward through the graph a second time\n");
    expect(parts.map(([t]) => t).join("")).toBe(tb);
  });
});

describe("queuePosition", () => {
  const ev = (type: string, seq: number, extra: Record<string, unknown> = {}): WireEvent => ({ type, seq, t: 0, run_id: "r", ...extra }) as unknown as WireEvent;

  it("is the last queued position until the run's first own event", () => {
    expect(queuePosition([ev("run_started", 0), ev("queued", 1, { position: 2 })])).toBe(2);
    expect(queuePosition([ev("run_started", 0), ev("queued", 1, { position: 2 }), ev("queued", 2, { position: 1 })])).toBe(1);
    expect(queuePosition([ev("run_started", 0), ev("queued", 1, { position: 0 })])).toBe(0);
    expect(queuePosition([ev("run_started", 0), ev("queued", 1, { position: 1 }), ev("tensor", 2)])).toBe(0);
  });
});

describe("tailName", () => {
  it("keeps the end of a long dotted name, whole segments only", () => {
    expect(tailName("fc1.weight")).toBe("fc1.weight");
    expect(tailName("TransformerEncoderLayer.self_attn.in_proj_weight")).toBe("…self_attn.in_proj_weight");
    expect(tailName("a_very_long_name_without_any_dots_at_all_here")).toBe("a_very_long_name_without_any_dots_at_all_here");
  });
});
