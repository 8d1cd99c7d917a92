// The overview map: the whole drawn graph in a small corner canvas with the viewport's
// rectangle; clicking or dragging in it moves the view there. The graph's picture is redrawn
// at most a few times a second while a run streams (only the rectangle moves every frame).
import type { Placement, Rect } from "../layout/placement";
import type { Viewport } from "../view/state";
import { THEME } from "./theme";

/** A big graph's picture is redrawn at most this often while it grows. */
const REDRAW_MS = 1000;

export class Overview {
  readonly el: HTMLCanvasElement;
  private picture: HTMLCanvasElement = document.createElement("canvas");
  private drawnVersion = -1;
  private drawnState: unknown = null;
  private pictures = 0;
  private drawnAt = 0;
  private shownKey = "";
  /** World rect the picture shows, and its scale (map px per world px). */
  private world: Rect = { x0: 0, y0: 0, x1: 1, y1: 1 };
  private scale = 1;
  private ox = 0;
  private oy = 0;
  /** Move the view so its centre is at a world point. */
  onPick: (x: number, y: number) => void = () => {};

  constructor(el: HTMLCanvasElement) {
    this.el = el;
    let down = false;
    const pick = (e: PointerEvent): void => {
      const r = el.getBoundingClientRect();
      this.onPick((e.clientX - r.left - this.ox) / this.scale + this.world.x0, (e.clientY - r.top - this.oy) / this.scale + this.world.y0);
    };
    el.addEventListener("pointerdown", (e) => {
      down = true;
      el.setPointerCapture(e.pointerId);
      pick(e);
    });
    el.addEventListener("pointermove", (e) => down && pick(e));
    el.addEventListener("pointerup", () => (down = false));
  }

  private redraw(place: Placement, whole: Rect, W: number, H: number, has: (id: string) => boolean): void {
    const dpr = window.devicePixelRatio || 1;
    const pic = this.picture;
    pic.width = Math.round(W * dpr);
    pic.height = Math.round(H * dpr);
    const ctx = pic.getContext("2d");
    if (!ctx) return;
    this.world = whole;
    const ww = whole.x1 - whole.x0 || 1, wh = whole.y1 - whole.y0 || 1;
    this.scale = Math.min((W - 8) / ww, (H - 8) / wh);
    this.ox = (W - ww * this.scale) / 2;
    this.oy = (H - wh * this.scale) / 2;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "rgba(15,18,24,0.92)";
    ctx.fillRect(0, 0, W, H);
    const sc = this.scale;
    ctx.strokeStyle = THEME.moduleStroke;
    ctx.lineWidth = 1;
    for (const f of place.frames) if (f.members.some(has)) ctx.strokeRect(this.ox + (f.x - whole.x0) * sc, this.oy + (f.y - whole.y0) * sc, f.w * sc, f.h * sc);
    ctx.fillStyle = "#5b8def";
    const path = new Path2D();
    if (place.pos.size < 3000) {
      for (const p of place.pos.values()) {
        if (!has(p.id)) continue;
        path.rect(this.ox + (p.x - whole.x0) * sc, this.oy + (p.y - whole.y0) * sc, Math.max(1, p.w * sc), Math.max(1, p.h * sc));
      }
    } else {
      // thousands of boxes in a few hundred pixels: one span per pixel row
      const x0 = new Float32Array(Math.ceil(H) + 1).fill(Infinity), x1 = new Float32Array(Math.ceil(H) + 1).fill(-Infinity);
      for (const p of place.pos.values()) {
        if (!has(p.id)) continue;
        const r = Math.max(0, Math.min(x0.length - 1, Math.floor(this.oy + (p.y - whole.y0) * sc)));
        x0[r] = Math.min(x0[r] as number, this.ox + (p.x - whole.x0) * sc);
        x1[r] = Math.max(x1[r] as number, this.ox + (p.x + p.w - whole.x0) * sc);
      }
      for (let r = 0; r < x0.length; r++) if ((x1[r] as number) >= (x0[r] as number)) path.rect(x0[r] as number, r, Math.max(1, (x1[r] as number) - (x0[r] as number)), 1);
    }
    ctx.fill(path);
    this.drawnVersion = place.version;
    this.drawnAt = performance.now();
    this.pictures++;
  }

  /** Show the map (when the view does not show the whole graph) with the viewport on it:
   *  the boxes that exist at the cursor (`at` says which, `has`), on the whole run's layout. */
  draw(place: Placement, whole: Rect | null, vis: Rect, show: boolean, at: unknown, has: (id: string) => boolean): void {
    this.el.hidden = !show || !whole;
    if (this.el.hidden || !whole) return;
    const W = this.el.clientWidth || 180, H = this.el.clientHeight || 120;
    const changed = place.version !== this.drawnVersion || at !== this.drawnState;
    if (changed && (performance.now() - this.drawnAt > REDRAW_MS || this.drawnVersion < 0 || place.pos.size < 3000)) {
      this.drawnState = at;
      this.redraw(place, whole, W, H, has);
    }
    const key = `${this.pictures}|${vis.x0}|${vis.y0}|${vis.x1}|${vis.y1}`;
    if (key === this.shownKey) return;
    this.shownKey = key;
    const dpr = window.devicePixelRatio || 1;
    if (this.el.width !== Math.round(W * dpr)) this.el.width = Math.round(W * dpr);
    if (this.el.height !== Math.round(H * dpr)) this.el.height = Math.round(H * dpr);
    const ctx = this.el.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.el.width, this.el.height);
    ctx.drawImage(this.picture, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const sc = this.scale, w = this.world;
    const x = this.ox + (vis.x0 - w.x0) * sc, y = this.oy + (vis.y0 - w.y0) * sc;
    ctx.strokeStyle = THEME.current;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x, y, Math.max(3, (vis.x1 - vis.x0) * sc), Math.max(3, (vis.y1 - vis.y0) * sc));
  }
}

/** The view rect in a viewport of W x H css px. */
export function viewRect(v: Viewport, W: number, H: number): Rect {
  return { x0: -v.x / v.k, y0: -v.y / v.k, x1: (W - v.x) / v.k, y1: (H - v.y) / v.k };
}
