// The graph on a 2-D canvas. A frame asks the placement for the boxes on screen (a rank index),
// so its cost follows the view, not the run. Level of detail keeps every word on screen
// legible: node text is drawn at the graph's font when that is big enough, otherwise names are
// drawn at a fixed screen size where they fit (module names first), never as tiny text.
import { BOX, type Placed } from "../layout/layered";
import type { ModuleFrame } from "../layout/graphview";
import type { Rect } from "../layout/placement";
import type { RunState, Vertex } from "../model/types";
import { summary } from "../model/value";
import type { Viewport } from "../view/state";
import { FONT, THEME, vertexColors } from "./theme";
import { bowSide, edgeCurve, isModuleBox, vertexTitle, type Scene } from "./scene";
import { drawVertex, roundRect } from "./vertex";
import { gradSlots, showsChips } from "./decor";
import { fitText } from "./text";

/** At or above this zoom node text is drawn in the box at the graph font (12 px x k >= 9 px). */
export const TEXT_K = 0.75;
/** Below this zoom boxes are drawn as batched shapes (one path per colour). */
const FAST_BELOW = 0.3;
/** Labels drawn at a fixed screen size when zoomed out. */
const LOD_PX = 11;
/** A name that fits its box only a little smaller is drawn in it at this size (still legible). */
const LOD_SMALL_PX = 9;
const LOD_FONT = `${LOD_PX}px Inter, system-ui, sans-serif`;
const LOD_BOLD = `600 ${LOD_PX}px Inter, system-ui, sans-serif`;

/** A label drawn this frame: its text and its size on screen (for the browser tests); a name
 *  drawn at the fixed screen size also says where (canvas pixels) and which box it names. */
export interface DrawnLabel {
  text: string;
  px: number;
  kind: "node" | "module";
  at?: { x: number; y: number; w: number; h: number; owner: string | null };
}

export class GraphCanvas {
  readonly el: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  /** CSS size, kept by a ResizeObserver so a draw never forces a layout. */
  size = { w: 0, h: 0 };
  lastFrameMs = 0;
  /** Labels of the last frame. */
  labels: DrawnLabel[] = [];
  /** Called when the canvas changes size (an error banner above it, a window resize). */
  onResize: () => void = () => {};

  constructor(el: HTMLCanvasElement) {
    this.el = el;
    this.size = { w: el.clientWidth, h: el.clientHeight };
    new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      if (r) this.size = { w: r.width, h: r.height };
      this.onResize();
    }).observe(el);
    const ctx = el.getContext("2d");
    if (!ctx) throw new Error("canvas 2d unavailable");
    this.ctx = ctx;
  }

  /** The world rectangle a viewport shows. */
  visibleRect(v: Viewport): Rect {
    return { x0: -v.x / v.k, y0: -v.y / v.k, x1: (this.size.w - v.x) / v.k, y1: (this.size.h - v.y) / v.k };
  }

  /** What is under a screen point: a box (vertex or collapsed module) or a frame's title. */
  hitTest(s: Scene, v: Viewport, sx: number, sy: number): { vertex?: string; module?: string } {
    const x = (sx - v.x) / v.k, y = (sy - v.y) / v.k;
    const p = s.place.at(x, y);
    if (p) return isModuleBox(p.id) ? { module: p.id } : { vertex: p.id };
    const titleH = Math.max(BOX.title, (LOD_PX + 6) / v.k);
    for (let i = s.place.frames.length - 1; i >= 0; i--) {
      const f = s.place.frames[i] as ModuleFrame;
      if (x >= f.x && x <= f.x + f.w && y >= f.y && y <= f.y + titleH) return { module: `f:${f.path}` };
    }
    return {};
  }

  private drawnKey = "";
  private objIds = new WeakMap<object, number>();
  private nextObj = 0;

  private oid(o: object | undefined): number {
    if (!o) return -1;
    let i = this.objIds.get(o);
    if (i === undefined) this.objIds.set(o, (i = this.nextObj++));
    return i;
  }

  /** What a frame would show: the viewport and everything drawn in it (vertex objects are
   *  replaced, never mutated, when they change). Equal keys draw equal frames. */
  private frameKey(s: Scene, v: Viewport): string {
    const vis = this.visibleRect(v);
    const parts: (string | number)[] = [v.x, v.y, v.k, this.size.w, this.size.h, s.selected ?? "", s.state.current ?? "", s.state.error?.node ?? "", s.breakpoints.size, s.state.lastHook ?? ""];
    const shown = s.place.visible({ x0: vis.x0 - 200, y0: vis.y0 - 140, x1: vis.x1 + 200, y1: vis.y1 + 140 });
    // many boxes on screen: any change of the run or the layout redraws
    if (shown.length > MANY) return `${parts.join("|")}|${s.place.version}|${s.state.seq}|${this.oid(s.state)}`;
    for (const p of shown) {
      if (isModuleBox(p.id)) {
        const l = s.moduleLabel(p.id.slice(2));
        parts.push(p.id, this.oid(p), l.title, l.shapes);
        continue;
      }
      const vx = s.state.vertices.get(p.id);
      parts.push(p.id, this.oid(p), this.oid(vx), s.state.nodeState.get(p.id) ?? "", vx?.tensor != null ? this.oid(s.state.grads.get(vx.tensor)) : -1);
    }
    for (const f of s.place.frames) if (inView(f, vis)) parts.push(f.key, f.x, f.y, f.w, f.h);
    return parts.join("|");
  }

  /** Draw unless the frame would be the one already on the canvas. */
  drawIfChanged(s: Scene, v: Viewport): boolean {
    const key = this.frameKey(s, v);
    if (key === this.drawnKey) return false;
    this.draw(s, v);
    this.drawnKey = key;
    return true;
  }

  draw(s: Scene | null, v: Viewport): void {
    this.drawnKey = "";
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const { w: W, h: H } = this.size;
    if (this.el.width !== Math.round(W * dpr) || this.el.height !== Math.round(H * dpr)) {
      this.el.width = Math.round(W * dpr);
      this.el.height = Math.round(H * dpr);
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = THEME.bg;
    ctx.fillRect(0, 0, W, H);
    this.labels = [];
    if (s) {
      ctx.setTransform(dpr * v.k, 0, 0, dpr * v.k, dpr * v.x, dpr * v.y);
      this.labels = drawScene(ctx, s, v, this.visibleRect(v), dpr);
    }
    this.lastFrameMs = performance.now() - t0;
  }
}

