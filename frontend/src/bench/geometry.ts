// What the graph shows and where, in screen pixels, for the browser tests: vertex boxes (and
// whether their text fits), module boxes, and the overlays drawn over the canvas.
import type { App } from "../app";
import { fitsBox, moduleBoxes, vertexTitle } from "../render/scene";

export interface ScreenRect { x: number; y: number; w: number; h: number }

export interface Geometry {
  canvas: ScreenRect;
  vertices: (ScreenRect & { id: string; title: string; fits: boolean })[];
  boxes: (ScreenRect & { path: string; members: string[] })[];
  overlays: Record<string, ScreenRect | null>;
}

function rectOf(el: Element | null): ScreenRect | null {
  if (!el || (el as HTMLElement).hidden || (el as HTMLElement).offsetParent === null) return null;
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}

export function geometry(app: App): Geometry {
  const c = app.canvas.el.getBoundingClientRect();
  const { x: vx, y: vy, k } = app.canvas.view;
  const screen = (b: { x: number; y: number; w: number; h: number }): ScreenRect => ({ x: c.x + vx + b.x * k, y: c.y + vy + b.y * k, w: b.w * k, h: b.h * k });
  const scene = app.scene();
  const vertices = [];
  for (const v of scene.state.vertices.values()) {
    const p = app.pos.get(v.id);
    if (p) vertices.push({ id: v.id, title: vertexTitle(v), fits: fitsBox(v, p.w, app.measure), ...screen(p) });
  }
  const boxes = moduleBoxes(scene).map((b) => ({ path: b.path, members: [...b.members], ...screen(b) }));
  const overlays: Record<string, ScreenRect | null> = {};
  for (const sel of ["#legend", ".zoom", "#queue", "#error", "#replay-hint"]) overlays[sel] = rectOf(document.querySelector(sel));
  return { canvas: { x: c.x, y: c.y, w: c.width, h: c.height }, vertices, boxes, overlays };
}
