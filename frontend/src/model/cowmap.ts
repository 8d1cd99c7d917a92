// A string-keyed map that forks in O(pages): the run state's maps (snapshots for time travel
// fork them every few thousand events) and the reducer's hottest lookups.
// The model's ids are dense integers, bare ("123": a grad_fn node, a tensor) or behind one
// lowercase letter ("t5": a leaf's vertex, "c5": a cut point). Such keys live in arrays of
// PAGE slots per letter, indexed by the number (no hashing, no Map entry per key); a fork
// shares every page until one side writes to it. Any other key ("7|self", "12>9") goes to
// Maps chunked by the key's first number, forked the same way. An edge's key ("12>0", the
// gradient along node 12's first edge) is dense too, as number 12 * 8 + 0 (first 8 edges).
// Ownership is a token: a page (or chunk) written since the last fork carries its map's
// token; a fork gives both sides new tokens, so neither writes into a page the other reads.
//
// Hot callers that hold a number skip the key's parsing: `getAt(kind, n)` etc., with `BARE`
// (0) for bare ids and `kindOf("t")` for a letter. Values are never `undefined` (an empty
// slot).

const PAGE_BITS = 8;
const PAGE = 1 << PAGE_BITS;
const MASK = PAGE - 1;
/** Dense keys carry numbers below 2^24 (larger ones use the chunked Maps). */
const DENSE_BITS = 24;
const DENSE_MASK = (1 << DENSE_BITS) - 1;
const MAX_CHUNK = 4095;

/** The kind of a bare numeric key ("123"). */
export const BARE = 0;

/** The kind of keys `<letter><digits>` ("t5" -> kindOf("t")). */
export function kindOf(letter: string): number {
  const c = letter.charCodeAt(0);
  if (letter.length !== 1 || c < 97 || c > 122) throw new Error(`not a key letter: ${letter}`);
  return c - 96;
}

const LETTERS = " abcdefghijklmnopqrstuvwxyz";

/** A page: PAGE slots, then the token of the map that may write it. */
type Page = unknown[];

/** The kind of edge keys "<node>><input>" (a gradient along one of a node's first 8 edges):
 *  number `node * 8 + input`. */
const EDGE = 27;

/** Parsed key: `kind << 24 | n`, or -1 when the key is neither `[a-z]?<canonical digits>`
 *  with n < 2^24 nor `<canonical digits>><0-7>` with a node below 2^21. */
function parse(k: string): number {
  const len = k.length;
  let i = 0;
  let kind = 0;
  const c0 = k.charCodeAt(0);
  if (c0 >= 97 && c0 <= 122) {
    kind = c0 - 96;
    i = 1;
  }
  const start = i;
  let v = 0;
  for (; i < len; i++) {
    const c = k.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
  }
  const digits = i - start;
  // canonical decimal only ("007" and "" are other keys), and small enough
  if (digits === 0 || digits > 8 || (digits > 1 && k.charCodeAt(start) === 48)) return -1;
  if (i === len) return v > DENSE_MASK ? -1 : (kind << DENSE_BITS) | v;
  if (kind === 0 && i === len - 2 && k.charCodeAt(i) === 62) {
    const e = k.charCodeAt(i + 1) - 48;
    if (e >= 0 && e < 8 && v < 1 << (DENSE_BITS - 3)) return (EDGE << DENSE_BITS) | (v << 3) | e;
  }
  return -1;
}

/** The chunk of another key: its first number's high bits (so "12>0" and "12>1" share one). */
function chunkOf(k: string): number {
  let i = 0;
  while (i < k.length && (k.charCodeAt(i) < 48 || k.charCodeAt(i) > 57)) i++;
  let v = 0;
  for (; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    if (v > MAX_CHUNK << PAGE_BITS) break;
  }
  return Math.min(v >> PAGE_BITS, MAX_CHUNK);
}

/** Whether `n` is a number a dense key carries (else its key goes to the chunked Maps). */
function dense(n: number): boolean {
  return (n & DENSE_MASK) === n;
}

function keyOf(kind: number, n: number): string {
  return (kind === 0 ? "" : (LETTERS[kind] as string)) + String(n);
}

export class CowMap<V extends {} | null> implements Iterable<[string, V]> {
  /** kind -> page index -> page. */
  private pages: (Page | undefined)[][] = [];
  private chunks: (Map<string, V> | undefined)[] = [];
  private chunkOwner: (object | undefined)[] = [];
  private token: object = {};
  private n = 0;

