// Pure geometry for Fit: the extent of the drawn graph and the viewport that shows it. A graph
// too big to read whole (a 40k-node chain) gets a readable region around the node in focus
// (else the loss end) instead; the overview map shows the whole.
import type { Placed } from "../layout/layered";
import type { Placement, Rect } from "../layout/placement";
import type { Viewport } from "../view/state";

export type { Rect };

/** World space above vertices for a leaf's .grad label (two lines when neighbours' labels
 *  are staggered: render/decor.ts) and below them for saved-tensor chips. */
const ABOVE = 31;
const BELOW = 18;

/** Screen margin around a fitted graph. */
const MARGIN = 16;
/** Below MIN_FIT a fitted graph is a smear; Fit then shows a region at READABLE. */
export const MIN_FIT = 0.2;
const READABLE = 0.85;
/** Fit never zooms in past this (a three-node graph stays at a natural size). */
const MAX_FIT = 1.4;

/** The extent of the drawn boxes and open module frames, with room for labels and chips. */
export function graphRect(place: Placement): Rect | null {
  const b = place.bounds;
  if (!b) return null;
  let { x0, y0, x1, y1 } = b;
  for (const f of place.frames) {
    x0 = Math.min(x0, f.x); y0 = Math.min(y0, f.y);
    x1 = Math.max(x1, f.x + f.w); y1 = Math.max(y1, f.y + f.h);
  }
  return { x0, y0: y0 - ABOVE, x1, y1: y1 + BELOW };
}

/** The lowest box (the newest loss), the rightmost of its row. */
export function lossEnd(place: Placement): Placed | undefined {
  const b = place.bounds;
  if (!b) return undefined;
  const row = place.visible({ x0: b.x0, y0: b.y1 - 1, x1: b.x1, y1: b.y1 }).filter((p) => !p.loose);
  return row.reduce<Placed | undefined>((a, p) => (!a || p.y > a.y || (p.y === a.y && p.x > a.x) ? p : a), undefined);
}

export interface Insets { top: number; right: number; bottom: number; left: number }

export interface Fitted {
  viewport: Viewport;
  /** True when the view shows a region, not the whole graph. */
  partial: boolean;
  /** The zoom at which the whole graph fits (the floor for zooming out). */
  wholeK: number;
}

/** The zoom at which `r` fills a `w` x `h` area. */
function zoomFor(r: Rect, w: number, h: number): number {
  return Math.max(0.0005, Math.min(w / (r.x1 - r.x0 + 1), h / (r.y1 - r.y0 + 1)));
}

/** The viewport that shows the whole graph in a W x H canvas, or, when that is too small to
 *  read, the region around `focus` (else the loss end) at a readable zoom. */
export function fitViewport(place: Placement, W: number, H: number, ins: Insets, focus: Placed | undefined): Fitted | null {
  const r = graphRect(place);
  if (!r) return null;
  const w = Math.max(50, W - ins.left - ins.right - 2 * MARGIN), h = Math.max(50, H - ins.top - ins.bottom - 2 * MARGIN);
  const wholeK = zoomFor(r, w, h);
  const k = Math.min(MAX_FIT, wholeK);
  if (k >= MIN_FIT) {
    return { partial: false, wholeK, viewport: { k, x: ins.left + MARGIN + w / 2 - ((r.x0 + r.x1) / 2) * k, y: ins.top + MARGIN + h / 2 - ((r.y0 + r.y1) / 2) * k } };
  }
  const at = focus ?? lossEnd(place);
  if (!at) return null;
  // the loss is the bottom of the graph: keep the ops above it in view
  const fy = focus ? 0.5 : 0.75;
  const viewport = { k: READABLE, x: ins.left + MARGIN + w / 2 - (at.x + at.w / 2) * READABLE, y: ins.top + MARGIN + h * fy - (at.y + at.h / 2) * READABLE };
  return { partial: true, wholeK, viewport };
}
