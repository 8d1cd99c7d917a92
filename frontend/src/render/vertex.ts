// One vertex on the canvas: its box in the colours of its kind and run state, its title (or
// the non-leaf tensor's pill and the op name), selection, breakpoint, and decorations.
import type { Placed } from "../layout/layered";
import type { Vertex } from "../model/types";
import { decorations, type GradSlot } from "./decor";
import { shortName, vertexTitle, type Scene } from "./scene";
import { fitText } from "./text";
import { THEME, vertexColors } from "./theme";

export function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** One vertex; `text` false when zoomed out (names are then drawn at a fixed screen size). */
export function drawVertex(ctx: CanvasRenderingContext2D, s: Scene, v: Vertex, p: Placed, k: number, slot?: GradSlot, text = true): void {
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
  if (!text || k < 0.3) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(p.x + 6, p.y, p.w - 12, p.h);
  ctx.clip();
  if (v.kind === "fn" && v.label) {
    // the non-leaf tensor this node produced: a tensor-coloured pill before the node's name;
    // a name that arrived after the box was sized shortens the pill's text, never the op's
    // text runs from x+11 to x+w-8 with the pill's 13 px between label and name
    const room = p.w - 32;
    const name = fitText(ctx, shortName(v.name), room - 14);
    const label = fitText(ctx, v.label, room - ctx.measureText(name).width);
    const pw = ctx.measureText(label).width + 12;
    roundRect(ctx, p.x + 5, p.y + 5, pw, p.h - 10, (p.h - 10) / 2);
    const freed = st === "freed";
    ctx.fillStyle = freed ? c.fill : THEME.nonLeafFill;
    ctx.fill();
    ctx.lineWidth = 1 / Math.max(k, 0.4);
    ctx.strokeStyle = freed ? c.stroke : THEME.nonLeafStroke;
    ctx.stroke();
    ctx.fillStyle = freed ? c.text : THEME.nonLeafText;
    ctx.fillText(label, p.x + 11, p.y + p.h / 2);
    ctx.fillStyle = c.text;
    ctx.fillText(name, p.x + 12 + pw, p.y + p.h / 2);
  } else {
    ctx.fillStyle = c.text;
    ctx.fillText(fitText(ctx, vertexTitle(v), p.w - 20), p.x + 12, p.y + p.h / 2);
  }
  ctx.restore();
  decorations(ctx, s, v, p, k, slot);
}
