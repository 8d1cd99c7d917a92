// Module boxes over the real layout: a nested MLP (MLP.fc1, act, fc2, act, fc3) and a model
// called three times. Geometry is read from moduleBoxes and the layout, as the canvas draws it.
import { describe, expect, it } from "vitest";
import { BOX, LayeredLayout, NODE_H, bandGap, type Placed } from "../src/layout/layered";
import type { ModuleFrame } from "../src/layout/graphview";
import type { Vertex } from "../src/model/types";
import { bowSide, isParamOf } from "../src/render/scene";
import type { WireEvent } from "../src/wire";
import { fixture } from "./load";
import { laidOut as viewOf, measure } from "./graph";

interface Rect { x: number; y: number; w: number; h: number }

type ModuleBox = Omit<ModuleFrame, "members"> & { members: Set<string> };

function laidOut(events: WireEvent[]): { s: ReturnType<typeof viewOf>["s"]; pos: Map<string, Placed>; boxes: ModuleBox[] } {
  const { s, place } = viewOf(events);
  const boxes = place.frames.map((f) => ({ ...f, members: new Set(f.members) })).sort((a, b) => a.depth - b.depth);
  return { s, pos: place.pos, boxes };
}

const meets = (a: Rect, b: Rect): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Rect, b: Rect): boolean => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
const nested = (a: ModuleBox, b: ModuleBox): boolean => [...a.members].every((m) => b.members.has(m));
const title = (b: ModuleBox): Rect => ({ x: b.x, y: b.y, w: 16 + measure(b.path), h: BOX.title });

function checkBoxes(boxes: ModuleBox[], pos: Map<string, Placed>): void {
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      if (nested(a, b)) expect(inside(a, b), `${a.path} in ${b.path}`).toBe(true);
      else if (nested(b, a)) expect(inside(b, a), `${b.path} in ${a.path}`).toBe(true);
      else expect(meets(a, b), `${a.path} meets ${b.path}`).toBe(false);
      expect(meets(title(a), title(b)), `titles of ${a.path} and ${b.path}`).toBe(false);
    }
    // a box holds its members and nothing else
    for (const p of pos.values()) {
      if (a.members.has(p.id)) expect(inside(p, a), `${p.id} in ${a.path}`).toBe(true);
      else expect(meets(p, a), `${p.id} (not a member) in ${a.path}`).toBe(false);
    }
  }
}

describe("module boxes over the layout", () => {
  it("keeps sibling calls apart, children inside parents, and others out (nested MLP)", () => {
    const { pos, boxes } = laidOut(fixture("nested"));
    expect(boxes.map((b) => b.path)).toEqual(["MLP", "MLP.fc1", "MLP.act", "MLP.fc2", "MLP.act", "MLP.fc3"]);
    checkBoxes(boxes, pos);
  });

  it("puts each layer's parameters (leaf and AccumulateGrad) in its box", () => {
    const { s, boxes } = laidOut(fixture("nested"));
    for (const layer of ["MLP.fc1", "MLP.fc2", "MLP.fc3"]) {
      const box = boxes.find((b) => b.path === layer) as ModuleBox;
      const params = [...s.vertices.values()].filter((v) => v.label.startsWith(`${layer} param `));
      expect(params).toHaveLength(2);
      for (const p of params) expect(box.members.has(p.id), `${p.label} in ${layer}`).toBe(true);
    }
  });

  it("stacks three calls of one model without overlap", () => {
    const events = fixture("mlp");
    const { pos, boxes } = laidOut(repeatForward(events, 3));
    expect(boxes.filter((b) => b.path === "Sequential")).toHaveLength(3);
    checkBoxes(boxes, pos);
  });

  it("leaves room between bands for closing and opening boxes", () => {
    expect(bandGap(0, 0)).toBe(0);
    expect(bandGap(1, 2)).toBeGreaterThan(bandGap(1, 1));
    expect(bandGap(2, 1)).toBeGreaterThan(bandGap(1, 1));
  });
});

/** The forward events of a run replayed `n` times with fresh ids (a model called in a loop). */
function repeatForward(events: WireEvent[], n: number): WireEvent[] {
  const forward = events.filter((e) => e.type === "node" || e.type === "tensor" || e.type === "module_enter" || e.type === "module_exit");
  const out: WireEvent[] = [];
  const shift = (v: unknown, k: number): unknown => (typeof v === "number" ? v + k * 10000 : v);
  for (let k = 0; k < n; k++) {
    for (const e of forward) {
      const c = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
      if (c.type === "module_enter" || c.type === "module_exit") {
        c.call = shift(c.call, k);
      } else if (c.type === "node") {
        c.id = shift(c.id, k);
        if (Array.isArray(c.module_calls)) c.module_calls = c.module_calls.map((x: unknown) => shift(x, k));
        c.variable = shift(c.variable, k);
        c.next = (c.next as { node: unknown; input_nr: number }[]).map((x) => ({ ...x, node: shift(x.node, k) }));
        c.outputs = (c.outputs as Record<string, unknown>[]).map((o) => ({ ...o, id: shift(o.id, k), grad_fn: shift(o.grad_fn, k) }));
      } else {
        const t = c.tensor as Record<string, unknown>;
        c.tensor = { ...t, id: shift(t.id, k), grad_fn: shift(t.grad_fn, k) };
      }
      out.push({ ...c, seq: out.length } as unknown as WireEvent);
    }
  }
  return out;
}

