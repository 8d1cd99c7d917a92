// The graph on a 2-D canvas: culled to the viewport, so 10k vertices pan and zoom smoothly.
import type { Placed } from "../layout/layered";
import type { Vertex } from "../model/types";
import { summary } from "../model/value";
import { THEME, vertexColors } from "./theme";
import { decorations } from "./decor";
import { hiddenUnder, moduleBoxes, shortName, vertexTitle, type ModuleBox, type Scene } from "./scene";

export interface View {
  x: number;
  y: number;
  k: number;
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
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

  /** CSS size, kept by a ResizeObserver so a draw never forces a layout. */
  size = { w: 0, h: 0 };

  constructor(el: HTMLCanvasElement) {
    this.el = el;
    this.size = { w: el.clientWidth, h: el.clientHeight };
    new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      if (r) this.size = { w: r.width, h: r.height };
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
    const s = this.scene;
    if (!s) return undefined;
    const hid = hiddenUnder(v, s.collapsed);
    if (hid) return this.boxes.find((b) => b.path === hid && b.members.has(v.id));
    return s.pos.get(v.id);
  }

  hitTest(sx: number, sy: number): { vertex?: string; module?: string } {
    const s = this.scene;
    if (!s) return {};
    const p = this.toWorld(sx, sy);
    for (const v of s.state.vertices.values()) {
      const b = s.pos.get(v.id);
      if (!b || hiddenUnder(v, s.collapsed)) continue;
      if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h) return { vertex: v.id };
    }
    for (let i = this.boxes.length - 1; i >= 0; i--) {
      const b = this.boxes[i] as ModuleBox;
      const hitH = s.collapsed.has(b.path) ? b.h : 20;
      if (p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + hitH) return { module: b.path };
    }
    return {};
  }

  /** True when the last fit showed a readable region instead of the whole (huge) graph. */
  partial = false;

  /** Fit the graph; one too big to read at the fitted zoom gets a readable zoom centred on
   *  `focus` (the current or selected node), else on the newest vertex (the loss end).
   *  `all` forces the whole graph (the wheel and − still zoom out further). */
  fit(focus: string | null = null, all = false): void {
    const s = this.scene;
    if (!s || s.pos.size === 0) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    let last: Placed | undefined;
    for (const p of s.pos.values()) {
      x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x + p.w); y1 = Math.max(y1, p.y + p.h);
      last = p;
    }
    const { w: W, h: H } = this.size;
    const k = Math.min(1.4, Math.max(0.001, Math.min((W - 60) / (x1 - x0 + 1), (H - 60) / (y1 - y0 + 1))));
    const at = (focus !== null ? s.pos.get(focus) : undefined) ?? last;
    this.partial = !all && k < MIN_FIT && at !== undefined;
    if (this.partial && at) {
      const kr = READABLE;
      // the newest vertex is the bottom of the graph: keep the ops above it in view
      const fy = focus !== null && s.pos.has(focus) ? 0.5 : 0.7;
      this.view = { k: kr, x: W / 2 - (at.x + at.w / 2) * kr, y: H * fy - (at.y + at.h / 2) * kr };
    } else {
      this.view = { k, x: (W - (x1 - x0) * k) / 2 - x0 * k, y: (H - (y1 - y0) * k) / 2 - y0 * k };
    }
    this.request();
  }

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

/** Below MIN_FIT a fitted graph is a smear of lines; Fit then shows a region at READABLE. */
const MIN_FIT = 0.12;
const READABLE = 0.85;

export interface Rect { x0: number; y0: number; x1: number; y1: number }

type Anchor = (v: Vertex) => Placed | ModuleBox | undefined;

function inView(b: { x: number; y: number; w: number; h: number }, r: Rect): boolean {
  return b.x + b.w >= r.x0 && b.x <= r.x1 && b.y + b.h >= r.y0 && b.y <= r.y1;
}

/** Draw modules, then edges, then vertices; also used to render PNG exports. */
export function drawScene(ctx: CanvasRenderingContext2D, s: Scene, boxes: ModuleBox[], k: number, vis: Rect, anchor: Anchor): void {
  ctx.font = "12px Inter, system-ui, sans-serif";
  ctx.textBaseline = "middle";
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
      ctx.fillText(`${collapsed ? "▸" : "▾"} ${b.path}${collapsed ? `  (${b.count} nodes)` : ""}`, b.x + 8, b.y + 11);
    }
  }
  if (k < FAST_BELOW) return drawFast(ctx, s, k, vis, anchor);
  drawEdges(ctx, s, k, vis, anchor);
  for (const v of s.state.vertices.values()) {
    const p = s.pos.get(v.id);
    if (!p || !inView(p, vis) || hiddenUnder(v, s.collapsed)) continue;
    drawVertex(ctx, s, v, p, k);
  }
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

