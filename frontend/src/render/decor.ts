// Per-vertex decorations drawn by the canvas: hook markers, a leaf's .grad, saved-tensor chips.
import type { Placed } from "../layout/layered";
import type { Value, Vertex } from "../model/types";
import { formatNumber, scalarOf, summary } from "../model/value";
import { THEME } from "./theme";
import { hooksOn, isStale, type Scene } from "./scene";

function gradLabel(g: Value): string {
  const x = scalarOf(g);
  return x !== null ? formatNumber(x) : summary(g);
}

/** Hook markers (top right) and saved-tensor chips (below); stale ones red. */
export function decorations(ctx: CanvasRenderingContext2D, s: Scene, v: Vertex, p: Placed, k: number): void {
  hooksOn(s.state, v).forEach((h, i) => {
    ctx.fillStyle = h.fired ? THEME.hookFired : THEME.hook;
    if (h.fired) {
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
    ctx.fillText(`.grad ${gradLabel(g)}`, p.x + 4, p.y - 8);
    ctx.font = "12px Inter, system-ui, sans-serif";
  }
  if (v.saved.length === 0 || k < 0.6) return;
  ctx.font = "10px 'JetBrains Mono', ui-monospace, monospace";
  let x = p.x + 4;
  for (const sv of v.saved.slice(0, 3)) {
    const stale = isStale(s.state, sv.tensor, sv.versionAtSave);
    const text = `${sv.name.replace(/^_saved_/, "")} v${sv.versionAtSave}${stale ? `→v${s.state.versions.get(sv.tensor ?? "")}` : ""}`;
    const w = ctx.measureText(text).width + 8;
    ctx.fillStyle = stale ? "#3b1717" : "#1a1f2b";
    ctx.fillRect(x, p.y + p.h + 2, w, 13);
    ctx.fillStyle = stale ? THEME.stale : THEME.muted;
    ctx.fillText(text, x + 4, p.y + p.h + 9);
    x += w + 3;
  }
  ctx.font = "12px Inter, system-ui, sans-serif";
}