/** Whether a placed box exists at the cursor. The layout is the whole run's: stepped back in
 *  time, a vertex made later is not drawn, nor its edges, nor a module frame or collapsed
 *  module box none of whose vertices exists yet (they would show the future as lines to
 *  nothing). */
function present(s: Scene, id: string): boolean {
  return isModuleBox(id) ? presentModuleBoxes(s).has(id) : s.state.vertices.has(id);
}

/** `present` for one scene, for pictures drawn elsewhere (the overview map). */
export function presentIn(s: Scene): (id: string) => boolean {
  return (id) => present(s, id);
}

let moduleBoxesMemo: { state: RunState; seq: number; size: number; version: number; boxes: Set<string> } | null = null;

/** The collapsed module boxes holding a vertex that exists at the cursor (once per state). */
function presentModuleBoxes(s: Scene): Set<string> {
  const st = s.state, m = moduleBoxesMemo;
  if (m && m.state === st && m.seq === st.seq && m.size === st.vertices.size && m.version === s.place.version) return m.boxes;
  const boxes = new Set<string>();
  for (const [v, box] of s.place.alias) if (st.vertices.has(v)) boxes.add(box);
  moduleBoxesMemo = { state: st, seq: st.seq, size: st.vertices.size, version: s.place.version, boxes };
  return boxes;
}

function inView(b: { x: number; y: number; w: number; h: number }, r: Rect): boolean {
  return b.x + b.w >= r.x0 && b.x <= r.x1 && b.y + b.h >= r.y0 && b.y <= r.y1;
}

/** Screen-space placement that never lets a label meet another label or an obstacle (a box
 *  on screen). Rectangles are kept in a coarse grid, so a check costs the cells it spans, not the
 *  number of labels already placed. A rectangle may have an owner: a label is allowed on its own
 *  box (a name drawn inside the box it names). */
export class LabelSpace {
  private static readonly CELL = 64;
  private readonly cells = new Map<number, { x0: number; y0: number; x1: number; y1: number; owner: string | null }[]>();

  /** `bounds`: where labels may go at all (the canvas), when they must stay on it. */
  constructor(private readonly bounds: Rect | null = null) {}

  free(x0: number, y0: number, x1: number, y1: number, owner: string | null = null): boolean {
    const b = this.bounds;
    if (b && (x0 < b.x0 || y0 < b.y0 || x1 > b.x1 || y1 > b.y1)) return false;
    for (const key of this.keys(x0, y0, x1, y1)) {
      for (const r of this.cells.get(key) ?? []) {
        if (x0 < r.x1 && r.x0 < x1 && y0 < r.y1 && r.y0 < y1 && (owner === null || r.owner !== owner)) return false;
      }
    }
    return true;
  }

