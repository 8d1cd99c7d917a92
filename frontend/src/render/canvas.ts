// The graph on a 2-D canvas: culled to the viewport, so 10k vertices pan and zoom smoothly.
import { BOX, type Placed } from "../layout/layered";
import type { Vertex } from "../model/types";
import { summary } from "../model/value";
import { FONT, THEME, vertexColors } from "./theme";
import { bowSide, edgeCurve, moduleBoxes, type ModuleBox, type Scene } from "./scene";
import { drawVertex, roundRect } from "./vertex";
import { bounds, lastGraph, lossEnd, type Rect } from "./fit";
import { gradSlots, showsChips } from "./decor";

export interface View {
  x: number;
  y: number;
  k: number;
}


export class GraphCanvas {
  readonly el: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  view: View = { x: 40, y: 40, k: 1 };
  scene: Scene | null = null;
  private boxes: ModuleBox[] = [];
  private raf = 0;
  lastFrameMs = 0;
  onFrame: (() => void) | null = null;
  /** Called when the canvas changes size (an error banner above it, a window resize). */
  onResize: () => void = () => {};

  /** CSS size, kept by a ResizeObserver so a draw never forces a layout. */
  size = { w: 0, h: 0 };

  constructor(el: HTMLCanvasElement) {
    this.el = el;
    this.size = { w: el.clientWidth, h: el.clientHeight };
    new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      if (r) this.size = { w: r.width, h: r.height };
      this.onResize();
      this.request();
    }).observe(el);
    const ctx = el.getContext("2d");
    if (!ctx) throw new Error("canvas 2d unavailable");
    this.ctx = ctx;
  }

  private boxKey = "";

  setScene(scene: Scene): void {
    this.scene = scene;
    // module boxes change only when vertices appear or get placed, not when the cursor moves
    const key = `${scene.state.orderLen}|${scene.state.vertices.size}|${scene.pos.size}`;
    if (key !== this.boxKey) {
      this.boxKey = key;
      this.boxes = moduleBoxes(scene);
    }
    this.request();
  }

  request(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.draw();
    });
  }

  /** World point under a screen point. */
  toWorld(sx: number, sy: number): { x: number; y: number } {
    return { x: (sx - this.view.x) / this.view.k, y: (sy - this.view.y) / this.view.k };
  }

  /** Where a vertex is drawn: its own box, or its collapsed module's box. */
  anchor(v: Vertex): Placed | ModuleBox | undefined {
    return this.scene ? anchorFor(this.scene, this.boxes)(v) : undefined;
  }

  hitTest(sx: number, sy: number): { vertex?: string; module?: string } {
    const s = this.scene;
    if (!s) return {};
    const p = this.toWorld(sx, sy);
    for (const v of s.state.vertices.values()) {
      const b = s.pos.get(v.id);
      if (!b || this.anchor(v) !== b) continue;
      if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h) return { vertex: v.id };
    }
    for (let i = this.boxes.length - 1; i >= 0; i--) {
      const b = this.boxes[i] as ModuleBox;
      const hitH = s.collapsed.has(b.path) ? b.h : BOX.title;
      if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + hitH) return { module: b.path };
    }
    return {};
  }

  /** True when the last fit showed a readable region instead of the whole (huge) graph. */
  partial = false;

  /** Fit the graph. After several backward passes (a training loop) whose whole graph would be
   *  hard to read, the last forward pass when it fits legibly; a graph too big to read at all
   *  gets a readable zoom centred on `focus` (the current or selected node), else on the loss.
   *  `all` forces the whole graph (the wheel and − still zoom out further). */
  fit(focus: string | null = null, all = false): void {
    const s = this.scene;
    if (!s || s.pos.size === 0) return;
    // leaves no op used (placed by the layout's flush, right of everything) do not steer Fit
    const core = [...s.pos.values()].filter((p) => !p.loose);
    const placed = core.length ? core : [...s.pos.values()];
    const whole = bounds(placed, this.boxes);
    const { w: W, h: H } = this.size;
    const ins = this.insets();
    const w = W - ins.left - ins.right - 2 * MARGIN, h = H - ins.top - ins.bottom - 2 * MARGIN;
    const zoomFor = (r: Rect): number => Math.min(1.4, Math.max(0.001, Math.min(w / (r.x1 - r.x0 + 1), h / (r.y1 - r.y0 + 1))));
    const show = (r: Rect, k: number): void => {
      this.view = { k, x: ins.left + MARGIN + w / 2 - ((r.x0 + r.x1) / 2) * k, y: ins.top + MARGIN + h / 2 - ((r.y0 + r.y1) / 2) * k };
      this.request();
    };
    const k = zoomFor(whole);
    const bottom = lossEnd(placed);
    const focused = focus !== null ? s.pos.get(focus) : undefined;
    this.partial = !all && k < MIN_FIT;
    this.partialWhat = "region";
    const last = !all && !focused && k < LEGIBLE ? this.lastPass(s, bottom, placed) : null;
    if (last && zoomFor(last) >= LEGIBLE) {
      this.partial = true;
      this.partialWhat = "last";
      return show(last, zoomFor(last));
    }
    if (!this.partial) return show(whole, k);
    const at = focused ?? bottom;
    // the loss is the bottom of the graph: keep the ops above it in view
    const fy = focused ? 0.5 : 0.7;
    this.view = { k: READABLE, x: ins.left + MARGIN + w / 2 - (at.x + at.w / 2) * READABLE, y: ins.top + MARGIN + h * fy - (at.y + at.h / 2) * READABLE };
    this.request();
  }

  /** The extent of the last forward pass (with its module boxes) when the run made several
   *  backward passes over different graphs, else null. */
  private lastPass(s: Scene, bottom: Placed, placed: Placed[]): Rect | null {
    if (s.state.backwards < 2) return null;
    const last = lastGraph(s, bottom.id);
    const fns = placed.filter((p) => s.state.vertices.get(p.id)?.kind === "fn").length;
    if (last.length < 2 || last.length >= fns) return null;
    const r = bounds(last, []);
    return bounds(last, this.boxes.filter((b) => b.y + b.h > r.y0 && b.y < r.y1 && b.x + b.w > r.x0 && b.x < r.x1));
  }

  /** What a partial fit shows: the region around one node, or the last forward graph. */
  partialWhat: "region" | "last" = "region";

  /** Screen space taken by overlays (legend, zoom buttons, notes); the page sets this. */
  insets: () => { top: number; right: number; bottom: number; left: number } = () => ({ top: 0, right: 0, bottom: 0, left: 0 });

  centerOn(id: string): void {
    const p = this.scene?.pos.get(id);
    if (!p) return;
    const { w: W, h: H } = this.size, k = this.view.k;
    const sx = p.x * k + this.view.x, sy = p.y * k + this.view.y;
    if (sx > 40 && sx < W - 120 && sy > 40 && sy < H - 60) return;
    this.view = { k, x: W / 2 - (p.x + p.w / 2) * k, y: H / 2 - (p.y + p.h / 2) * k };
    this.request();
  }

  zoomAt(sx: number, sy: number, factor: number): void {
    const k = Math.min(4, Math.max(0.001, this.view.k * factor));
    const w = this.toWorld(sx, sy);
    this.view = { k, x: sx - w.x * k, y: sy - w.y * k };
    this.request();
  }

  draw(): void {
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
    const s = this.scene;
    if (s) {
      ctx.setTransform(dpr * this.view.k, 0, 0, dpr * this.view.k, dpr * this.view.x, dpr * this.view.y);
      const vis = { x0: -this.view.x / this.view.k, y0: -this.view.y / this.view.k, x1: (W - this.view.x) / this.view.k, y1: (H - this.view.y) / this.view.k };
      drawScene(ctx, s, this.boxes, this.view.k, vis, (v) => this.anchor(v));
    }
    this.lastFrameMs = performance.now() - t0;
    this.onFrame?.();
  }
}

