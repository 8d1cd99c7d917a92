// The graph the page draws, built in the layout worker from every vertex of the run and the
// view's choices (Model Explorer's way of reading a big model):
// - a collapsed module call is one ordinary box (its ops and its parameters inside it), placed
//   where its first op would go, so the layout compacts around it;
// - a folded training loop draws one iteration's ops (segment i: after the i-th backward
//   started, before the next), with the parameters those ops use drawn once above them.
// Vertices hidden in a collapsed call are aliased to its box; the page draws edges and finds
// a vertex's place through the alias.
import { BOX, LayeredLayout, type LayoutItem, type Placed } from "./layered";

/** One vertex of the run, as the page describes it to the layout. */
export interface RawItem extends LayoutItem {
  /** The vertex's seq (its event): which iteration it belongs to. */
  seq: number;
  /** Parameters this op uses (AccumulateGrad and leaf ids) with the module call owning them. */
  params?: readonly (readonly [string, string])[];
}

/** What the view shows: collapsed module paths, and the iteration drawn (null: all). */
export interface GraphOptions {
  collapsed: readonly string[];
  iteration: number | null;
  /** Seqs of the run's backward_started events (iteration boundaries). */
  backwardSeqs: readonly number[];
}

/** An open (expanded) module call's frame around its ops and parameters. */
export interface ModuleFrame {
  key: string;
  path: string;
  x: number;
  y: number;
  w: number;
  h: number;
  depth: number;
  /** The vertices and collapsed boxes drawn inside it. */
  members: string[];
}

export interface GraphOutput {
  /** True when the positions replace every earlier one (options changed: a new layout). */
  replace: boolean;
  placed: Placed[];
  /** Vertex id -> the box it is drawn in (a collapsed call: "m:<key>"). */
  alias: [string, string][];
  frames: ModuleFrame[];
}

/** Height of a collapsed module's box: two lines (name and type; shapes). */
export const MODULE_H = 42;

/** "Net.fc1#3" -> "Net.fc1" (module paths may hold dots: "layers.0"). */
export function pathOfKey(key: string): string {
  const i = key.lastIndexOf("#");
  return i >= 0 ? key.slice(0, i) : key;
}

export const MODULE_PREFIX = "m:";

interface Extent { x0: number; y0: number; x1: number; y1: number; depth: number; parent: string | null; members: string[] }

export class GraphView {
  private items: RawItem[] = [];
  private byId = new Map<string, RawItem>();
  /** Where each vertex is in `items`. */
  private at = new Map<string, number>();
  private widths = new Map<string, number>();
  private opts: GraphOptions = { collapsed: [], iteration: null, backwardSeqs: [] };
  private collapsed = new Set<string>();
  private layout = new LayeredLayout();
  private alias = new Map<string, string>();
  private newAlias: [string, string][] = [];
  private ownerOf = new Map<string, string>();
  private extents = new Map<string, Extent>();
  /** Raw items fed to the layout so far (in folded mode: of the shown segment). */
  private fed = 0;
  private flushed = false;
  /** The collapsed call being read: its box is placed once the call is over (its first op
   *  may use only parameters; its inputs come with later ops). */
  private open: { key: string; to: string[]; scope: readonly string[] } | null = null;

  /** Vertices told so far. */
  get size(): number {
    return this.items.length;
  }

  /** Take new vertices (and module box widths); place what the view shows of them. */
  add(items: readonly RawItem[], modules: readonly (readonly [string, number])[], flush: boolean): GraphOutput {
    for (const [k, w] of modules) this.widths.set(k, w);
    for (const it of items) {
      if (this.byId.has(it.id)) continue;
      this.at.set(it.id, this.items.length);
      this.items.push(it);
      this.byId.set(it.id, it);
    }
    const placed = this.feed();
    if (flush) {
      this.flushed = true;
      placed.push(...this.flush());
    }
    return this.output(false, placed);
  }

