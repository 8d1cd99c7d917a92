// The layout worker's packed messages: items and placements come out as they went in, over
// several messages whose names each side learns as they come (page 0, 1, …; worker -1, …).
import { describe, expect, it } from "vitest";
import { Names, packItems, packPlaced, unpackItems, unpackPlaced } from "../src/layout/codec";
import { GraphView, type RawItem } from "../src/layout/graphview";
import type { Placed } from "../src/layout/layered";

const batch1: RawItem[] = [
  { id: "t0", to: [], width: 80, seq: 1, defer: true },
  { id: "0", to: ["t0"], width: 120, seq: 2, defer: true },
  { id: "1", to: ["0", "0", "t9"], width: 99.5, seq: 3, scope: [] },
  { id: "2", to: ["1"], width: 140, seq: 4, scope: ["Net#0", "Net.fc1#1"], params: [["0", "Net.fc1#1"], ["t0", "Net.fc1#1"]] },
];
const batch2: RawItem[] = [
  { id: "3", to: ["2", "t0"], width: 64, seq: 7, scope: ["Net#0", "Net.fc1#1"] },
  { id: "c3", to: ["3"], width: 70, seq: 8 },
];

describe("layout codec", () => {
  it("items reach the worker as the page made them, message after message", () => {
    const page = new Names(1);
    const worker = new Names(-1);
    const chains = new Map<number, readonly string[]>();
    const got1 = unpackItems(packItems(batch1, page), worker, chains);
    expect(got1).toEqual(batch1);
    const got2 = unpackItems(packItems(batch2, page), worker, chains);
    expect(got2).toEqual(batch2);
    // one chain, one array (the layout compares chains key by key; sharing is cheaper)
    expect(got2[0]?.scope).toBe(got1[3]?.scope);
    // a second message tells only its new names
    expect(packItems([{ id: "4", to: ["3", "x"], width: 1, seq: 9 }], page).names).toEqual(["4", "x"]);
  });

  it("placements come back with the page's names and the worker's own", () => {
    const page = new Names(1);
    const worker = new Names(-1);
    const chains = new Map<number, readonly string[]>();
    const view = new GraphView();
    const out1 = view.add(unpackItems(packItems(batch1, page), worker, chains), [], false);
    const back1 = unpackPlaced(packPlaced(out1.placed, out1.alias, worker), page);
    expect(back1).toEqual({ placed: out1.placed, alias: out1.alias });
    // the view collapses Net.fc1: boxes and aliases named by the worker ("m:Net.fc1#1")
    view.add(unpackItems(packItems(batch2, page), worker, chains), [], true);
    const out2 = view.setOptions({ collapsed: ["Net.fc1"], iteration: null, backwardSeqs: [] });
    expect(out2.alias.length).toBeGreaterThan(0);
    const packed = packPlaced(out2.placed, out2.alias, worker);
    expect(packed.names.every((n) => n.startsWith("m:"))).toBe(true);
    expect(unpackPlaced(packed, page)).toEqual({ placed: out2.placed, alias: out2.alias });
  });

  it("keeps loose boxes, boxes without inputs, and fractional geometry", () => {
    const worker = new Names(-1);
    const page = new Names(1);
    const placed: Placed[] = [
      { id: "a", x: -3.25, y: 1e6, w: 64, h: 30, rank: 0, loose: true },
      { id: "b", x: 0.1, y: 64, w: 320, h: 42, rank: 7, to: [] },
      { id: "c", x: 5, y: 5, w: 5, h: 5, rank: 2, to: ["a", "b", "a"] },
    ];
    expect(unpackPlaced(packPlaced(placed, [["z", "c"]], worker), page)).toEqual({ placed, alias: [["z", "c"]] });
    expect(() => page.name(5)).toThrow();
  });
});
