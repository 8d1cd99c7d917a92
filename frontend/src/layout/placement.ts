// The page's copy of the layout worker's answer: where each drawn box is, which box a vertex
// is drawn in (collapsed modules), the open modules' frames; indexed by rank so a frame asks
// only for what is on screen (the cost of drawing follows the view, not the run).
import type { ModuleFrame } from "./graphview";
import type { FromLayout } from "./messages";
import type { Placed } from "./layered";

export interface Rect { x0: number; y0: number; x1: number; y1: number }

/** Widest box the layout makes (boxWidth's cap): a search by x starts this far left. */
const MAX_W = 320;
/** An edge across more ranks than this is kept in a list, drawn whenever it crosses the view. */
const LONG = 2;

export class Placement {
  /** Which full layout of the run these positions belong to (a collapse or fold re-lays out). */
  layout = 0;
  /** Bumped on every change (for caches keyed on it). */
  version = 0;
  /** Vertices the worker had been told about at its last answer. */
  seen = 0;
  readonly pos = new Map<string, Placed>();
  readonly alias = new Map<string, string>();
  frames: ModuleFrame[] = [];
  /** The extent of the placed boxes (leaves no op used excluded), or null when empty. */
  bounds: Rect | null = null;
  /** Edges across many ranks: [from, to]. */
  readonly long: [string, string][] = [];
  private longKeys = new Set<string>();
  private rows: Placed[][] = [];
  private rowY: number[] = [];
  private slot = new Map<string, number>();

  clear(): void {
    this.pos.clear();
    this.alias.clear();
    this.frames = [];
    this.bounds = null;
    this.long.length = 0;
    this.longKeys.clear();
    this.rows = [];
    this.rowY = [];
    this.slot.clear();
    this.version += 1;
  }

  apply(m: FromLayout): void {
    if (m.replace) this.clear();
    this.layout = m.layout;
    this.seen = m.seen;
    for (const [v, a] of m.alias) this.alias.set(v, a);
    for (const p of m.placed) this.put(p);
    this.frames = m.frames;
    this.version += 1;
  }

  private put(p: Placed): void {
    const had = this.pos.has(p.id);
    this.pos.set(p.id, p);
    const row = (this.rows[p.rank] ??= []);
    if (had) {
      const i = row.findIndex((q) => q.id === p.id);
      if (i >= 0) row[i] = p;
    } else {
      // a rank fills left to right; keep it sorted by x whatever the order
      let i = row.length;
      while (i > 0 && (row[i - 1] as Placed).x > p.x) i--;
      row.splice(i, 0, p);
      for (let r = this.rowY.length; r <= p.rank; r++) this.rowY.push(r === 0 ? p.y : (this.rowY[r - 1] as number));
      this.rowY[p.rank] = p.y;
      if (!p.loose) {
        const b = this.bounds;
        this.bounds = b
          ? { x0: Math.min(b.x0, p.x), y0: Math.min(b.y0, p.y), x1: Math.max(b.x1, p.x + p.w), y1: Math.max(b.y1, p.y + p.h) }
          : { x0: p.x, y0: p.y, x1: p.x + p.w, y1: p.y + p.h };
      }
    }
    for (const t of p.to ?? []) {
      const q = this.pos.get(t);
      if (!q || p.rank - q.rank <= LONG) continue;
      // the key only for the few long edges: a string per edge is garbage at 40k vertices
      const key = `${p.id}>${t}`;
      if (this.longKeys.has(key)) continue;
      this.longKeys.add(key);
      this.long.push([p.id, t]);
    }
  }

  /** The box a vertex is drawn in: its own, or its collapsed module's. */
  anchorOf(id: string): Placed | undefined {
    return this.pos.get(this.alias.get(id) ?? id);
  }

  /** The id of that box. */
  anchorId(id: string): string {
    return this.alias.get(id) ?? id;
  }

  /** Boxes that meet `r` (world coordinates), rank by rank. */
  visible(r: Rect): Placed[] {
    const out: Placed[] = [];
    const ys = this.rowY;
    // first rank whose boxes (at most a module box tall) can reach y0
    let lo = 0, hi = ys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ys[mid] as number) + 60 < r.y0) lo = mid + 1;
      else hi = mid;
    }
    for (let rank = lo; rank < ys.length && (ys[rank] as number) <= r.y1; rank++) {
      const row = this.rows[rank];
      if (!row?.length) continue;
      let a = 0, b = row.length;
      while (a < b) {
        const mid = (a + b) >> 1;
        if ((row[mid] as Placed).x < r.x0 - MAX_W) a = mid + 1;
        else b = mid;
      }
      for (let i = a; i < row.length; i++) {
        const p = row[i] as Placed;
        if (p.x > r.x1) break;
        if (p.x + p.w >= r.x0 && p.y + p.h >= r.y0 && p.y <= r.y1) out.push(p);
      }
    }
    return out;
  }

  /** The box under a world point. */
  at(x: number, y: number): Placed | undefined {
    return this.visible({ x0: x, y0: y, x1: x, y1: y }).find((p) => x >= p.x && x <= p.x + p.w && y >= p.y && y <= p.y + p.h);
  }
}