  /** Vertices told before, described again (a label heard later widens a box): the view graph
   *  is laid out again with them (a box placed at one width cannot grow where it stands). */
  revise(items: readonly RawItem[], modules: readonly (readonly [string, number])[]): GraphOutput {
    for (const [k, w] of modules) this.widths.set(k, w);
    for (const it of items) {
      const i = this.at.get(it.id);
      if (i === undefined) continue;
      this.items[i] = it;
      this.byId.set(it.id, it);
    }
    return this.setOptions(this.opts);
  }

  /** New options: lay the view graph out again from scratch. */
  setOptions(opts: GraphOptions): GraphOutput {
    this.opts = opts;
    this.collapsed = new Set(opts.collapsed);
    this.layout = new LayeredLayout();
    this.alias = new Map();
    this.newAlias = [];
    this.ownerOf = new Map();
    this.extents = new Map();
    this.fed = 0;
    this.open = null;
    const placed = this.feed();
    if (this.flushed) placed.push(...this.flush());
    return this.output(true, placed);
  }

  private iterationOf(seq: number): number {
    const b = this.opts.backwardSeqs;
    let lo = 0, hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((b[mid] as number) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private flush(): Placed[] {
    const out: Placed[] = [];
    this.close(out);
    // a readable (collapsed or folded) view leaves out leaves no op used: the node list has them
    if (this.opts.iteration === null && this.collapsed.size === 0) out.push(...this.layout.flush());
    return out;
  }

  /** Place the box of the collapsed call just read. */
  private close(out: Placed[]): void {
    const o = this.open;
    if (!o) return;
    this.open = null;
    const rep = MODULE_PREFIX + o.key;
    const to = o.to.filter((t) => this.layout.has(t));
    const item: LayoutItem = { id: rep, to, width: this.widths.get(o.key) ?? 160, h: MODULE_H, scope: o.scope };
    this.grow(this.layout.add([item]), out, o.scope);
  }

  private feed(): Placed[] {
    const out: Placed[] = [];
    const it = this.opts.iteration;
    for (; this.fed < this.items.length; this.fed++) {
      const r = this.items[this.fed] as RawItem;
      if (r.defer) {
        // folded: a parameter comes in when an op of the shown iteration uses it (pull)
        if (it === null || this.iterationOf(r.seq) === it) this.layout.add([r]);
        continue;
      }
      if (it !== null && this.iterationOf(r.seq) !== it) continue;
      this.place(r, out);
    }
    return out;
  }

  /** Deferred vertices from other iterations that `ids` use, brought in before their user. */
  private pull(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.layout.has(id) || this.alias.has(id)) continue;
      const r = this.byId.get(id);
      if (!r?.defer) continue;
      this.pull(r.to);
      this.layout.add([r]);
    }
  }

  private setAlias(id: string, to: string): void {
    if (this.alias.get(id) === to) return;
    this.alias.set(id, to);
    this.newAlias.push([id, to]);
  }

  private place(r: RawItem, out: Placed[]): void {
    const chain = r.scope ?? [];
    for (const [p, owner] of r.params ?? []) if (!this.ownerOf.has(p)) this.ownerOf.set(p, owner);
    if (this.opts.iteration !== null) this.pull(r.to);
    const k = chain.findIndex((key) => this.collapsed.has(pathOfKey(key)));
    if (k < 0 || this.open?.key !== chain[k]) this.close(out);
    if (k < 0) {
      const to = this.mapTo(r.to, r.id, null);
      this.grow(this.layout.add([{ ...r, to }]), out, chain);
      return;
    }
    const key = chain[k] as string;
    const rep = MODULE_PREFIX + key;
    this.setAlias(r.id, rep);
    // the call's own parameters are inside its box
    const inside = (owner: string): boolean => chain.slice(k).includes(owner);
    const hidden = new Set<string>();
    for (const [p, owner] of r.params ?? []) {
      if (!inside(owner) || this.layout.get(p)) continue;
      hidden.add(p);
      this.layout.drop(p);
      this.setAlias(p, rep);
    }
    const to = this.mapTo(r.to.filter((t) => !hidden.has(t)), rep, hidden);
    const o = (this.open ??= { key, to: [], scope: chain.slice(0, k) });
    for (const t of to) if (!o.to.includes(t)) o.to.push(t);
  }