/** Screen margin around a fitted graph. */
const MARGIN = 16;

/** Below MIN_FIT a fitted graph is a smear of lines; Fit then shows a region at READABLE. */
const MIN_FIT = 0.25;
const READABLE = 0.85;
/** Below LEGIBLE node labels are under 7 px: a training loop's last pass is shown instead. */
const LEGIBLE = 0.5;

type Anchor = (v: Vertex) => Placed | ModuleBox | undefined;

/** A vertex's own box, or the outermost collapsed module box holding it (parameters too). */
export function anchorFor(s: Scene, boxes: ModuleBox[]): Anchor {
  if (s.collapsed.size === 0) return (v) => s.pos.get(v.id);
  const shut = boxes.filter((b) => s.collapsed.has(b.path));
  return (v) => shut.find((b) => b.members.has(v.id)) ?? s.pos.get(v.id);
}

function inView(b: { x: number; y: number; w: number; h: number }, r: Rect): boolean {
  return b.x + b.w >= r.x0 && b.x <= r.x1 && b.y + b.h >= r.y0 && b.y <= r.y1;
}

/** Draw modules, then edges, then vertices; also used to render PNG exports. */
export function drawScene(ctx: CanvasRenderingContext2D, s: Scene, boxes: ModuleBox[], k: number, vis: Rect, anchor: Anchor): void {
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  const titles: Taken[] = [];
  for (const b of boxes) {
    if (!inView(b, vis)) continue;
    const collapsed = s.collapsed.has(b.path);
    ctx.fillStyle = collapsed ? "#1d2638" : "rgba(60, 76, 120, 0.10)";
    ctx.strokeStyle = collapsed ? "#4a5a85" : THEME.moduleStroke;
    ctx.lineWidth = 1 / k;
    roundRect(ctx, b.x, b.y, b.w, b.h, 8);
    ctx.fill();
    ctx.stroke();
    if (k > 0.25) {
      ctx.fillStyle = THEME.muted;
      const title = `${collapsed ? "▸" : "▾"} ${b.path}${collapsed ? `  (${b.members.size} nodes)` : ""}`;
      ctx.fillText(title, b.x + 8, b.y + BOX.title / 2 + 1);
      titles.push({ x: b.x, y: b.y + BOX.title / 2 + 1, w: ctx.measureText(title).width + 16 });
    }
  }
  if (k < FAST_BELOW) return drawFast(ctx, s, k, vis, anchor);
  const shown: [Vertex, Placed][] = [];
  for (const v of s.state.vertices.values()) {
    const p = s.pos.get(v.id);
    if (p && inView(p, vis) && anchor(v) === p) shown.push([v, p]);
  }
  drawEdges(ctx, s, k, vis, anchor, titles, shown.map(([, p]) => p));
  const slots = gradSlots(ctx, s, shown);
  for (const [v, p] of shown) drawVertex(ctx, s, v, p, k, slots.get(v.id));
}

