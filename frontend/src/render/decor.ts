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

/** Hook markers (top right) and saved-tensor chips (below); stale ones red. */
/** `room`: px from the box's left edge to the next box on its row (for the `.grad` label). */
export function decorations(ctx: CanvasRenderingContext2D, s: Scene, v: Vertex, p: Placed, k: number, room = Infinity): void {
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
  const g = v.kind === "leaf" && v.tensor !== null ? s.state.grads.get(v.tensor) : undefined;
  if (g && (k > 0.6 || s.state.vertices.size <= 24 || s.selected === v.id)) {
    ctx.font = "11px 'JetBrains Mono', ui-monospace, monospace";
    ctx.fillStyle = "#3fbf86";
    // above the leaf, where the rank gap is empty (to its right sits the next vertex)
    // up to the next box on the row (the inspector has all of it)
    ctx.fillText(fitText(ctx, `.grad ${gradLabel(g)}`, Math.min(room, 600)), p.x + 4, p.y - 8);
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
    ctx.fillStyle = stale_ ? THEME.stale : THEME.muted;
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
