import { describe, expect, it } from "vitest";
import { LayeredLayout, NODE_H, type LayoutItem, type Placed } from "../src/layout/layered";

/** A wide random DAG in tape order: each vertex points at up to 3 earlier ones. */
function dag(n: number, seed = 1): LayoutItem[] {
  let x = seed;
  const rand = (): number => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const items: LayoutItem[] = [];
  for (let i = 0; i < n; i++) {
    const to: string[] = [];
    if (i > 0 && rand() < 0.85) for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) to.push(String(Math.floor(rand() * i)));
    items.push({ id: String(i), to, width: 64 + Math.floor(rand() * 120) });
  }
  return items;
}

function overlaps(a: Placed, b: Placed): boolean {
  return a.rank === b.rank && a.x < b.x + b.w && b.x < a.x + a.w;
}

describe("LayeredLayout", () => {
  it("puts every vertex below the vertices it points at", () => {
    const items = dag(2000);
    const l = new LayeredLayout();
    l.add(items);
    for (const it of items) for (const t of it.to) expect((l.get(it.id) as Placed).y).toBeGreaterThan((l.get(t) as Placed).y + NODE_H);
  });

  it("never overlaps two boxes on a rank", () => {
    const l = new LayeredLayout();
    const placed = l.add(dag(1500));
    const byRank = new Map<number, Placed[]>();
    for (const p of placed) byRank.set(p.rank, [...(byRank.get(p.rank) ?? []), p]);
    for (const row of byRank.values()) {
      row.sort((a, b) => a.x - b.x);
      for (let i = 1; i < row.length; i++) expect(overlaps(row[i - 1] as Placed, row[i] as Placed)).toBe(false);
    }
  });

  it("keeps placed vertices where they are when the graph grows", () => {
    const items = dag(3000);
    const l = new LayeredLayout();
    const first = l.add(items.slice(0, 1000)).map((p) => ({ ...p }));
    l.add(items.slice(1000, 2000));
    l.add(items.slice(2000));
    for (const p of first) expect(l.get(p.id)).toEqual(p);
    expect(l.add(items.slice(0, 10))).toEqual([]);
  });

  // its speed (5k within 50 ms, appends proportional to what is new) is bench/bench_frontend.py's
  it("lays out 5k vertices, and an append places only the new vertices", () => {
    const items = dag(5000, 7);
    const l = new LayeredLayout();
    expect(l.add(items)).toHaveLength(5000);
    const before = items.map((it) => ({ ...(l.get(it.id) as Placed) }));
    const more = dag(5100, 7).slice(5000);
    const placed = l.add(more);
    expect(placed.map((p) => p.id)).toEqual(more.map((it) => it.id));
    // placed vertices never move
    before.forEach((p) => expect(l.get(p.id)).toEqual(p));
  });
});

describe("deferred leaves", () => {
  it("places a leaf an op uses twice (x * x) once", () => {
    const l = new LayeredLayout();
    const placed = l.add([
      { id: "x", to: [], width: 80, defer: true },
      { id: "acc", to: ["x"], width: 120, defer: true },
      { id: "mul", to: ["acc", "acc"], width: 120 },
    ]);
    expect(placed.map((p) => p.id).sort()).toEqual(["acc", "mul", "x"]);
  });

  it("places a parameter and its AccumulateGrad just above their first consumer", () => {
    const l = new LayeredLayout();
    const items: LayoutItem[] = [{ id: "x", to: [], width: 80 }];
    let prev = "x";
    for (let i = 0; i < 30; i++) {
      items.push({ id: `w${i}`, to: [], width: 80, defer: true });
      items.push({ id: `acc${i}`, to: [`w${i}`], width: 120, defer: true });
      items.push({ id: `op${i}`, to: [prev, `acc${i}`], width: 120 });
      prev = `op${i}`;
    }
    const placed = l.add(items);
    expect(placed).toHaveLength(items.length);
    for (let i = 0; i < 30; i++) {
      const op = l.get(`op${i}`) as Placed;
      expect((l.get(`acc${i}`) as Placed).rank).toBe(op.rank - 1);
      expect((l.get(`w${i}`) as Placed).rank).toBe(op.rank - 2);
    }
  });

  it("flushes leaves that no op used, without moving anything placed", () => {
    const l = new LayeredLayout();
    const first = l.add([{ id: "a", to: [], width: 80 }, { id: "unused", to: [], width: 80, defer: true }]).map((p) => ({ ...p }));
    expect(l.get("unused")).toBeUndefined();
    expect(l.flush().map((p) => p.id)).toEqual(["unused"]);
    for (const p of first) expect(l.get(p.id)).toEqual(p);
  });
});