  take(x0: number, y0: number, x1: number, y1: number, owner: string | null = null): void {
    const r = { x0, y0, x1, y1, owner };
    for (const key of this.keys(x0, y0, x1, y1)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(r);
      else this.cells.set(key, [r]);
    }
  }

  private *keys(x0: number, y0: number, x1: number, y1: number): Generator<number> {
    const c = LabelSpace.CELL;
    const cx0 = Math.floor(x0 / c), cx1 = Math.floor(x1 / c), cy0 = Math.floor(y0 / c), cy1 = Math.floor(y1 / c);
    // cells as one number: screen coordinates stay far inside +-2^15 cells
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) yield (cy + 32768) * 65536 + (cx + 32768);
  }
}

/** Draw frames, edges, boxes and labels of what is in `vis`; returns the labels drawn. */
export function drawScene(ctx: CanvasRenderingContext2D, s: Scene, v: Viewport, vis: Rect, dpr = 1): DrawnLabel[] {
  const k = v.k;
  const labels: DrawnLabel[] = [];
  // zoomed-out names stay on the canvas (screen coordinates)
  const space = new LabelSpace({ x0: 0, y0: 0, x1: (vis.x1 - vis.x0) * k, y1: (vis.y1 - vis.y0) * k });
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  // edges reach a rank or two beyond the boxes on screen
  const shown = s.place.visible({ x0: vis.x0 - 200, y0: vis.y0 - 140, x1: vis.x1 + 200, y1: vis.y1 + 140 }).filter((p) => present(s, p.id));
  const frames = s.place.frames.filter((f) => inView(f, vis) && f.members.some((id) => present(s, id)));
  for (const f of frames) {
    ctx.fillStyle = "rgba(60, 76, 120, 0.10)";
    ctx.strokeStyle = THEME.moduleStroke;
    ctx.lineWidth = 1 / k;
    roundRect(ctx, f.x, f.y, f.w, f.h, 8);
    ctx.fill();
    ctx.stroke();
  }
  const boxes = shown.filter((p) => inView(p, vis));
  if (!(k < FAST_BELOW && boxes.length > MANY)) drawEdges(ctx, s, k, vis, shown);
  const text = k >= TEXT_K;
  if (k < FAST_BELOW) drawFast(ctx, s, k, boxes);
  else {
    const verts: [Vertex, Placed][] = [];
    for (const p of boxes) {
      if (isModuleBox(p.id)) continue;
      const vx = s.state.vertices.get(p.id);
      if (vx) verts.push([vx, p]);
    }
    const slots = text ? gradSlots(ctx, s, verts) : new Map();
    for (const [vx, p] of verts) drawVertex(ctx, s, vx, p, k, slots.get(vx.id), text);
    for (const p of boxes) if (isModuleBox(p.id)) drawModule(ctx, s, p, k, text);
  }
  if (text) {
    for (const f of frames) {
      const title = `▾ ${s.moduleLabel(f.key).title}`;
      ctx.fillStyle = THEME.muted;
      ctx.fillText(fitText(ctx, title, f.w - 12), f.x + 8, f.y + BOX.title / 2 + 1);
      labels.push({ text: title, px: 12 * k, kind: "module" });
    }
    for (const p of boxes) {
      const label = isModuleBox(p.id) ? s.moduleLabel(p.id.slice(2)).title : titleOf(s, p.id);
      if (label) labels.push({ text: label, px: 12 * k, kind: isModuleBox(p.id) ? "module" : "node" });
    }
    return labels;
  }
  // zoomed out: names at a fixed screen size, module names first, where they fit
  ctx.save();
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const sx = (x: number): number => x * k + v.x, sy = (y: number): number => y * k + v.y;
  // a name beside its box must not cover another box: every box on screen is an obstacle
  for (const p of boxes) space.take(sx(p.x), sy(p.y), sx(p.x) + p.w * k, sy(p.y) + p.h * k, p.id);
  ctx.font = LOD_BOLD;
  for (const p of boxes) {
    if (!isModuleBox(p.id)) continue;
    const t = s.moduleLabel(p.id.slice(2)).title;
    const shown = lodLabel(ctx, space, p.id, [t, t.split(" · ")[0] as string], sx(p.x), sy(p.y), p.w * k, p.h * k, THEME.text);
    if (shown) labels.push({ ...shown, kind: "module" });
  }
  for (const f of frames) {
    const t = s.moduleLabel(f.key).title;
    const w = ctx.measureText(t).width + 8, hh = LOD_PX + 4;
    if (f.w * k < 40) continue;
    // inside the frame's top-left corner, else just above it, else left of it
    const spots: [number, number][] = [[sx(f.x) + 4, sy(f.y) + 2], [sx(f.x) + 4, sy(f.y) - hh - 1], [sx(f.x) - w - 4, sy(f.y) + 2]];
    const spot = spots.find(([x, y]) => space.free(x, y, x + w, y + hh));
    if (!spot) continue;
    const [x, y] = spot;
    space.take(x, y, x + w, y + hh);
    ctx.fillStyle = "rgba(15,18,24,0.85)";
    ctx.fillRect(x, y, w, hh);
    ctx.fillStyle = THEME.muted;
    ctx.fillText(t, x + 4, y + hh / 2);
    labels.push({ text: t, px: LOD_PX, kind: "module", at: { x, y, w, h: hh, owner: null } });
  }
  ctx.font = LOD_FONT;
  // thousands of tiny boxes: try a few hundred of them for a name (most could not show one)
  const every = Math.max(1, Math.ceil(boxes.length / 300));
  for (let i = 0; i < boxes.length; i += every) {
    const p = boxes[i] as Placed;
    if (isModuleBox(p.id)) continue;
    const t = titleOf(s, p.id);
    const short = shortOp(t);
    const shown = t ? lodLabel(ctx, space, p.id, short !== t ? [t, short] : [t], sx(p.x), sy(p.y), p.w * k, p.h * k, THEME.text) : null;
    if (shown) labels.push({ ...shown, kind: "node" });
  }
  ctx.restore();
  return labels;
}

