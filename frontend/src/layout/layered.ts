// A layered layout that leans on the tape: vertices arrive in topological order (every edge
// points at a vertex seen earlier), so a vertex's layer and x are fixed when it arrives and
// never move later. Cost per append is O(edges of the new vertex).
// Leaves and AccumulateGrad nodes are "deferred": they wait until their first consumer
// arrives and are then placed just above it, so parameters sit next to the ops that use them
// instead of in one long row at the top. `flush` places any that no op ever used.

export interface LayoutItem {
  id: string;
  /** Ids this vertex points at (its inputs in the forward graph). */
  to: string[];
  /** Width in px, from the label. */
  width: number;
  /** Wait for the first consumer before placing (leaves, AccumulateGrad). */
  defer?: boolean;
}

export interface Placed {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  rank: number;
}

export const NODE_H = 30;
export const RANK_GAP = 70;
export const H_GAP = 24;

export class LayeredLayout {
  private placed = new Map<string, Placed>();
  /** Right edge of the last vertex on each rank. */
  private right: number[] = [];

  get size(): number {
    return this.placed.size;
  }

  get(id: string): Placed | undefined {
    return this.placed.get(id);
  }

  private pending = new Map<string, LayoutItem>();

  /** Place new vertices; vertices already placed keep their position (re-adds are ignored). */
  add(items: LayoutItem[]): Placed[] {
    const out: Placed[] = [];
    for (const item of items) {
      if (this.placed.has(item.id) || this.pending.has(item.id)) continue;
      if (item.defer) this.pending.set(item.id, item);
      else this.placeWithPending(item, out);
    }
    return out;
  }

  /** Place every deferred vertex that is still waiting (on rank 0 or above its inputs). */
  flush(): Placed[] {
    const out: Placed[] = [];
    for (const item of [...this.pending.values()]) {
      if (this.pending.has(item.id)) this.placeWithPending(item, out);
    }
    return out;
  }

  private placeWithPending(item: LayoutItem, out: Placed[]): void {
    this.pending.delete(item.id);
    const waiting = item.to.map((t) => this.pending.get(t)).filter((x): x is LayoutItem => x !== undefined);
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
    rank = Math.max(rank, waiting.length ? depth + 1 : 0);
    const hint = n > 0 ? sumX / n : (this.right[rank] ?? 0) + H_GAP + item.width / 2;
    for (const w of waiting) this.placeAbove(w, rank - 1, hint, out);
    this.place(item, rank, out);
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

  private placeAbove(item: LayoutItem, rank: number, hint: number, out: Placed[]): void {
    this.pending.delete(item.id);
    for (const t of item.to) {
      const w = this.pending.get(t);
      if (w) this.placeAbove(w, rank - 1, hint, out);
    }
    this.place(item, rank, out, hint);
  }

  private place(item: LayoutItem, rank: number, out: Placed[], hint?: number): void {
    let sumX = 0;
    let n = 0;
    for (const t of item.to) {
      const p = this.placed.get(t);
      if (!p) continue;
      sumX += p.x + p.w / 2;
      n += 1;
    }
    const center = n > 0 ? sumX / n : (hint ?? 0);
    const x = Math.max(center - item.width / 2, (this.right[rank] ?? -Infinity) + H_GAP);
    const p: Placed = { id: item.id, x, y: rank * RANK_GAP, w: item.width, h: NODE_H, rank };
    this.right[rank] = x + item.width;
    this.placed.set(item.id, p);
    out.push(p);
  }
}

/** Width of a vertex box for a label (monospace-ish estimate; canvas measures nothing here). */
export function boxWidth(label: string): number {
  return Math.min(260, Math.max(64, label.length * 7 + 28));
}