describe("long edges", () => {
  const box = (x: number, y: number, w = 120): Placed => ({ id: `${x},${y}`, x, y, w, h: NODE_H, rank: 0 });

  it("bow around a vertex in their way and stay straight when the column is clear", () => {
    // input at y 0..30, consumer two ranks down at y 128: the edge runs from (60, 128) to (60, 30)
    const between = box(0, 64);
    expect(bowSide(60, 128, 60, 30, [between])).not.toBe(0);
    expect(bowSide(60, 128, 60, 30, [box(200, 64)])).toBe(0);
    // an edge to the next rank never bows
    expect(bowSide(60, 64, 60, 30, [between])).toBe(0);
  });
});

describe("bands", () => {
  // its speed (within 50 ms) is bench/bench_frontend.py's
  it("lay out 5k vertices in 1k module calls, each call's band below the one before", () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      id: String(i), to: i > 0 ? [String(i - 1)] : [], width: 100, scope: ["net#0", `net.block${Math.floor(i / 5) % 7}#${Math.floor(i / 5) + 1}`],
    }));
    const l = new LayeredLayout();
    expect(l.add(items)).toHaveLength(5000);
    for (let i = 1; i < items.length; i++) expect((l.get(String(i)) as Placed).y).toBeGreaterThan((l.get(String(i - 1)) as Placed).y);
    // a new call starts a band below everything placed so far: more room than a rank step
    const step = (i: number): number => (l.get(String(i)) as Placed).y - (l.get(String(i - 1)) as Placed).y;
    expect(step(5)).toBeGreaterThan(step(4));
  });
});

describe("isParamOf", () => {
  const leaf = (label: string, kind: Vertex["kind"] = "leaf"): Vertex => ({
    id: "t1", kind, name: label || "tensor", label, seq: 0, edges: [], line: null, module: "",
    gradMode: "", saved: [], tensor: "1", shape: [2],
  });
  it("knows parameters by the tracer's named_parameters() names", () => {
    expect(isParamOf(leaf("fc1.weight"), "MLP.fc1")).toBe(true);
    expect(isParamOf(leaf("seq.1.bias"), "MLP.seq.1")).toBe(true);
    expect(isParamOf(leaf("seq.1.bias"), "MLP.seq")).toBe(false);
  });
  it("knows unnamed parameters by the reducer's label", () => {
    expect(isParamOf(leaf("MLP.fc1 param 8×4"), "MLP.fc1")).toBe(true);
  });
  it("never takes a named input or a non-leaf for one", () => {
    expect(isParamOf(leaf("x"), "MLP.fc1")).toBe(false);
    expect(isParamOf(leaf("x"), "MLP")).toBe(false);
    expect(isParamOf(leaf("fc1.weight", "const"), "MLP.fc1")).toBe(false);
  });
});

describe("module calls", () => {
  const node = (seq: number, id: number, path: string, calls: number[], next: number[]): WireEvent => ({
    run_id: "r", seq, t: 0, type: "node", id, name: "TanhBackward0", next: next.map((n) => ({ node: n, input_nr: 0 })),
    inputs: [], outputs: [], saved: [], line: 3, grad_mode: "grad", module_path: path, module_calls: calls, variable: null,
  }) as unknown as WireEvent;
  const enter = (path: string, call: number): Record<string, unknown> => ({ type: "module_enter", path, module_type: path, line: 1, call });
  const exit = (path: string, call: number): Record<string, unknown> => ({ type: "module_exit", path, call });
  // net = Sequential(Linear, Tanh); net(net(x)): Seq.0 then Seq.1, twice, with no op between
  const run = (): WireEvent[] => [
    enter("Seq", 0), enter("Seq.0", 1), node(0, 1, "Seq.0", [0, 1], []), exit("Seq.0", 1),
    enter("Seq.1", 2), node(1, 2, "Seq.1", [0, 2], [1]), exit("Seq.1", 2), exit("Seq", 0),
    enter("Seq", 3), enter("Seq.0", 4), node(2, 3, "Seq.0", [3, 4], [2]), exit("Seq.0", 4),
    enter("Seq.1", 5), node(3, 4, "Seq.1", [3, 5], [3]), exit("Seq.1", 5), exit("Seq", 3),
  ].map((e, seq) => ({ ...e, run_id: "r", t: 0, seq }) as unknown as WireEvent);

  it("draws a box per call when two calls of one module follow each other (net(net(x)))", () => {
    const { pos, boxes } = laidOut(run());
    expect(boxes.map((b) => b.path)).toEqual(["Seq", "Seq", "Seq.0", "Seq.1", "Seq.0", "Seq.1"]); // by depth
    checkBoxes(boxes, pos);
  });
});