/** "y · MulBackward0" -> "Mul": what a small box can still say. */
function shortOp(t: string): string {
  const op = t.split(" · ").pop() ?? t;
  return op.replace(/Backward\d*$/, "") || op;
}

/** A box's name at the fixed screen size: the first of `texts` that fits inside it, at the
 *  label size or else a little smaller (still legible: an empty box with its name beside it
 *  reads worse than a smaller name in it), else the first beside it (right, left, below,
 *  above) where it covers no other label or box; not at all otherwise. Returns what was drawn. */
function lodLabel(ctx: CanvasRenderingContext2D, space: LabelSpace, owner: string, texts: string[], x: number, y: number, w: number, h: number, color: string): Pick<DrawnLabel, "text" | "at" | "px"> | null {
  const font = ctx.font;
  let px = LOD_PX;
  let inside = texts.find((t) => ctx.measureText(t).width + 8 <= w);
  if (inside === undefined && h >= LOD_SMALL_PX + 4) {
    ctx.font = font.replace(`${LOD_PX}px`, `${LOD_SMALL_PX}px`);
    inside = texts.find((t) => ctx.measureText(t).width + 6 <= w);
    if (inside === undefined) ctx.font = font;
    else px = LOD_SMALL_PX;
  }
  const t = inside ?? (texts[0] as string);
  const tw = ctx.measureText(t).width;
  const half = px / 2 + 2;
  const spots: [number, number][] =
    inside !== undefined
      ? [[x + (w - tw) / 2, y + h / 2]]
      : [[x + w + 4, y + h / 2], [x - tw - 4, y + h / 2], [x + (w - tw) / 2, y + h + half + 1], [x + (w - tw) / 2, y - half - 1]];
  const spot = spots.find(([lx, cy]) => space.free(lx - 2, cy - half, lx + tw + 2, cy + half, owner));
  if (!spot) {
    ctx.font = font;
    return null;
  }
  const [lx, cy] = spot;
  space.take(lx - 2, cy - half, lx + tw + 2, cy + half);
  if (inside === undefined) {
    ctx.fillStyle = "rgba(15,18,24,0.85)";
    ctx.fillRect(lx - 2, cy - half, tw + 4, 2 * half);
  }
  ctx.fillStyle = color;
  ctx.fillText(t, lx, cy);
  ctx.font = font;
  return { text: t, px, at: { x: lx - 2, y: cy - half, w: tw + 4, h: 2 * half, owner } };
}

function titleOf(s: Scene, id: string): string {
  const v = s.state.vertices.get(id);
  return v ? vertexTitle(v) : "";
}

