// The layout worker's messages as typed arrays, moved (transferred) rather than copied: a
// structured clone of 40k item or placement objects cost the page's main thread as much as
// the layout itself (each object rebuilt property by property on the other side).
// Ids travel as numbers. Each side keeps a table of the names it made, and a message brings
// the names its side added since its last message: the page's names are numbered 0, 1, …
// and the worker's (collapsed module boxes, "m:…") -1, -2, … so the two never race for a
// number. Both tables start again with each layout epoch (a `reset`).
import type { RawItem } from "./graphview";
import type { Placed } from "./layered";

/** One side's table of names: its own (numbered 0, 1, … on the page, -1, -2, … in the
 *  worker) and those the other side told. `id(name)` numbers a name, making it one of ours
 *  when neither side has it (told with our next message, see `fresh`). */
export class Names {
  private readonly index = new Map<string, number>();
  private readonly own: string[] = [];
  private readonly told: string[] = [];
  private sent = 0;

  constructor(private readonly sign: 1 | -1) {}

  id(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.sign === 1 ? this.own.length : -1 - this.own.length;
      this.own.push(name);
      this.index.set(name, i);
    }
    return i;
  }

  name(i: number): string {
    const mine = (i < 0) === (this.sign < 0);
    const n = mine ? this.own[this.sign === 1 ? i : -1 - i] : this.told[this.sign === 1 ? -1 - i : i];
    if (n === undefined) throw new Error(`layout message: no name numbered ${i}`);
    return n;
  }

  /** Our names made since the last call (to go with the message being built). */
  fresh(): string[] {
    const out = this.own.slice(this.sent);
    this.sent = this.own.length;
    return out;
  }

  /** Names the other side made, in its order. */
  take(names: readonly string[]): void {
    for (const n of names) {
      const i = this.sign === 1 ? -1 - this.told.length : this.told.length;
      this.told.push(n);
      this.index.set(n, i);
    }
  }
}

/** Layout items, packed: item i has id `id[i]`, inputs `to[toAt[i]..toAt[i+1])`, scope chain
 *  `scope[i]` (a name: the keys joined by SCOPE_SEP; -2 when it has none). */
export interface PackedItems {
  names: string[];
  id: Int32Array;
  width: Float64Array;
  seq: Float64Array;
  /** 1: deferred (a leaf, an AccumulateGrad). */
  defer: Uint8Array;
  toAt: Int32Array;
  to: Int32Array;
  scope: Int32Array;
  /** The few items with parameters: [item index, its params]. */
  params: [number, (readonly [string, string])[]][];
}

const SCOPE_SEP = "\u0001";
const NO_SCOPE = -(2 ** 31);

export function packItems(items: readonly RawItem[], table: Names): PackedItems {
  const n = items.length;
  let edges = 0;
  for (const it of items) edges += it.to.length;
  const p: PackedItems = {
    names: [], id: new Int32Array(n), width: new Float64Array(n), seq: new Float64Array(n), defer: new Uint8Array(n),
    toAt: new Int32Array(n + 1), to: new Int32Array(edges), scope: new Int32Array(n), params: [],
  };
  let e = 0;
  for (let i = 0; i < n; i++) {
    const it = items[i] as RawItem;
    p.id[i] = table.id(it.id);
    p.width[i] = it.width;
    p.seq[i] = it.seq;
    p.defer[i] = it.defer ? 1 : 0;
    p.toAt[i] = e;
    for (const t of it.to) p.to[e++] = table.id(t);
    // the empty chain is a name too (SCOPE_SEP alone), so it differs from no chain
    p.scope[i] = it.scope === undefined ? NO_SCOPE : table.id(SCOPE_SEP + it.scope.join(SCOPE_SEP));
    if (it.params) p.params.push([i, it.params.map(([a, b]) => [a, b] as const)]);
  }
  p.toAt[n] = e;
  p.names = table.fresh();
  return p;
}

/** The buffers a packed message moves to the other side. */
export function itemBuffers(p: PackedItems): ArrayBuffer[] {
  return [p.id, p.width, p.seq, p.defer, p.toAt, p.to, p.scope].map((a) => a.buffer as ArrayBuffer);
}

