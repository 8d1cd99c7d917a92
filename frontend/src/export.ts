// Exports: the graph as SVG (vector, from the same scene) or PNG (canvas), the run as JSON.
import type { Scene } from "./render/scene";
import { BOX } from "./layout/layered";
import { edgeCurve, isModuleBox, shortName, vertexTitle } from "./render/scene";
import { THEME, vertexColors } from "./render/theme";
import { drawScene } from "./render/canvas";
import { graphRect } from "./render/fit";
import type { WireEvent } from "./wire";

function bounds(s: Scene): { x: number; y: number; w: number; h: number } {
  const r = graphRect(s.place);
  if (!r) return { x: 0, y: 0, w: 100, h: 100 };
  return { x: r.x0 - 20, y: r.y0 - 20, w: r.x1 - r.x0 + 40, h: r.y1 - r.y0 + 40 };
}

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function toSVG(s: Scene): string {
  const b = bounds(s);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${b.x} ${b.y} ${b.w} ${b.h}" width="${b.w}" height="${b.h}" font-family="Inter, system-ui, sans-serif" font-size="12">`,
    `<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" fill="${THEME.bg}"/>`,
  ];
  for (const m of s.place.frames) {
    out.push(`<g><rect x="${m.x}" y="${m.y}" width="${m.w}" height="${m.h}" rx="8" fill="rgba(60,76,120,0.10)" stroke="${THEME.moduleStroke}"/>`);
    out.push(`<text x="${m.x + 8}" y="${m.y + BOX.title / 2 + 5}" fill="${THEME.muted}">${esc(`▾ ${m.path}`)}</text></g>`);
  }
  const placed = [...s.place.pos.values()];
  for (const a of placed) {
    for (const t of a.to ?? []) {
      const p = s.place.pos.get(t);
      if (!p) continue;
      const x0 = a.x + a.w / 2, y0 = a.y, x1 = p.x + p.w / 2, y1 = p.y + p.h;
      const [ax, ay, bx, by] = edgeCurve(x0, y0, x1, y1);
      const v = s.state.vertices.get(a.id);
      const g = !!v && v.edges.some((e, i) => s.place.anchorId(e.to) === t && s.state.edgeGrads.has(`${v.id}>${i}`));
      out.push(`<path d="M${x0},${y0} C${ax},${ay} ${bx},${by} ${x1},${y1}" fill="none" stroke="${g ? THEME.edgeGrad : THEME.edge}" stroke-width="1.2"/>`);
    }
  }
  for (const p of placed) {
    if (isModuleBox(p.id)) {
      const l = s.moduleLabel(p.id.slice(2));
      out.push(`<g><rect x="${p.x}" y="${p.y}" width="${p.w}" height="${p.h}" rx="8" fill="#1d2638" stroke="#6d84c4"/>`);
      out.push(`<text x="${p.x + 8}" y="${p.y + 17}" fill="${THEME.text}">${esc(`▸ ${l.title}`)}</text>`);
      out.push(`<text x="${p.x + 8}" y="${p.y + 34}" fill="${THEME.muted}" font-size="11">${esc(l.shapes)}</text></g>`);
      continue;
    }
    const v = s.state.vertices.get(p.id);
    if (!v) continue;
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
  drawScene(ctx, s, { k: scale, x: -b.x * scale, y: -b.y * scale }, { x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h });
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
