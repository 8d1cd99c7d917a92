// Value views: a table for small tensors, a heatmap for 2-D, a histogram for large ones.
import type { Value } from "../model/types";
import { formatShape, formatValues, shortNumber, statsOf } from "../model/value";
import { formatComplex, magnitudes, type Complex } from "../model/complex";
import { h } from "./dom";

function table(v: Value, text: string[], wide = 8): HTMLElement {
  const cols = v.shape.length >= 2 ? (v.shape[v.shape.length - 1] ?? 1) : Math.min(text.length, wide) || 1;
  const t = h("table", { class: "vals" });
  for (let r = 0; r * cols < text.length; r++) {
    const tr = h("tr");
    for (let c = 0; c < cols && r * cols + c < text.length; c++) tr.append(h("td", {}, text[r * cols + c] as string));
    t.append(tr);
  }
  return t;
}

/** Min and max of the finite elements, by a loop (a spread of 100k arguments overflows). */
function finiteRange(xs: number[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const x of xs) {
    if (!Number.isFinite(x)) continue;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
}

function colour(x: number, lo: number, hi: number): string {
  if (!Number.isFinite(x)) return "#ff00ff";
  const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
  const a = Math.min(1, Math.abs(x) / m);
  // diverging: blue for negative, orange for positive
  return x < 0 ? `rgba(91,141,239,${0.15 + 0.85 * a})` : `rgba(240,169,58,${0.15 + 0.85 * a})`;
}

function heatmap(v: Value, flat: number[], what = ""): HTMLElement {
  const rows = v.shape[0] ?? 1, cols = v.shape[1] ?? 1;
  const cell = Math.max(2, Math.min(18, Math.floor(300 / Math.max(rows, cols))));
  const cv = h("canvas", { class: "heatmap", width: String(cols * cell), height: String(rows * cell) });
  const ctx = cv.getContext("2d");
  const [lo, hi] = finiteRange(flat);
  if (ctx) {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      ctx.fillStyle = colour(flat[r * cols + c] ?? 0, lo, hi);
      ctx.fillRect(c * cell, r * cell, cell, cell);
    }
  }
  cv.title = `${what}min ${shortNumber(lo)} · max ${shortNumber(hi)}`;
  return cv;
}

function histogram(v: Value, flat: number[] | null): HTMLElement {
  let counts: number[] = [], lo = 0, hi = 0;
  if (v.hist && v.hist.counts.length) {
    counts = v.hist.counts;
    lo = v.hist.edges[0] ?? 0;
    hi = v.hist.edges[v.hist.edges.length - 1] ?? 0;
  } else if (flat) {
    const fin = flat.filter(Number.isFinite);
    [lo, hi] = finiteRange(fin);
    counts = new Array(32).fill(0);
    for (const x of fin) counts[Math.min(31, Math.floor(((x - lo) / (hi - lo || 1)) * 32))] += 1;
  }
  const cv = h("canvas", { class: "hist", width: "300", height: "80" });
  const ctx = cv.getContext("2d");
  const max = Math.max(1, ...counts);
  if (ctx) {
    const bw = 300 / Math.max(1, counts.length);
    ctx.fillStyle = "#5b8def";
    counts.forEach((c, i) => ctx.fillRect(i * bw + 0.5, 80 - (c / max) * 76, bw - 1, (c / max) * 76));
  }
  return h("div", { class: "hist-wrap" }, cv, h("div", { class: "hist-axis" }, h("span", {}, shortNumber(lo)), h("span", {}, shortNumber(hi))));
}

/** A complex tensor: its elements as PyTorch prints them; heatmap and histogram of |z|.
 *  A large one's summary has no stats, only its first elements. */
function complexView(v: Value, z: Complex, out: HTMLElement): HTMLElement {
  const n = z.re.length;
  if (v.sampled) {
    out.append(h("p", { class: "note" }, `Only the first ${n} values were sent for this large complex tensor (no stats).`));
    if (n) out.append(table({ ...v, shape: [n] }, formatComplex(z), 3));
    return out;
  }
  const mag = magnitudes(z);
  if (n > 0) out.append(h("div", { class: "stats" }, h("span", {}, h("b", {}, "max |z|"), " ", shortNumber(Math.max(finiteRange(mag)[1], 0)))));
  if (n > 0 && n <= 64) out.append(table(v, formatComplex(z), 4));
  else if (v.shape.length === 2 && n <= 65536) out.append(h("div", { class: "note" }, "|z|"), heatmap(v, mag, "|z| "));
  if (n > 64) out.append(h("div", { class: "note" }, "histogram of |z|"), histogram(v, mag));
  return out;
}

/** 2-D values up to this many elements get a heatmap (512×512: 2 px cells, 1 MB of pixels). */
const HEATMAP_MAX = 1 << 18;

/** Stats line plus the best view for this value. */
export function valueView(v: Value): HTMLElement {
  const out = h("div", { class: "value" });
  const st = statsOf(v);
  out.append(h("div", { class: "meta" }, `${formatShape(v.shape)}${v.dtype ? ` · ${v.dtype}` : ""}`));
  if (st) {
    const s = h("div", { class: "stats", "data-testid": "value-stats" });
    // NaN and Inf elements first, flagged: min/max/mean/std/norm are over the finite ones
    if (st.nan) s.append(h("span", { class: "nonfinite", "data-testid": "value-nan" }, h("b", {}, "NaN"), ` ×${st.nan}`));
    if (st.inf) s.append(h("span", { class: "nonfinite", "data-testid": "value-inf" }, h("b", {}, "Inf"), ` ×${st.inf}`));
    const finite = st.nan || st.inf ? " of the finite" : "";
    // said on the page, not only in a tooltip: PyTorch's own x.max() or x.norm() of such a
    // tensor is nan or inf, so a bare "max 2" would read as a claim about every element
    if (finite) s.append(h("span", { class: "finite-note", "data-testid": "value-finite" }, "finite elements:"));
    for (const [k, x] of [["min", st.min], ["max", st.max], ["mean", st.mean], ["std", st.std], ["norm", st.norm]] as const) {
      if (!Number.isNaN(x)) s.append(h("span", { title: `${k}${finite} elements` }, h("b", {}, k), " ", shortNumber(x)));
    }
    out.append(s);
  }
  if (v.complex) return complexView(v, v.complex, out);
  const flat = v.flat;
  const n = flat ? flat.length : 0;
  if (flat && n > 0 && n <= 64) out.append(table(v, formatValues(flat)));
  else if (flat && v.shape.length === 2 && n <= HEATMAP_MAX) out.append(heatmap(v, flat));
  if ((flat && n > 64) || (!flat && v.hist)) out.append(histogram(v, flat));
  return out;
}