/** Below this zoom labels are unreadable: draw batched shapes, one path per colour. */
const FAST_BELOW = 0.3;

interface FastPaths {
  plain: Path2D;
  flowed: Path2D;
  fills: Map<string, Path2D>;
  strokes: Map<string, Path2D>;
  special: [Vertex, Placed][];
}

/** Paths in world coordinates for the whole graph, rebuilt only when the scene changes, so a
 *  pan or zoom of a 10k-node graph costs a few fill/stroke calls. */
let fastCache: { key: unknown[]; paths: FastPaths } | null = null;

let seenOnce: unknown[] | null = null;

/** Paths for the vertices and edges in `vis` (or all, with no rect). */
function buildFast(s: Scene, anchor: Anchor, vis: Rect | null): FastPaths {
  const out: FastPaths = { plain: new Path2D(), flowed: new Path2D(), fills: new Map(), strokes: new Map(), special: [] };
  for (const v of s.state.vertices.values()) {
    const a = anchor(v);
    if (!a) continue;
    const seen = !vis || inView(a, vis);
    for (let i = 0; i < v.edges.length; i++) {
      const tv = s.state.vertices.get((v.edges[i] as { to: string }).to);
      const b = tv ? anchor(tv) : undefined;
      if (!b || b === a || (!seen && vis && !inView(b, vis))) continue;
      const path = s.state.edgeGrads.has(`${v.id}>${i}`) ? out.flowed : out.plain;
      path.moveTo(a.x + a.w / 2, a.y);
      path.lineTo(b.x + b.w / 2, b.y + b.h);
    }
    if (!seen || a !== s.pos.get(v.id)) continue;
    const p = a as Placed;
    if (v.id === s.state.current || v.id === s.selected || v.id === s.state.error?.node) out.special.push([v, p]);
    const c = vertexColors(v.kind, s.state.nodeState.get(v.id));
    let f = out.fills.get(c.fill);
    if (!f) out.fills.set(c.fill, (f = new Path2D()));
    f.rect(p.x, p.y, p.w, p.h);
    let st = out.strokes.get(c.stroke);
    if (!st) out.strokes.set(c.stroke, (st = new Path2D()));
    st.rect(p.x, p.y, p.w, p.h);
  }
  return out;
}

