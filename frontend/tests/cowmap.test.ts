// CowMap against a plain Map: the same answers for every key shape (dense ids, prefixed ids,
// other strings), and forks that never see each other's writes.
import { describe, expect, it } from "vitest";
import { BARE, CowMap, kindOf } from "../src/model/cowmap";

function rng(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const KEYS = (r: () => number): string => {
  const n = Math.floor(r() * 700);
  switch (Math.floor(r() * 9)) {
    case 0: return `t${n}`;
    case 1: return `c${n}`;
    case 2: return `${n}>${Math.floor(r() * 10)}`; // dense for inputs 0-7, else another key
    case 3: return `0${n}`; // not canonical: another key than String(n)
    case 4: return `${n + 16_777_200}`; // beyond the dense range
    case 5: return ["", "t", "T5", "x-1", "1.5", "-3", "3>", ">1", "03>1", "t3>1", "3>01", "2097152>0", "2097151>7"][Math.floor(r() * 13)] as string;
    default: return String(n);
  }
};

function same(m: CowMap<number>, ref: Map<string, number>): void {
  expect(m.size).toBe(ref.size);
  expect(new Map(m.entries())).toEqual(ref);
  expect([...m.values()].sort((a, b) => a - b)).toEqual([...ref.values()].sort((a, b) => a - b));
  expect(new Set(m.keys())).toEqual(new Set(ref.keys()));
}

describe("CowMap", () => {
  it("answers as a Map does, for every shape of key", () => {
    const r = rng(1);
    const m = new CowMap<number>();
    const ref = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const k = KEYS(r);
      if (r() < 0.25) expect(m.delete(k)).toBe(ref.delete(k));
      else {
        m.set(k, i);
        ref.set(k, i);
      }
      const q = KEYS(r);
      expect(m.get(q)).toBe(ref.get(q));
      expect(m.has(q)).toBe(ref.has(q));
    }
    same(m, ref);
  });

  it("forks: neither side sees the other's writes, however often it forks", () => {
    const r = rng(7);
    const maps: [CowMap<number>, Map<string, number>][] = [[new CowMap<number>(), new Map()]];
    for (let i = 0; i < 4000; i++) {
      const pick = maps[Math.floor(r() * maps.length)] as [CowMap<number>, Map<string, number>];
      const [m, ref] = pick;
      const k = KEYS(r);
      const u = r();
      if (u < 0.05) maps.push([m.fork(), new Map(ref)]);
      else if (u < 0.3) expect(m.delete(k)).toBe(ref.delete(k));
      else {
        m.set(k, i);
        ref.set(k, i);
      }
    }
    expect(maps.length).toBeGreaterThan(50);
    for (const [m, ref] of maps) same(m, ref);
  });

  it("reads and writes ids by number as by their keys", () => {
    const m = new CowMap<string>();
    const t = kindOf("t");
    m.setAt(BARE, 300, "node 300");
    m.setAt(t, 5, "leaf 5");
    m.set("c5", "cut 5");
    expect(m.get("300")).toBe("node 300");
    expect(m.get("t5")).toBe("leaf 5");
    expect(m.getAt(kindOf("c"), 5)).toBe("cut 5");
    expect(m.hasAt(BARE, 5)).toBe(false);
    expect(m.get("5")).toBeUndefined();
    const f = m.fork();
    expect(f.deleteAt(t, 5)).toBe(true);
    expect(f.has("t5")).toBe(false);
    expect(m.get("t5")).toBe("leaf 5");
    expect([f.size, m.size]).toEqual([2, 3]);
    expect(() => kindOf("T")).toThrow();
    // numbers a page does not hold (too large, negative, fractional) are keys like any other
    for (const n of [2 ** 25, -3, 1.5]) {
      m.setAt(BARE, n, `n ${n}`);
      expect(m.get(String(n))).toBe(`n ${n}`);
      expect(m.getAt(BARE, n)).toBe(`n ${n}`);
    }
    expect(m.size).toBe(6);
  });
});
