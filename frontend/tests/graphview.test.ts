// The view graph the layout worker builds: collapsed module calls as one ordinary box with the
// layout compacting around it, a training loop folded to one iteration with its parameters drawn
// once, the default collapse of a big model, and the rank index a frame draws from.
import { describe, expect, it } from "vitest";
import { GraphView, MODULE_H, MODULE_PREFIX, type RawItem } from "../src/layout/graphview";
import { layoutItem } from "../src/layout/items";
import { RunLog } from "../src/model/store";
import { ev, tensorInfo } from "./events";
import type { Placed } from "../src/layout/layered";
import type { Placement } from "../src/layout/placement";
import { collapsedPaths, defaultCollapsed, foldsIterations, iterationCount, moduleLabel, shownIteration } from "../src/view/model";
import { initialView } from "../src/view/state";
import { fixture } from "./load";
import { laidOut } from "./graph";

const height = (p: Placement): number => (p.bounds ? p.bounds.y1 - p.bounds.y0 : 0);
const modules = (p: Placement): Placed[] => [...p.pos.values()].filter((x) => x.id.startsWith(MODULE_PREFIX));
const overlap = (a: Placed, b: Placed): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("collapsing a module call", () => {
  const enc = laidOut(fixture("encoder"));
  const layers = ["TransformerEncoder.layers.0", "TransformerEncoder.layers.1"];

  it("draws each collapsed call as one box of ordinary size, and the graph compacts", () => {
    const open = enc.place;
    const shut = enc.relayout({ collapsed: layers });
    const boxes = modules(shut);
    expect(boxes).toHaveLength(2);
    for (const b of boxes) {
      expect(b.h).toBe(MODULE_H);
      expect(b.w).toBeLessThanOrEqual(320);
    }
    // the ops inside are not drawn; their boxes are the module's
    expect(shut.pos.size).toBeLessThan(open.pos.size / 3);
    expect(height(shut)).toBeLessThan(height(open) / 3);
    const inside = [...enc.s.vertices.values()].filter((v) => v.kind === "fn" && enc.log.index.chainOf(v.id).some((c) => layers.includes(c.path)));
    expect(inside.length).toBeGreaterThan(20);
    for (const v of inside) expect(shut.anchorId(v.id).startsWith(MODULE_PREFIX)).toBe(true);
    // no frame is drawn for a collapsed call, and nothing overlaps
    expect(shut.frames.map((f) => f.path)).toEqual(["TransformerEncoder"]);
    const all = [...shut.pos.values()];
    for (const [i, a] of all.entries()) for (const b of all.slice(i + 1)) expect(overlap(a, b), `${a.id} ${b.id}`).toBe(false);
  });

  it("keeps a collapsed call's parameters inside it, and its input edge into it", () => {
    const shut = enc.relayout({ collapsed: layers });
    const params = [...enc.s.vertices.values()].filter((v) => v.kind === "leaf" && v.label.startsWith("layers."));
    expect(params.length).toBeGreaterThan(10);
    for (const p of params) expect(shut.pos.has(p.id), p.label).toBe(false);
    const [first, second] = modules(shut).sort((a, b) => a.y - b.y) as [Placed, Placed];
    // layer 1 takes layer 0's output: an edge between the two boxes, layer 1 below
    expect(second.to).toContain(first.id);
    expect(second.y).toBeGreaterThan(first.y + first.h);
  });

  it("expanding one layer again shows its ops in a frame, the other stays one box", () => {
    const one = enc.relayout({ collapsed: [layers[1] as string] });
    expect(modules(one)).toHaveLength(1);
    expect(one.frames.map((f) => f.path)).toContain(layers[0]);
  });
});

describe("a folded training loop", () => {
  const events = fixture("cnnloop");
  const loop = laidOut(events);
  const idx = loop.log.index;

  it("is a loop of three iterations", () => {
    expect(foldsIterations(idx)).toBe(true);
    expect(iterationCount(idx)).toBe(3);
  });

  it("draws one iteration's ops at a time, with the parameters once", () => {
    const fns = [...loop.s.vertices.values()].filter((v) => v.kind === "fn");
    const accs = [...loop.s.vertices.values()].filter((v) => v.kind === "accumulate");
    expect(accs).toHaveLength(6);
    const counts: number[] = [];
    for (let it = 0; it < 3; it++) {
      const p = loop.relayout({ iteration: it, backwardSeqs: idx.backwardSeqs });
      const shownFns = fns.filter((v) => p.pos.has(v.id));
      counts.push(shownFns.length);
      // ops of that iteration only: made after the it-th backward started and before the next
      for (const v of shownFns) {
        expect(v.seq).toBeGreaterThan(it === 0 ? -1 : (idx.backwardSeqs[it - 1] as number));
        expect(v.seq).toBeLessThan(idx.backwardSeqs[it] as number);
      }
      // every parameter (AccumulateGrad and its leaf) drawn exactly once, above its first user
      for (const a of accs) expect(p.pos.has(a.id), a.id).toBe(true);
    }
    expect(counts[0]).toBeGreaterThan(5);
    expect(new Set(counts).size).toBe(1);
  });

  it("unfolded, every iteration is drawn (three losses)", () => {
    const losses = [...loop.s.vertices.values()].filter((v) => v.name === "NllLossBackward0");
    expect(losses).toHaveLength(3);
    for (const l of losses) expect(loop.place.pos.has(l.id)).toBe(true);
  });

  it("follows the iteration backward is in, or the latest one", () => {
    const view = initialView();
    expect(shownIteration(idx, loop.s, view)).toBe(2);
    const during = loop.log.stateAt((idx.backwardSeqs[1] as number) + 3);
    expect(during.inBackward).toBe(true);
    expect(shownIteration(idx, during, view)).toBe(1);
    expect(shownIteration(idx, loop.s, { ...view, iteration: 0 })).toBe(0);
  });
});