function drawFast(ctx: CanvasRenderingContext2D, s: Scene, k: number, vis: Rect, anchor: Anchor): void {
  const key = [s.state, s.state.seq, s.pos.size, s.selected, s.collapsed.size, [...s.collapsed].join()];
  const same = (other: unknown[] | null): boolean => !!other && other.every((x, i) => x === key[i]);
  let paths: FastPaths;
  if (fastCache && same(fastCache.key)) paths = fastCache.paths;
  else if (same(seenOnce)) {
    // the same scene drawn again (a pan or zoom): worth building whole-graph paths once
    fastCache = { key, paths: buildFast(s, anchor, null) };
    paths = fastCache.paths;
  } else {
    // a new scene (a seek, new events): draw only what is in view this frame
    seenOnce = key;
    paths = buildFast(s, anchor, vis);
  }
  const { plain, flowed, fills, strokes, special } = paths;
  ctx.lineWidth = 1 / k;
  ctx.strokeStyle = THEME.edge;
  ctx.stroke(plain);
  ctx.strokeStyle = THEME.edgeGrad;
  ctx.stroke(flowed);
  for (const [color, path] of fills) {
    ctx.fillStyle = color;
    ctx.fill(path);
  }
  for (const [color, path] of strokes) {
    ctx.strokeStyle = color;
    ctx.stroke(path);
  }
  for (const [v, p] of special) drawVertex(ctx, s, v, p, k);
}

/** A label's box on screen (centre line y), for keeping labels apart. */
interface Taken { x: number; y: number; w: number; h?: number }

function drawEdges(ctx: CanvasRenderingContext2D, s: Scene, k: number, vis: Rect, anchor: Anchor, titles: Taken[], shown: Placed[]): void {
  const labels: [string, number, number][] = [];
  ctx.lineWidth = 1.2 / Math.max(k, 0.3);
  for (const v of s.state.vertices.values()) {
    const a = anchor(v);
    if (!a) continue;
    v.edges.forEach((e, i) => {
      const tv = s.state.vertices.get(e.to);
      const b = tv ? anchor(tv) : undefined;
      if (!b || a === b) return;
      const x0 = a.x + a.w / 2, y0 = a.y, x1 = b.x + b.w / 2, y1 = b.y + b.h;
      if (Math.max(x0, x1) + 130 < vis.x0 || Math.min(x0, x1) - 130 > vis.x1 || Math.max(y0, y1) < vis.y0 || Math.min(y0, y1) > vis.y1) return;
      const [ax, ay, bx, by] = edgeCurve(x0, y0, x1, y1, bowSide(x0, y0, x1, y1, shown));
      const g = s.state.edgeGrads.get(`${v.id}>${i}`);
      ctx.strokeStyle = g ? THEME.edgeGrad : THEME.edge;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.bezierCurveTo(ax, ay, bx, by, x1, y1);
      ctx.stroke();
      // arrowhead at the input end: backward flows from a vertex to its next functions
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - 4, y1 + 7);
      ctx.lineTo(x1 + 4, y1 + 7);
      ctx.fill();
      const focus = v.id === s.selected || v.id === s.state.current || e.to === s.selected || s.state.vertices.size <= 12;
      // at the curve's midpoint: two edges leaving one node are already apart there
      if (g && focus && k > 0.3) labels.push([summary(g), (x0 + 3 * ax + 3 * bx + x1) / 8, (y0 + 3 * ay + 3 * by + y1) / 8]);
    });
  }
  ctx.font = "11px 'JetBrains Mono', ui-monospace, monospace";
  // labels never cover each other: nudge one down past the labels it would hit, or drop it
  const taken: Taken[] = [...titles];
  if (labels.length) {
    // nor hide under a box (labels are drawn before the vertices)
    for (const v of s.state.vertices.values()) {
      const p = anchor(v);
      if (!p || !inView(p, vis)) continue;
      // the node in focus shows its saved tensors in a row under the box
      const chips = showsChips(s, v) ? 16 : 0;
      taken.push({ x: p.x, y: p.y + (p.h + chips) / 2, w: Math.max(p.w, chips * 10), h: p.h + chips });
    }
  }
  const hits = (x: number, y: number, w: number): boolean => taken.some((r) => Math.abs(r.y - y) < 8 + (r.h ?? 16) / 2 && x < r.x + r.w && r.x < x + w);
  for (const [text, cx, cy] of labels) {
    const w = ctx.measureText(text).width + 8;
    const x = cx - w / 2;
    const y = [cy, cy + 17, cy - 17, cy + 34, cy - 34].find((yy) => !hits(x, yy, w));
    if (y === undefined) continue;
    taken.push({ x, y, w });
    ctx.fillStyle = "rgba(15,18,24,0.92)";
    ctx.fillRect(x, y - 8, w, 16);
    ctx.fillStyle = THEME.edgeGrad;
    ctx.fillText(text, x + 4, y);
  }
  ctx.font = FONT;
}