/** A collapsed module call: one box with its name and class, and its shapes below. */
function drawModule(ctx: CanvasRenderingContext2D, s: Scene, p: Placed, k: number, text: boolean): void {
  const label = s.moduleLabel(p.id.slice(2));
  ctx.fillStyle = "#1d2638";
  ctx.strokeStyle = "#6d84c4";
  ctx.lineWidth = (s.selected === p.id ? 2.5 : 1.4) / Math.max(k, 0.4);
  roundRect(ctx, p.x, p.y, p.w, p.h, 8);
  ctx.fill();
  ctx.stroke();
  // a stack of cards: this box holds several ops
  ctx.beginPath();
  ctx.moveTo(p.x + 6, p.y + p.h + 3);
  ctx.lineTo(p.x + p.w - 6, p.y + p.h + 3);
  ctx.stroke();
  if (!text) return;
  ctx.fillStyle = THEME.text;
  ctx.font = "600 12px Inter, system-ui, sans-serif";
  ctx.fillText(fitText(ctx, `▸ ${label.title}`, p.w - 16), p.x + 8, p.y + 13);
  ctx.font = "11px 'JetBrains Mono', ui-monospace, monospace";
  ctx.fillStyle = THEME.muted;
  if (label.shapes) ctx.fillText(fitText(ctx, label.shapes, p.w - 16), p.x + 8, p.y + 30);
  ctx.font = FONT;
}

/** Above this many boxes on screen, a zoomed-out frame draws paths built once for the whole
 *  graph (a pan then costs a few fill and stroke calls, not a walk over every box). */
const MANY = 1500;

interface FastPaths { fills: Map<string, Path2D>; special: [Vertex, Placed][]; plain: Path2D; grad: Path2D }

let fastCache: { place: unknown; version: number; seq: number; state: unknown; selected: string | null; paths: FastPaths } | null = null;

/** Boxes (one path per colour) and, with `edges`, straight edges for `boxes`. */
function fastPaths(s: Scene, boxes: Iterable<Placed>, edges = true): FastPaths {
  const fills = new Map<string, Path2D>();
  const special: [Vertex, Placed][] = [];
  const plain = new Path2D(), grad = new Path2D();
  for (const p of boxes) {
    if (!present(s, p.id)) continue;
    for (const t of edges ? (p.to ?? []) : []) {
      const q = s.place.pos.get(t);
      if (!q || !present(s, t)) continue;
      const path = !isModuleBox(p.id) && flowed(s, p.id, q.id) ? grad : plain;
      path.moveTo(p.x + p.w / 2, p.y);
      path.lineTo(q.x + q.w / 2, q.y + q.h);
    }
    let fill = "#1d2638";
    if (!isModuleBox(p.id)) {
      const v = s.state.vertices.get(p.id);
      if (!v) continue;
      if (v.id === s.state.current || v.id === s.selected || v.id === s.state.error?.node) special.push([v, p]);
      fill = vertexColors(v.kind, s.state.nodeState.get(v.id)).stroke;
    } else fill = "#6d84c4";
    let f = fills.get(fill);
    if (!f) fills.set(fill, (f = new Path2D()));
    f.rect(p.x, p.y, p.w, p.h);
  }
  return { fills, special, plain, grad };
}

/** Zoomed far out: boxes as batched rects, one path per colour (with their edges when the
 *  whole graph's cached paths are used). */
function drawFast(ctx: CanvasRenderingContext2D, s: Scene, k: number, boxes: Placed[]): void {
  let paths: FastPaths;
  if (boxes.length > MANY) {
    const c = fastCache;
    const fresh = c && c.place === s.place && c.version === s.place.version && c.seq === s.state.seq && c.state === s.state && c.selected === s.selected;
    if (!fresh) fastCache = { place: s.place, version: s.place.version, seq: s.state.seq, state: s.state, selected: s.selected, paths: fastPaths(s, s.place.pos.values()) };
    paths = (fastCache as { paths: FastPaths }).paths;
    ctx.lineWidth = 1 / k;
    ctx.strokeStyle = THEME.edge;
    ctx.stroke(paths.plain);
    ctx.strokeStyle = THEME.edgeGrad;
    ctx.stroke(paths.grad);
  } else paths = fastPaths(s, boxes, false);
  for (const [color, path] of paths.fills) {
    ctx.fillStyle = color;
    ctx.fill(path);
  }
  for (const [v, p] of paths.special) drawVertex(ctx, s, v, p, k, undefined, false);
}

