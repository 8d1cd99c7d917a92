// A layered layout that leans on the tape: vertices arrive in topological order (every edge
// points at a vertex seen earlier), so a vertex's layer and x are fixed when it arrives and
// never move later. Cost per append is O(edges of the new vertex).
// Leaves and AccumulateGrad nodes are "deferred": they wait until their first consumer
// arrives and are then placed just above it, so parameters sit next to the ops that use them
// instead of in one long row at the top. `flush` places any that no op ever used, to the
// right of everything.
// Module calls get bands: when the chain of open module calls changes (a call opens or
// closes), the next vertex starts below everything placed so far, with room for the box
// titles. So the boxes of two module calls never overlap, and nothing else sits in a box.

export interface LayoutItem {
  id: string;
  /** Ids this vertex points at (its inputs in the forward graph). */
  to: string[];
  /** Width in px, from the label. */
  width: number;
  /** Wait for the first consumer before placing (leaves, AccumulateGrad). */
  defer?: boolean;
  /** The module calls a grad_fn node runs in, outermost first (keys such as "Net#0",
   *  "Net.fc1#1"); undefined for other vertices. */
  scope?: readonly string[];
  /** Height in px (NODE_H when absent): a collapsed module's box is taller. */
  h?: number;
}

export interface Placed {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  rank: number;
  /** Placed by `flush`: a leaf no op consumed (an unused parameter), kept out of Fit. */
  loose?: boolean;
  /** The placed vertices this one points at (its inputs), as the view graph maps them. */
  to?: string[];
}

export const NODE_H = 30;
export const RANK_GAP = 64;
export const H_GAP = 24;

/** Module box geometry, shared with scene.ts: title strip, padding, and the extra margin of a
 *  box around a nested one; LABEL is the space a leaf's `.grad` label takes above it. */
export const BOX = { title: 20, pad: 8, nest: 6, label: 14, margin: 6 };

/** Extra space above the first rank of a band, so closed boxes end and opened boxes (with a
 *  title per level) start between the two rows. */
export function bandGap(closed: number, opened: number): number {
  const below = closed ? NODE_H + BOX.pad + (closed - 1) * BOX.nest : NODE_H;
  const above = BOX.label + (opened ? BOX.pad + BOX.title + (opened - 1) * (BOX.title + 2) : 0);
  return Math.max(0, below + above + BOX.margin - RANK_GAP);
}


export class LayeredLayout {
  private placed = new Map<string, Placed>();
  /** Right edge of the last vertex on each rank. */
  private right: number[] = [];
  /** Lowest rank a new (non-deferred) vertex may take: the start of the current band. */
  private floor = 0;
  private maxRank = -1;
  private maxRight = -Infinity;
  private chain: readonly string[] = [];
  /** y of each rank; a band's first rank carries its gap. */
  private ys: number[] = [];
  private gaps = new Map<number, number>();

  get size(): number {
    return this.placed.size;
  }

  get(id: string): Placed | undefined {
    return this.placed.get(id);
  }

