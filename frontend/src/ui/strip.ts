// The strip above the timeline slider: one tick per event bucket, coloured by phase.
import type { WireEvent } from "../wire";

const COLORS: Record<string, string> = {
  node: "#5b8def", tensor: "#f0a93a", untracked_op: "#d86a8e", version_bump: "#ff6b6b",
  node_enter: "#37d5ff", node_exit: "#2a8fb0", grad_accumulated: "#3fbf86", hook_fired: "#ffd24a",
  error: "#ff5c5c", stdout: "#8a94a8", paused: "#ffffff", saved_pack: "#b48cff", saved_unpack: "#d9b8ff",
};
// saved-tensor unpack hooks are user code run inside a node, like tensor hooks: full height
const RANK: Record<string, number> = { error: 9, hook_fired: 8, paused: 7, saved_unpack: 7, version_bump: 6, grad_accumulated: 5, node_enter: 4, saved_pack: 1 };

let lastKey = "";
const sizes = new WeakMap<HTMLCanvasElement, { w: number; h: number }>();

function sizeOf(cv: HTMLCanvasElement): { w: number; h: number } {
  let s = sizes.get(cv);
  if (!s) {
    const box = { w: cv.clientWidth, h: cv.clientHeight };
    sizes.set(cv, box);
    s = box;
    new ResizeObserver((entries) => {
      const r = entries[entries.length - 1]?.contentRect;
      if (r) sizes.set(cv, { w: r.width, h: r.height });
    }).observe(cv);
  }
  return s;
}

export function drawStrip(cv: HTMLCanvasElement, events: WireEvent[], cursor: number): void {
  const { w: W, h: H } = sizeOf(cv);
  const key = `${events.length}|${cursor}|${W}`;
  if (key === lastKey || W === 0) return;
  lastKey = key;
  const dpr = window.devicePixelRatio || 1;
  // resizing a canvas reallocates it: only when its size changed
  if (cv.width !== Math.round(W * dpr)) cv.width = Math.round(W * dpr);
  if (cv.height !== Math.round(H * dpr)) cv.height = Math.round(H * dpr);
  const ctx = cv.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, W, H);
  const n = events.length;
  if (!n) return;
  const cols = Math.min(W, n);
  for (let c = 0; c < cols; c++) {
    // the most telling event in this bucket wins
    let best = "";
    const lo = Math.floor((c * n) / cols), hi = Math.floor(((c + 1) * n) / cols);
    for (let i = lo; i < hi && i < lo + 64; i++) {
      const t = (events[i] as WireEvent).type;
      if ((RANK[t] ?? 0) >= (RANK[best] ?? 0) && COLORS[t]) best = t;
    }
    if (!best) continue;
    ctx.fillStyle = COLORS[best] ?? "#444";
    ctx.globalAlpha = c * (n / cols) <= cursor ? 1 : 0.35;
    ctx.fillRect((c * W) / cols, RANK[best] ? 0 : H / 3, Math.max(1, W / cols - 0.5), RANK[best] ? H : (2 * H) / 3);
  }
  ctx.globalAlpha = 1;
}