describe("the default collapse", () => {
  it("leaves a small model open and collapses a big one below its top module", () => {
    const small = laidOut(fixture("nested"));
    expect(defaultCollapsed(small.log.index, null).size).toBe(0);
    const enc = laidOut(fixture("encoder"));
    const shut = defaultCollapsed(enc.log.index, null);
    expect(shut.has("TransformerEncoder")).toBe(false);
    expect([...shut].some((p) => p.startsWith("TransformerEncoder.layers.0"))).toBe(true);
    // the user's choice wins over the default
    const opened = collapsedPaths(enc.log.index, { ...initialView(), collapse: Object.fromEntries([...shut].map((p) => [p, false])) }, null);
    expect(opened).toEqual([]);
  });

  it("opens a model drawn as one box when its insides fit", () => {
    // an LSTM tagger: the model, then a reshape and the loss outside it
    const tagger = laidOut(fixture("tagger"));
    const shut = defaultCollapsed(tagger.log.index, null);
    expect(shut.has("Tagger")).toBe(false);
    expect([...shut].sort()).toEqual(["Tagger.emb", "Tagger.lstm", "Tagger.out"]);
  });

  it("gives a module's shapes as what it returned, not its last op", () => {
    // nn.LSTM returns (output, (h_n, c_n)); its last op makes c_n (1×2×4)
    const tagger = laidOut(fixture("tagger"));
    const lstm = [...tagger.log.index.calls.values()].find((c) => c.path === "Tagger.lstm");
    expect(moduleLabel(tagger.log.index, lstm, lstm?.key ?? "").shapes).toBe("2×3×4 → 2×3×4");
  });

  it("says what a collapsed call is: its name in its parent, its class, its shapes", () => {
    const enc = laidOut(fixture("encoder"));
    const call = [...enc.log.index.calls.values()].find((c) => c.path === "TransformerEncoder.layers.0.linear1");
    const l = moduleLabel(enc.log.index, call, call?.key ?? "");
    expect(l.title).toBe("linear1 · Linear");
    expect(l.shapes).toBe("1×3×8 → 1×3×16");
    const layer = [...enc.log.index.calls.values()].find((c) => c.path === "TransformerEncoder.layers.1");
    expect(moduleLabel(enc.log.index, layer, layer?.key ?? "").title).toBe("layers.1 · TransformerEncoderLayer");
  });
});

describe("the placement's rank index", () => {
  it("finds exactly the boxes that meet a rectangle", () => {
    const { place } = laidOut(fixture("encoder"));
    const all = [...place.pos.values()];
    const b = place.bounds ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
    for (let i = 0; i < 20; i++) {
      const x0 = b.x0 + ((b.x1 - b.x0) * ((i * 7) % 10)) / 10, y0 = b.y0 + ((b.y1 - b.y0) * ((i * 3) % 10)) / 10;
      const r = { x0, y0, x1: x0 + 150, y1: y0 + 200 };
      const want = all.filter((p) => p.x + p.w >= r.x0 && p.x <= r.x1 && p.y + p.h >= r.y0 && p.y <= r.y1).map((p) => p.id).sort();
      expect(place.visible(r).map((p) => p.id).sort()).toEqual(want);
    }
  });
});

describe("a vertex described again after the layout placed it", () => {
  const opts = { collapsed: [], iteration: null, backwardSeqs: [] };
  const item = (id: string, width: number, to: string[] = [], defer = false): RawItem => ({ id, to, width, defer, seq: 0 });

  it("gets its new width, and its rank's boxes still do not meet", () => {
    const view = new GraphView();
    view.setOptions(opts);
    const first = view.add([item("a", 64, [], true), item("b", 64, [], true), item("c", 100, ["a", "b"])], [], true);
    const at = (out: typeof first, id: string): Placed => out.placed.find((p) => p.id === id) as Placed;
    expect(at(first, "a").rank).toBe(at(first, "b").rank);
    const out = view.revise([item("a", 300, [], true)], []);
    expect(out.replace).toBe(true);
    const a = at(out, "a"), b = at(out, "b");
    expect(a.w).toBe(300);
    expect(overlap(a, b)).toBe(false);
    // later additions lay out with the new width too
    const more = view.add([item("d", 80, ["c"])], [], true);
    expect(more.placed.map((p) => p.id)).toEqual(["d"]);
  });

  it("is on the run's revision log when a name is heard later, with a wider box", () => {
    const log = new RunLog();
    const measure = (t: string): number => 7 * t.length;
    log.append([ev.runStarted(0), ev.tensor(1, tensorInfo(1, { requires_grad: true }))]);
    const s0 = log.state();
    const v0 = s0.vertices.get("t1");
    expect(v0).toBeDefined();
    const w0 = layoutItem(s0, log.index, v0!, measure, new Set(), () => 100, []).width;
    const seen = s0.revisedLen;
    log.append([ev.tensor(2, tensorInfo(1, { requires_grad: true, name: "a_weight_named_late" }))]);
    const s1 = log.state();
    expect(s1.revised.slice(seen, s1.revisedLen)).toEqual(["t1"]);
    const w1 = layoutItem(s1, log.index, s1.vertices.get("t1")!, measure, new Set(), () => 100, []).width;
    expect(w1).toBeGreaterThan(w0);
  });
});