  constructor(entries?: Iterable<[string, V]>) {
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  get size(): number {
    return this.n;
  }

  // -- dense keys by number -------------------------------------------------------------
  getAt(kind: number, n: number): V | undefined {
    if (!dense(n)) return this.get(keyOf(kind, n));
    return this.pages[kind]?.[n >> PAGE_BITS]?.[n & MASK] as V | undefined;
  }

  hasAt(kind: number, n: number): boolean {
    if (!dense(n)) return this.has(keyOf(kind, n));
    return this.pages[kind]?.[n >> PAGE_BITS]?.[n & MASK] !== undefined;
  }

  setAt(kind: number, n: number, v: V): this {
    if (!dense(n)) return this.set(keyOf(kind, n), v);
    const slots = this.writablePage(kind, n >> PAGE_BITS);
    const i = n & MASK;
    if (slots[i] === undefined) this.n += 1;
    slots[i] = v;
    return this;
  }

  deleteAt(kind: number, n: number): boolean {
    if (!dense(n)) return this.delete(keyOf(kind, n));
    if (!this.hasAt(kind, n)) return false;
    this.writablePage(kind, n >> PAGE_BITS)[n & MASK] = undefined;
    this.n -= 1;
    return true;
  }

  private writablePage(kind: number, pi: number): Page {
    for (let k = this.pages.length; k <= kind; k++) this.pages.push([]);
    const kp = this.pages[kind] as (Page | undefined)[];
    const p = kp[pi];
    if (p !== undefined && p[PAGE] === this.token) return p;
    const q: Page = p === undefined ? new Array<unknown>(PAGE + 1) : p.slice();
    q[PAGE] = this.token;
    kp[pi] = q;
    return q;
  }

  // -- any key --------------------------------------------------------------------------
  get(k: string): V | undefined {
    const p = parse(k);
    if (p >= 0) return this.getAt(p >>> DENSE_BITS, p & DENSE_MASK);
    return this.chunks[chunkOf(k)]?.get(k);
  }

  has(k: string): boolean {
    const p = parse(k);
    if (p >= 0) return this.hasAt(p >>> DENSE_BITS, p & DENSE_MASK);
    return this.chunks[chunkOf(k)]?.has(k) ?? false;
  }

  set(k: string, v: V): this {
    const p = parse(k);
    if (p >= 0) return this.setAt(p >>> DENSE_BITS, p & DENSE_MASK, v);
    const c = this.writableChunk(chunkOf(k));
    const before = c.size;
    c.set(k, v);
    this.n += c.size - before;
    return this;
  }

  delete(k: string): boolean {
    const p = parse(k);
    if (p >= 0) return this.deleteAt(p >>> DENSE_BITS, p & DENSE_MASK);
    const ci = chunkOf(k);
    if (!this.chunks[ci]?.has(k)) return false;
    this.writableChunk(ci).delete(k);
    this.n -= 1;
    return true;
  }

  private writableChunk(ci: number): Map<string, V> {
    const c = this.chunks[ci];
    if (c !== undefined && this.chunkOwner[ci] === this.token) return c;
    const d = c === undefined ? new Map<string, V>() : new Map(c);
    this.chunks[ci] = d;
    this.chunkOwner[ci] = this.token;
    return d;
  }

  /** A copy that shares storage with this map until either side writes. */
  fork(): CowMap<V> {
    const f = new CowMap<V>();
    f.pages = this.pages.map((kp) => kp.slice());
    f.chunks = this.chunks.slice();
    f.chunkOwner = new Array<object | undefined>(f.chunks.length);
    f.n = this.n;
    // pages written from now on are copied first, on either side
    this.token = {};
    return f;
  }

  /** Entries: dense keys by kind (bare first, then by letter, then edges) and number, then the
   *  others. */
  *entries(): IterableIterator<[string, V]> {
    for (let kind = 0; kind < this.pages.length; kind++) {
      const kp = this.pages[kind] as (Page | undefined)[];
      const prefix = kind === 0 || kind === EDGE ? "" : (LETTERS[kind] as string);
      for (let pi = 0; pi < kp.length; pi++) {
        const p = kp[pi];
        if (p === undefined) continue;
        for (let i = 0; i < PAGE; i++) {
          const v = p[i];
          if (v === undefined) continue;
          const n = pi * PAGE + i;
          yield [kind === EDGE ? `${n >> 3}>${n & 7}` : prefix + String(n), v as V];
        }
      }
    }
    for (const c of this.chunks) if (c) yield* c.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<V> {
    for (const kp of this.pages) {
      for (const p of kp) {
        if (p === undefined) continue;
        for (let i = 0; i < PAGE; i++) {
          const v = p[i];
          if (v !== undefined) yield v as V;
        }
      }
    }
    for (const c of this.chunks) if (c) yield* c.values();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
