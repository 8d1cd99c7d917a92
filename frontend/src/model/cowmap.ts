// A string-keyed map that forks in O(chunks): entries live in chunks by the number in their
// key (ids are dense integers, so a run's appends and a backward's updates touch few chunks),
// and a fork shares every chunk until one side writes to it. This is what makes a snapshot of
// a 30k-node state cost microseconds instead of tens of milliseconds.

const SHIFT = 8;
const MAX_CHUNK = 4095;

function chunkOf(k: string): number {
  let i = 0;
  while (i < k.length && (k.charCodeAt(i) < 48 || k.charCodeAt(i) > 57)) i++;
  let v = 0;
  for (; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    if (v > MAX_CHUNK << SHIFT) break;
  }
  return Math.min(v >> SHIFT, MAX_CHUNK);
}

export class CowMap<V> implements Iterable<[string, V]> {
  private chunks: (Map<string, V> | undefined)[] = [];
  private owned: boolean[] = [];
  private n = 0;

  constructor(entries?: Iterable<[string, V]>) {
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  get size(): number {
    return this.n;
  }

  get(k: string): V | undefined {
    return this.chunks[chunkOf(k)]?.get(k);
  }

  has(k: string): boolean {
    return this.chunks[chunkOf(k)]?.has(k) ?? false;
  }

  private writable(ci: number): Map<string, V> {
    let c = this.chunks[ci];
    if (!c) {
      c = new Map();
    } else if (!this.owned[ci]) {
      c = new Map(c);
    } else {
      return c;
    }
    this.chunks[ci] = c;
    this.owned[ci] = true;
    return c;
  }

  set(k: string, v: V): this {
    const ci = chunkOf(k);
    const c = this.writable(ci);
    const before = c.size;
    c.set(k, v);
    this.n += c.size - before;
    return this;
  }

  delete(k: string): boolean {
    const ci = chunkOf(k);
    if (!this.chunks[ci]?.has(k)) return false;
    this.writable(ci).delete(k);
    this.n -= 1;
    return true;
  }

  /** A copy that shares storage with this map until either side writes. */
  fork(): CowMap<V> {
    const f = new CowMap<V>();
    f.chunks = this.chunks.slice();
    f.owned = new Array<boolean>(f.chunks.length).fill(false);
    this.owned = new Array<boolean>(this.chunks.length).fill(false);
    f.n = this.n;
    return f;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const c of this.chunks) if (c) yield* c.entries();
  }

  *keys(): IterableIterator<string> {
    for (const c of this.chunks) if (c) yield* c.keys();
  }

  *values(): IterableIterator<V> {
    for (const c of this.chunks) if (c) yield* c.values();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