/** Unpack items; scope chains are shared arrays (one per distinct chain). */
export function unpackItems(p: PackedItems, names: Names, chains: Map<number, readonly string[]>): RawItem[] {
  names.take(p.names);
  const out: RawItem[] = [];
  const params = new Map(p.params);
  for (let i = 0; i < p.id.length; i++) {
    const to: string[] = [];
    for (let e = p.toAt[i] as number; e < (p.toAt[i + 1] as number); e++) to.push(names.name(p.to[e] as number));
    const it: RawItem = { id: names.name(p.id[i] as number), to, width: p.width[i] as number, seq: p.seq[i] as number };
    if (p.defer[i]) it.defer = true;
    const sc = p.scope[i] as number;
    if (sc !== NO_SCOPE) {
      let chain = chains.get(sc);
      if (!chain) {
        const joined = names.name(sc);
        chain = joined === SCOPE_SEP ? [] : joined.slice(1).split(SCOPE_SEP);
        chains.set(sc, chain);
      }
      it.scope = chain;
    }
    const ps = params.get(i);
    if (ps) it.params = ps;
    out.push(it);
  }
  return out;
}

/** Placements, packed: box i is `id[i]` at `geom[4i..4i+4)` (x, y, w, h) on rank `rank[i]`,
 *  pointing at `to[toAt[i]..toAt[i+1])`; `alias` holds pairs (vertex, the box it is in). */
export interface PackedPlaced {
  names: string[];
  id: Int32Array;
  geom: Float64Array;
  rank: Int32Array;
  /** 1: loose (a leaf no op used); 2: `to` absent. */
  flags: Uint8Array;
  toAt: Int32Array;
  to: Int32Array;
  alias: Int32Array;
}

export function packPlaced(placed: readonly Placed[], alias: readonly (readonly [string, string])[], table: Names): PackedPlaced {
  const n = placed.length;
  let edges = 0;
  for (const p of placed) edges += p.to?.length ?? 0;
  const out: PackedPlaced = {
    names: [], id: new Int32Array(n), geom: new Float64Array(4 * n), rank: new Int32Array(n), flags: new Uint8Array(n),
    toAt: new Int32Array(n + 1), to: new Int32Array(edges), alias: new Int32Array(2 * alias.length),
  };
  let e = 0;
  for (let i = 0; i < n; i++) {
    const p = placed[i] as Placed;
    out.id[i] = table.id(p.id);
    out.geom[4 * i] = p.x;
    out.geom[4 * i + 1] = p.y;
    out.geom[4 * i + 2] = p.w;
    out.geom[4 * i + 3] = p.h;
    out.rank[i] = p.rank;
    out.flags[i] = (p.loose ? 1 : 0) | (p.to === undefined ? 2 : 0);
    out.toAt[i] = e;
    for (const t of p.to ?? []) out.to[e++] = table.id(t);
  }
  out.toAt[n] = e;
  alias.forEach(([v, a], i) => {
    out.alias[2 * i] = table.id(v);
    out.alias[2 * i + 1] = table.id(a);
  });
  out.names = table.fresh();
  return out;
}

export function placedBuffers(p: PackedPlaced): ArrayBuffer[] {
  return [p.id, p.geom, p.rank, p.flags, p.toAt, p.to, p.alias].map((a) => a.buffer as ArrayBuffer);
}

export function unpackPlaced(p: PackedPlaced, names: Names): { placed: Placed[]; alias: [string, string][] } {
  names.take(p.names);
  const placed: Placed[] = [];
  for (let i = 0; i < p.id.length; i++) {
    const f = p.flags[i] as number;
    const q: Placed = { id: names.name(p.id[i] as number), x: p.geom[4 * i] as number, y: p.geom[4 * i + 1] as number, w: p.geom[4 * i + 2] as number, h: p.geom[4 * i + 3] as number, rank: p.rank[i] as number };
    if (f & 1) q.loose = true;
    if (!(f & 2)) {
      const to: string[] = [];
      for (let e = p.toAt[i] as number; e < (p.toAt[i + 1] as number); e++) to.push(names.name(p.to[e] as number));
      q.to = to;
    }
    placed.push(q);
  }
  const alias: [string, string][] = [];
  for (let i = 0; i < p.alias.length; i += 2) alias.push([names.name(p.alias[i] as number), names.name(p.alias[i + 1] as number)]);
  return { placed, alias };
}
