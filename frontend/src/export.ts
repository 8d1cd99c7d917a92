// Exports: the graph as SVG (vector, from the same scene) or PNG (canvas), the run as JSON.
import type { Scene } from "./render/scene";
import { BOX } from "./layout/layered";
import { edgeCurve, moduleBoxes, shortName, vertexTitle } from "./render/scene";
import { THEME, vertexColors } from "./render/theme";
import { anchorFor, drawScene } from "./render/canvas";
import type { WireEvent } from "./wire";

function bounds(s: Scene): { x: number; y: number; w: number; h: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of [...s.pos.values(), ...moduleBoxes(s)]) {
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y - 30);
    x1 = Math.max(x1, p.x + p.w); y1 = Math.max(y1, p.y + p.h + 20);
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, w: 100, h: 100 };
  return { x: x0 - 20, y: y0 - 20, w: x1 - x0 + 40, h: y1 - y0 + 40 };
}

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function toSVG(s: Scene): string {
  const b = bounds(s);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${b.x} ${b.y} ${b.w} ${b.h}" width="${b.w}" height="${b.h}" font-family="Inter, system-ui, sans-serif" font-size="12">`,
    `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="${THEME.bg}"/>`,
  ];
  const boxes = moduleBoxes(s);
  const anchor = anchorFor(s, boxes);
  for (const m of boxes) {
    const shut = s.collapsed.has(m.path);
    out.push(`<g><rect x="${m.x}" y="${m.y}" width="${m.w}" height="${m.h}" rx="8" fill="${shut ? "#1d2638" : "rgba(60,76,120,0.10)"}" stroke="${THEME.moduleStroke}"/>`);
    out.push(`<text x="${m.x + 8}" y="${m.y + BOX.title / 2 + 5}" fill="${THEME.muted}">${esc(`${shut ? "▸" : "▾"} ${m.path}`)}</text></g>`);
  }
  for (const v of s.state.vertices.values()) {
    const a = s.pos.get(v.id);
    if (!a || anchor(v) !== a) continue;
    v.edges.forEach((e, i) => {
      const to = s.state.vertices.get(e.to);
      const p = to ? s.pos.get(to.id) : undefined;
      if (!p || !to || anchor(to) !== p) return;
      const x0 = a.x + a.w / 2, y0 = a.y, x1 = p.x + p.w / 2, y1 = p.y + p.h;
      const [ax, ay, bx, by] = edgeCurve(x0, y0, x1, y1);
      const g = s.state.edgeGrads.has(`${v.id}>${i}`);
      out.push(`<path d="M${x0},${y0} C${ax},${ay} ${bx},${by} ${x1},${y1}" fill="none" stroke="${g ? THEME.edgeGrad : THEME.edge}" stroke-width="1.2"/>`);
    });
  }
  for (const v of s.state.vertices.values()) {
    const p = s.pos.get(v.id);
    if (!p || anchor(v) !== p) continue;
    const c = vertexColors(v.kind, s.state.nodeState.get(v.id));
    const r = v.kind === "fn" || v.kind === "accumulate" ? 6 : p.h / 2;
    const stroke = s.state.current === v.id ? THEME.current : c.stroke;
    out.push(`<g><title>${esc(v.name)}</title><rect x="${p.x}" y="${p.y}" width="${p.w}" height="${p.h}" rx="${r}" fill="${c.fill}" stroke="${stroke}"/>`);
    if (v.kind === "fn" && v.label) {
      // the non-leaf tensor's pill, as on the canvas (width estimated: no text metrics here)
      const pw = v.label.length * 7 + 12;
      out.push(`<rect x="${p.x + 5}" y="${p.y + 5}" width="${pw}" height="${p.h - 10}" rx="${(p.h - 10) / 2}" fill="${THEME.nonLeafFill}" stroke="${THEME.nonLeafStroke}"/>`);
      out.push(`<text x="${p.x + 11}" y="${p.y + p.h / 2 + 4}" fill="${THEME.nonLeafText}">${esc(v.label)}</text>`);
      out.push(`<text x="${p.x + 12 + pw}" y="${p.y + p.h / 2 + 4}" fill="${c.text}">${esc(shortName(v.name))}</text></g>`);
    } else {
      out.push(`<text x="${p.x + 12}" y="${p.y + p.h / 2 + 4}" fill="${c.text}">${esc(vertexTitle(v))}</text></g>`);
    }
  }
  out.push("</svg>");
  return out.join("\n");
}

export function toPNG(s: Scene): Promise<Blob | null> {
  const b = bounds(s);
  const scale = Math.min(2, 8000 / Math.max(b.w, b.h));
  const cv = document.createElement("canvas");
  cv.width = Math.max(1, Math.round(b.w * scale));
  cv.height = Math.max(1, Math.round(b.h * scale));
  const ctx = cv.getContext("2d");
  if (!ctx) return Promise.resolve(null);
  ctx.fillStyle = THEME.bg;
  ctx.fillRect(0, 0, cv.width, cv.height);
  ctx.setTransform(scale, 0, 0, scale, -b.x * scale, -b.y * scale);
  const boxes = moduleBoxes(s);
  drawScene(ctx, s, boxes, scale, { x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h }, anchorFor(s, boxes));
  return new Promise((res) => cv.toBlob(res, "image/png"));
}

export function toJSON(runId: string, code: string, events: WireEvent[]): string {
  return JSON.stringify({ id: runId, code, events });
}

export function download(name: string, data: Blob | string, type = "application/octet-stream"): void {
  const blob = typeof data === "string" ? new Blob([data], { type }) : data;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
