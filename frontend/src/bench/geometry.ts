// What the graph shows and where, in screen pixels, for the browser tests: vertex boxes (and
// whether their text fits), collapsed module boxes, open modules' frames, the labels drawn in
// the last frame (with their on-screen size), the overlays, and the view's iteration.
import type { App } from "../app";
import { isModuleBox, fitsBox, vertexTitle } from "../render/scene";
import { iterationCount } from "../view/model";

export interface ScreenRect { x: number; y: number; w: number; h: number }

export interface Geometry {
  canvas: ScreenRect;
  vertices: (ScreenRect & { id: string; title: string; fits: boolean })[];
  modules: (ScreenRect & { id: string; title: string; shapes: string })[];
  boxes: (ScreenRect & { path: string; members: string[] })[];
  /** `at`: where a name drawn at the fixed screen size is (page pixels) and the box it names */
  labels: { text: string; px: number; kind: string; at?: ScreenRect & { owner: string | null } }[];
  overlays: Record<string, ScreenRect | null>;
  zoom: number;
  partial: boolean;
  iteration: number | null;
  iterations: number;
  collapsed: string[];
}

function rectOf(el: Element | null): ScreenRect | null {
  if (!el || (el as HTMLElement).hidden || (el as HTMLElement).offsetParent === null) return null;
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, w: r.width, h: r.height };
}

export function geometry(app: App): Geometry {
  const c = app.canvas.el.getBoundingClientRect();
  const { x: vx, y: vy, k } = app.view.viewport;
  const screen = (b: { x: number; y: number; w: number; h: number }): ScreenRect => ({ x: c.x + vx + b.x * k, y: c.y + vy + b.y * k, w: b.w * k, h: b.h * k });
  const scene = app.scene();
  const vertices = [];
  const modules = [];
  for (const p of app.place.pos.values()) {
    if (isModuleBox(p.id)) {
      const l = scene.moduleLabel(p.id.slice(2));
      modules.push({ id: p.id, title: l.title, shapes: l.shapes, ...screen(p) });
      continue;
    }
    const v = scene.state.vertices.get(p.id);
    if (v) vertices.push({ id: v.id, title: vertexTitle(v), fits: fitsBox(v, p.w, app.measure), ...screen(p) });
  }
  const boxes = app.place.frames.map((f) => ({ path: f.path, members: f.members, ...screen(f) }));
  const overlays: Record<string, ScreenRect | null> = {};
  for (const sel of ["#legend", ".zoom", "#queue", "#error", "#replay-hint", "#big-note", "#overview", "#iterations"]) overlays[sel] = rectOf(document.querySelector(sel));
  return {
    canvas: { x: c.x, y: c.y, w: c.width, h: c.height }, vertices, modules, boxes, overlays,
    labels: app.canvas.labels.map((l) => (l.at ? { ...l, at: { ...l.at, x: c.x + l.at.x, y: c.y + l.at.y } } : l)),
    zoom: k, partial: app.partial, iteration: app.shownIteration, iterations: iterationCount(app.log.index), collapsed: [...app.collapsed],
  };
}