/** True when gradient flowed along some edge from vertex `from` into the box `to`. */
function flowed(s: Scene, from: string, to: string): boolean {
  const v = s.state.vertices.get(from);
  if (!v) return false;
  for (let i = 0; i < v.edges.length; i++) {
    if (s.place.anchorId((v.edges[i] as { to: string }).to) === to && s.state.edgeGrads.has(`${v.id}>${i}`)) return true;
  }
  return false;
}

function drawEdges(ctx: CanvasRenderingContext2D, s: Scene, k: number, vis: Rect, shown: Placed[]): void {
  const seen = new Set(shown.map((p) => p.id));
  const pairs: [Placed, Placed][] = [];
  for (const p of shown) {
    for (const t of p.to ?? []) {
      const q = s.place.pos.get(t);
      if (q && present(s, t)) pairs.push([p, q]);
    }
  }
  for (const [a, b] of s.place.long) {
    if (seen.has(a) || !present(s, a) || !present(s, b)) continue;
    const p = s.place.pos.get(a), q = s.place.pos.get(b);
    if (p && q && Math.max(p.y, q.y) >= vis.y0 && Math.min(p.y, q.y) <= vis.y1) pairs.push([p, q]);
  }
  const fast = k < FAST_BELOW;
  ctx.lineWidth = 1.2 / Math.max(k, 0.3);
  const plain = new Path2D(), grad = new Path2D();
  const labels: [string, number, number][] = [];
  const boxes = fast ? [] : shown.filter((p) => inView(p, vis));
  for (const [p, q] of pairs) {
    const x0 = p.x + p.w / 2, y0 = p.y, x1 = q.x + q.w / 2, y1 = q.y + q.h;
    if (Math.max(x0, x1) + 130 < vis.x0 || Math.min(x0, x1) - 130 > vis.x1 || Math.max(y0, y1) < vis.y0 || Math.min(y0, y1) > vis.y1) continue;
    const g = !isModuleBox(p.id) && flowed(s, p.id, q.id);
    const path = g ? grad : plain;
    path.moveTo(x0, y0);
    if (fast) {
      path.lineTo(x1, y1);
      continue;
    }
    const [ax, ay, bx, by] = edgeCurve(x0, y0, x1, y1, bowSide(x0, y0, x1, y1, boxes));
    path.bezierCurveTo(ax, ay, bx, by, x1, y1);
    // arrowhead at the input end: backward flows from a vertex to its next functions
    path.moveTo(x1 - 4, y1 + 7);
    path.lineTo(x1, y1);
    path.lineTo(x1 + 4, y1 + 7);
    if (g && k > 0.6) {
      const focus = p.id === s.selected || p.id === s.state.current || q.id === s.selected || s.state.vertices.size <= 12;
      const v = s.state.vertices.get(p.id);
      const i = v ? v.edges.findIndex((e) => s.place.anchorId(e.to) === q.id) : -1;
      const val = i >= 0 ? s.state.edgeGrads.get(`${p.id}>${i}`) : undefined;
      if (focus && val) labels.push([summary(val), (x0 + 3 * ax + 3 * bx + x1) / 8, (y0 + 3 * ay + 3 * by + y1) / 8]);
    }
  }
  ctx.strokeStyle = THEME.edge;
  ctx.stroke(plain);
  ctx.strokeStyle = THEME.edgeGrad;
  ctx.stroke(grad);
  if (!labels.length) return;
  // gradient labels never cover each other or a box: nudge one down past what it would hit
  ctx.font = "11px 'JetBrains Mono', ui-monospace, monospace";
  const space = new LabelSpace();
  for (const p of boxes) {
    const v = s.state.vertices.get(p.id);
    const chips = v && showsChips(s, v) ? 16 : 0;
    space.take(p.x, p.y, p.x + Math.max(p.w, chips * 10), p.y + p.h + chips);
  }
  for (const [text, cx, cy] of labels) {
    const w = ctx.measureText(text).width + 8;
    const x = cx - w / 2;
    const y = [cy, cy + 17, cy - 17, cy + 34, cy - 34].find((yy) => space.free(x, yy - 8, x + w, yy + 8));
    if (y === undefined) continue;
    space.take(x, y - 8, x + w, y + 8);
    ctx.fillStyle = "rgba(15,18,24,0.92)";
    ctx.fillRect(x, y - 8, w, 16);
    ctx.fillStyle = THEME.edgeGrad;
    ctx.fillText(text, x + 4, y);
  }
  ctx.font = FONT;
}