  /** Inputs as the view draws them: through aliases, without self-loops or hidden vertices. */
  private mapTo(to: readonly string[], self: string, hidden: Set<string> | null): string[] {
    const out: string[] = [];
    for (const t of to) {
      if (hidden?.has(t)) continue;
      const a = this.alias.get(t) ?? t;
      if (a === self || out.includes(a) || (!this.layout.has(a) && this.open?.key !== a.slice(MODULE_PREFIX.length))) continue;
      out.push(a);
    }
    return out;
  }

  /** Record placements; grow the frames of the open calls around them. */
  private grow(placed: Placed[], out: Placed[], chain: readonly string[]): void {
    for (const p of placed) {
      out.push(p);
      const consumer = this.layout.placedFor.get(p.id);
      if (consumer === undefined) {
        chain.forEach((key, i) => this.extend(key, i, chain, p, 0));
        continue;
      }
      // a parameter placed above the op that first used it: inside its owner's frame
      const owner = this.ownerOf.get(p.id);
      const i = owner !== undefined ? chain.indexOf(owner) : -1;
      if (i >= 0) for (let j = 0; j <= i; j++) this.extend(chain[j] as string, j, chain, p, BOX.label);
    }
  }

  private extend(key: string, i: number, chain: readonly string[], p: Placed, top: number): void {
    const e = this.extents.get(key);
    if (!e) {
      this.extents.set(key, { x0: p.x, y0: p.y - top, x1: p.x + p.w, y1: p.y + p.h, depth: i + 1, parent: i > 0 ? (chain[i - 1] as string) : null, members: [p.id] });
      return;
    }
    e.members.push(p.id);
    e.x0 = Math.min(e.x0, p.x);
    e.y0 = Math.min(e.y0, p.y - top);
    e.x1 = Math.max(e.x1, p.x + p.w);
    e.y1 = Math.max(e.y1, p.y + p.h);
  }

  /** Frames with room for titles; a parent's frame takes its children's (deepest first). */
  private frames(): ModuleFrame[] {
    const boxes = new Map<string, ModuleFrame & { parent: string | null }>();
    for (const [key, e] of this.extents) {
      boxes.set(key, { key, path: pathOfKey(key), x: e.x0 - BOX.pad, y: e.y0 - BOX.pad - BOX.title, w: e.x1 - e.x0 + 2 * BOX.pad, h: e.y1 - e.y0 + 2 * BOX.pad + BOX.title, depth: e.depth, parent: e.parent, members: e.members });
    }
    const deepest = [...boxes.values()].sort((a, b) => b.depth - a.depth);
    for (const b of deepest) {
      const p = b.parent !== null ? boxes.get(b.parent) : undefined;
      if (!p) continue;
      const x1 = Math.max(p.x + p.w, b.x + b.w + BOX.nest), y1 = Math.max(p.y + p.h, b.y + b.h + BOX.nest);
      p.x = Math.min(p.x, b.x - BOX.nest);
      p.y = Math.min(p.y, b.y - BOX.title - 2);
      p.w = x1 - p.x;
      p.h = y1 - p.y;
    }
    return [...boxes.values()].sort((a, b) => a.depth - b.depth).map(({ parent: _p, ...f }) => f);
  }

  private output(replace: boolean, placed: Placed[]): GraphOutput {
    const alias = this.newAlias;
    this.newAlias = [];
    return { replace, placed, alias, frames: this.frames() };
  }
}
