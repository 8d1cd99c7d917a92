// Per-vertex decorations drawn by the canvas: hook markers, a leaf's .grad, saved-tensor chips.
import type { Placed } from "../layout/layered";
import type { Value, Vertex } from "../model/types";
import { formatNumber, scalarOf, summary } from "../model/value";
import { FONT, THEME } from "./theme";
import { hooksOn, isStale, type Scene } from "./scene";
import { fitText } from "./text";

function gradLabel(g: Value): string {
  const x = scalarOf(g);
  return x !== null ? formatNumber(x) : summary(g);
}

const LABEL_FONT = "11px 'JetBrains Mono', ui-monospace, monospace";
/** How far up a lifted `.grad` label sits above the usual line. */
const LIFT = 13;

/** A leaf's `.grad` label and where it goes: `lift` lines up, cut at `room` px. */
export interface GradSlot {
  text: string;
  room: number;
  lift: number;
}

function gradText(s: Scene, v: Vertex): string {
  const g = v.kind === "leaf" && v.tensor !== null ? s.state.grads.get(v.tensor) : undefined;
  return g ? `.grad ${gradLabel(g)}` : "";
}

/** Where each shown leaf's `.grad` label goes. Labels sit above their leaf, in the rank gap,
 *  so they only meet each other: a label that would run into the next one on its row goes one
 *  line up (when that line is free there), and each is cut only at the next label on its line. */
export function gradSlots(ctx: CanvasRenderingContext2D, s: Scene, shown: [Vertex, Placed][]): Map<string, GradSlot> {
  ctx.font = LABEL_FONT;
  const rows = new Map<number, { id: string; x: number; w: number; text: string }[]>();
  for (const [v, p] of shown) {
    const text = gradText(s, v);
    if (text) rows.set(p.y, [...(rows.get(p.y) ?? []), { id: v.id, x: p.x + 4, w: ctx.measureText(text).width, text }]);
  }
  ctx.font = FONT;
  const out = new Map<string, GradSlot>();
  for (const row of rows.values()) {
    row.sort((a, b) => a.x - b.x);
    let upEnd = -Infinity;
    const lifts = row.map((l, i) => {
      const next = row[i + 1];
      const lift = next !== undefined && l.x + l.w + 8 > next.x && upEnd + 8 <= l.x ? 1 : 0;
      if (lift) upEnd = l.x + l.w;
      return lift;
    });
    row.forEach((l, i) => {
      const next = row.find((_, j) => j > i && lifts[j] === lifts[i]);
      out.set(l.id, { text: l.text, lift: lifts[i] ?? 0, room: Math.min(next ? next.x - l.x - 8 : Infinity, 600) });
    });
  }
  return out;
}

/** Hook markers (top right), the leaf's `.grad` label (above) and saved-tensor chips (below);
 *  stale chips red, hooked ones lilac. */
export function decorations(ctx: CanvasRenderingContext2D, s: Scene, v: Vertex, p: Placed, k: number, slot?: GradSlot): void {
  hooksOn(s.state, v).forEach((h, i) => {
    ctx.fillStyle = h.firing ? THEME.hookFired : THEME.hook;
    if (h.firing) {
      ctx.shadowColor = THEME.hookFired;
      ctx.shadowBlur = 14;
    }
    ctx.beginPath();
    ctx.arc(p.x + p.w - 6 - i * 11, p.y, 5, 0, Math.PI * 2);
    ctx.fill();
    ctx.shadowBlur = 0;
  });
  if (v.madeBy !== undefined && k > 0.45) {
    // a node backward itself recorded (create_graph=True): say which pass made it
    ctx.font = LABEL_FONT;
    ctx.fillStyle = "#7fd6c2";
    ctx.fillText(fitText(ctx, `∂ by backward #${v.madeBy}`, p.w), p.x + 4, p.y - 6);
    ctx.font = FONT;
  }
  const text = slot?.text ?? gradText(s, v);
  if (text && (k > 0.6 || s.state.vertices.size <= 24 || s.selected === v.id)) {
    ctx.font = LABEL_FONT;
    ctx.fillStyle = "#3fbf86";
    // the inspector has all of a label cut short
    ctx.fillText(fitText(ctx, text, slot?.room ?? 600), p.x + 4, p.y - 8 - (slot?.lift ?? 0) * LIFT);
    ctx.font = FONT;
  }
  if (k < 0.6 || !showsChips(s, v)) return;
  const focus = v.id === s.selected || v.id === s.state.current;
  const stale = v.saved.map((sv) => isStale(s.state, sv.tensor, sv.versionAtSave, v.id));
  ctx.font = "10px 'JetBrains Mono', ui-monospace, monospace";
  let x = p.x + 4;
  for (const [i, sv] of v.saved.slice(0, 3).entries()) {
    if (!focus && !stale[i]) continue;
    const stale_ = stale[i] === true;
    const text = `${sv.name.replace(/^_saved_/, "")} v${sv.versionAtSave}${stale_ ? `→v${s.state.versions.get(sv.tensor ?? "")}` : ""}`;
    const w = ctx.measureText(text).width + 8;
    ctx.fillStyle = stale_ ? "#3b1717" : "#1a1f2b";
    ctx.fillRect(x, p.y + p.h + 2, w, 13);
    // a tensor a saved_tensors_hooks pack hook took: lilac, as in the inspector and the strip
    ctx.fillStyle = stale_ ? THEME.stale : sv.hooked ? "#c9a2ff" : THEME.muted;
    ctx.fillText(text, x + 4, p.y + p.h + 9);
    x += w + 3;
  }
  ctx.font = FONT;
}

/** Saved-tensor chips sit under the box, where edges arrive: drawn for the node in focus, and
 *  for any node with a stale saved tensor (backward through it would raise). */
export function showsChips(s: Scene, v: Vertex): boolean {
  if (v.saved.length === 0) return false;
  if (v.id === s.selected || v.id === s.state.current) return true;
  return v.saved.some((sv) => isStale(s.state, sv.tensor, sv.versionAtSave, v.id));
}