function drawEdges(ctx: CanvasRenderingContext2D, s: Scene, k: number, vis: Rect, anchor: Anchor): void {
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
      if (Math.max(x0, x1) < vis.x0 || Math.min(x0, x1) > vis.x1 || Math.max(y0, y1) < vis.y0 || Math.min(y0, y1) > vis.y1) return;
      const g = s.state.edgeGrads.get(`${v.id}>${i}`);
      ctx.strokeStyle = g ? THEME.edgeGrad : THEME.edge;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      const my = (y0 + y1) / 2;
      ctx.bezierCurveTo(x0, my, x1, my, x1, y1);
      ctx.stroke();
      // arrowhead at the input end: backward flows from a vertex to its next functions
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - 4, y1 + 7);
      ctx.lineTo(x1 + 4, y1 + 7);
      ctx.fill();
      const focus = v.id === s.selected || v.id === s.state.current || e.to === s.selected || s.state.vertices.size <= 24;
      if (g && focus && k > 0.3) labels.push([summary(g), x0 + (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3]);
    });
  }
  ctx.font = "11px 'JetBrains Mono', ui-monospace, monospace";
  for (const [text, x, y] of labels) {
    const w = ctx.measureText(text).width + 8;
    ctx.fillStyle = "rgba(15,18,24,0.92)";
    ctx.fillRect(x - w / 2, y - 8, w, 16);
    ctx.fillStyle = THEME.edgeGrad;
    ctx.fillText(text, x - w / 2 + 4, y);
  }
  ctx.font = "12px Inter, system-ui, sans-serif";
}

function drawVertex(ctx: CanvasRenderingContext2D, s: Scene, v: Vertex, p: Placed, k: number): void {
  const st = s.state.nodeState.get(v.id);
  const c = vertexColors(v.kind, st);
  const isCurrent = s.state.current === v.id;
  const isErr = s.state.error?.node === v.id;
  const r = v.kind === "leaf" || v.kind === "const" || v.kind === "cut" ? p.h / 2 : 6;
  if (isCurrent) {
    ctx.shadowColor = THEME.current;
    ctx.shadowBlur = 18;
  }
  roundRect(ctx, p.x, p.y, p.w, p.h, r);
  ctx.fillStyle = c.fill;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = (isCurrent || isErr ? 2.5 : st === "done" ? 1.6 : 1.2) / Math.max(k, 0.4);
  ctx.strokeStyle = isErr ? THEME.error : isCurrent ? THEME.current : c.stroke;
  ctx.setLineDash(st === "freed" || v.kind === "cut" ? [4, 3] : st === "ready" ? [2, 2] : []);
  if (st === "ready") ctx.strokeStyle = THEME.ready;
  ctx.stroke();
  ctx.setLineDash([]);
  if (s.selected === v.id) {
    ctx.strokeStyle = THEME.selected;
    ctx.lineWidth = 1.5 / Math.max(k, 0.4);
    roundRect(ctx, p.x - 3, p.y - 3, p.w + 6, p.h + 6, r + 3);
    ctx.stroke();
  }
  if (s.breakpoints.has(v.id)) {
    ctx.fillStyle = THEME.error;
    ctx.beginPath();
    ctx.arc(p.x + 2, p.y + p.h / 2, 4.5, 0, Math.PI * 2);
    ctx.fill();
  }
  if (k < 0.3) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(p.x + 6, p.y, p.w - 12, p.h);
  ctx.clip();
  if (v.kind === "fn" && v.label) {
    // the non-leaf tensor this node produced: a tensor-coloured pill before the node's name
    const pw = ctx.measureText(v.label).width + 12;
    roundRect(ctx, p.x + 5, p.y + 5, pw, p.h - 10, (p.h - 10) / 2);
    const freed = st === "freed";
    ctx.fillStyle = freed ? c.fill : THEME.nonLeafFill;
    ctx.fill();
    ctx.lineWidth = 1 / Math.max(k, 0.4);
    ctx.strokeStyle = freed ? c.stroke : THEME.nonLeafStroke;
    ctx.stroke();
    ctx.fillStyle = freed ? c.text : THEME.nonLeafText;
    ctx.fillText(v.label, p.x + 11, p.y + p.h / 2);
    ctx.fillStyle = c.text;
    ctx.fillText(shortName(v.name), p.x + 12 + pw, p.y + p.h / 2);
  } else {
    ctx.fillStyle = c.text;
    ctx.fillText(vertexTitle(v), p.x + 12, p.y + p.h / 2);
  }
  ctx.restore();
  decorations(ctx, s, v, p, k);
}