  /** Placed, or waiting for its first consumer. */
  has(id: string): boolean {
    return this.placed.has(id) || this.pending.has(id);
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  /** Forget a waiting vertex (it will be drawn inside something else). */
  drop(id: string): void {
    this.pending.delete(id);
  }

  /** For each deferred vertex placed for a consumer, that consumer's id. */
  readonly placedFor = new Map<string, string>();

  private pending = new Map<string, LayoutItem>();

  /** Place new vertices; vertices already placed keep their position (re-adds are ignored). */
  add(items: LayoutItem[]): Placed[] {
    const out: Placed[] = [];
    for (const item of items) {
      if (this.placed.has(item.id) || this.pending.has(item.id)) continue;
      if (item.defer) this.pending.set(item.id, item);
      else {
        if (item.scope !== undefined) this.enterScope(item.scope);
        this.placeWithPending(item, out, this.floor);
      }
    }
    return out;
  }

  /** A change in the open module calls starts a new band below everything placed. */
  private enterScope(next: readonly string[]): void {
    let same = 0;
    while (same < next.length && same < this.chain.length && next[same] === this.chain[same]) same += 1;
    const closed = this.chain.length - same, opened = next.length - same;
    this.chain = next;
    if (closed === 0 && opened === 0) return;
    this.floor = this.maxRank + 1;
    this.gaps.set(this.floor, bandGap(closed, opened));
  }

  /** Place every deferred vertex that is still waiting (those `keep` accepts): at the top,
   *  right of everything. */
  flush(keep: (id: string) => boolean = () => true): Placed[] {
    const out: Placed[] = [];
    for (const item of [...this.pending.values()]) {
      if (this.pending.has(item.id) && keep(item.id)) this.placeWithPending(item, out, 0, this.maxRight + H_GAP);
    }
    for (const p of out) p.loose = true;
    return out;
  }

  private yOf(rank: number): number {
    for (let i = this.ys.length; i <= rank; i++) {
      this.ys.push((i === 0 ? 0 : (this.ys[i - 1] as number) + RANK_GAP) + (this.gaps.get(i) ?? 0));
    }
    return this.ys[rank] as number;
  }

  private placeWithPending(item: LayoutItem, out: Placed[], floor: number, minX = -Infinity): void {
    this.pending.delete(item.id);
    // an op may use one vertex twice (x * x): each waiting vertex is placed once
    const waiting = [...new Set(item.to)].map((t) => this.pending.get(t)).filter((x): x is LayoutItem => x !== undefined);
    let rank = 0;
    let sumX = 0;
    let n = 0;
    for (const t of item.to) {
      const p = this.placed.get(t);
      if (!p) continue;
      rank = Math.max(rank, p.rank + 1);
      sumX += p.x + p.w / 2;
      n += 1;
    }
    const depth = Math.max(0, ...waiting.map((w) => this.pendingDepth(w)));
    rank = Math.max(rank, floor + (waiting.length ? depth + 1 : 0));
    let hint = n > 0 ? sumX / n : Math.max(this.right[rank] ?? 0, minX) + H_GAP + item.width / 2;
    hint = Math.max(hint, minX + item.width / 2);
    for (const w of waiting) this.placeAbove(w, rank - 1, hint, out, minX, item.id);
    this.place(item, rank, out, hint, minX);
  }

  /** Ranks a deferred vertex needs above it (a leaf under its AccumulateGrad needs one). */
  private pendingDepth(item: LayoutItem): number {
    let d = 0;
    for (const t of item.to) {
      const w = this.pending.get(t);
      if (w) d = Math.max(d, this.pendingDepth(w) + 1);
    }
    return d;
  }

  private placeAbove(item: LayoutItem, rank: number, hint: number, out: Placed[], minX: number, consumer: string): void {
    this.pending.delete(item.id);
    this.placedFor.set(item.id, consumer);
    for (const t of item.to) {
      const w = this.pending.get(t);
      if (w) this.placeAbove(w, rank - 1, hint, out, minX, consumer);
    }
    this.place(item, rank, out, hint, minX);
  }

  private place(item: LayoutItem, rank: number, out: Placed[], hint?: number, minX = -Infinity): void {
    let sumX = 0;
    let n = 0;
    for (const t of item.to) {
      const p = this.placed.get(t);
      if (!p) continue;
      sumX += p.x + p.w / 2;
      n += 1;
    }
    const center = n > 0 ? sumX / n : (hint ?? 0);
    const x = Math.max(center - item.width / 2, (this.right[rank] ?? -Infinity) + H_GAP, minX);
    const to = [...new Set(item.to)].filter((t) => this.placed.has(t));
    const p: Placed = { id: item.id, x, y: this.yOf(rank), w: item.width, h: item.h ?? NODE_H, rank, to };
    this.right[rank] = x + item.width;
    this.maxRight = Math.max(this.maxRight, x + item.width);
    this.maxRank = Math.max(this.maxRank, rank);
    this.placed.set(item.id, p);
    out.push(p);
  }
}

/** Width of a vertex box for a label of `textWidth` px (measured by the page). */
export function boxWidth(textWidth: number): number {
  return Math.ceil(Math.min(320, Math.max(64, textWidth + 26)));
}
