// Tensor values: parse what the wire sends (inline nested lists or a summary), derive stats.
import type { TensorValue } from "../protocol";
import type { Stats, Value } from "./types";
import { complexOf, formatComplex } from "./complex";

function flatten(v: unknown, out: number[]): void {
  if (Array.isArray(v)) for (const x of v) flatten(x, out);
  else if (typeof v === "number") out.push(v);
  else if (typeof v === "boolean") out.push(v ? 1 : 0);
  else if (v === null || v === "nan" || v === "NaN") out.push(NaN);
  else if (v === "inf" || v === "Infinity") out.push(Infinity);
  else if (v === "-inf" || v === "-Infinity") out.push(-Infinity);
}

function isFlat(a: unknown[]): a is number[] {
  for (let i = 0; i < a.length; i++) if (typeof a[i] !== "number") return false;
  return true;
}

function inferShape(v: unknown): number[] {
  const shape: number[] = [];
  let cur = v;
  while (Array.isArray(cur)) {
    shape.push(cur.length);
    cur = cur[0];
  }
  return shape;
}

/** Stats over the finite values, with the NaN and Inf elements counted beside them (a NaN
 *  must not hide: `tensor([nan, 2.])` is min 2, max 2 and one NaN). */
export function computeStats(flat: number[]): Stats {
  let min = Infinity, max = -Infinity, sum = 0, sq = 0, n = 0, nan = 0, inf = 0;
  for (const x of flat) {
    if (Number.isNaN(x)) {
      nan += 1;
      continue;
    }
    if (!Number.isFinite(x)) {
      inf += 1;
      continue;
    }
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
    sq += x * x;
    n += 1;
  }
  if (n === 0) return { min: NaN, max: NaN, mean: NaN, std: NaN, norm: NaN, nan, inf };
  const mean = sum / n;
  let varSum = 0;
  for (const x of flat) if (Number.isFinite(x)) varSum += (x - mean) * (x - mean);
  const std = n > 1 ? Math.sqrt(varSum / (n - 1)) : 0;
  return { min, max, mean, std, norm: Math.sqrt(sq), nan, inf };
}

/** The summary's stats (over finite elements) with its NaN/Inf counts; the L2 norm of the
 *  finite elements from ‖x‖² = Σx² = (n-1)·std² + n·mean² (std is the unbiased one). */
function summaryStats(v: TensorValue, size: number): Stats | null {
  const st = v.stats;
  const nan = v.nan ?? 0, inf = v.inf ?? 0;
  if (!st) return nan || inf ? { min: NaN, max: NaN, mean: NaN, std: NaN, norm: NaN, nan, inf } : null;
  const n = size - nan - inf;
  const norm = Math.sqrt(Math.max(0, (n - 1) * st.std * st.std + n * st.mean * st.mean));
  return { min: st.min, max: st.max, mean: st.mean, std: st.std, norm, nan, inf };
}

/** A wire value (inline `values`, or a large tensor's summary) as the model holds it. */
export function parseValue(raw: TensorValue | null | undefined, fallbackShape: number[] = []): Value | null {
  if (raw === undefined || raw === null) return null;
  const data = raw.values;
  const shape = raw.shape ?? (data !== undefined ? inferShape(data) : fallbackShape);
  if (raw.dtype.startsWith("complex")) return parseComplexValue(raw, shape);
  let flat: number[] | null = null;
  if (typeof data === "number") {
    flat = [data]; // a scalar, the commonest value of all
  } else if (Array.isArray(data) && isFlat(data)) {
    flat = data; // a 1-D list of numbers is used as is (values are never mutated)
  } else if (data !== undefined && data !== null) {
    flat = [];
    flatten(data, flat);
  }
  const hist = raw.hist ? { edges: raw.hist.edges, counts: raw.hist.counts } : null;
  // inline values get their stats on first look (statsOf): most are never looked at
  const stats = flat ? null : summaryStats(raw, shape.reduce((a, b) => a * b, 1));
  return { shape, dtype: raw.dtype, flat, stats, hist };
}

/** A complex tensor's value: its elements as re/im parts (no flat numbers, no stats). */
function parseComplexValue(raw: TensorValue, shape: number[]): Value {
  const whole = raw.values !== undefined && raw.values !== null ? complexOf(raw.values) : null;
  const sample = whole ? null : complexOf(raw.sample);
  return { shape, dtype: raw.dtype, flat: null, stats: null, hist: null, complex: whole ?? sample, sampled: sample !== null };
}

const fmt = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 5 });

/** Format like PyTorch's print: 4 decimals for small magnitudes, scientific when extreme. */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e5 || a < 1e-4)) return x.toExponential(4);
  if (Number.isInteger(x) && a < 1e5) return x.toFixed(0) + ".";
  return x.toFixed(4);
}

/** Numbers of one tensor in a shared format, as PyTorch prints them: `1.` when all are whole,
 *  else 4 decimals each (0.0000), or scientific for all when the magnitudes are extreme. */
export function formatValues(xs: number[]): string[] {
  const fin = xs.filter((x) => Number.isFinite(x));
  if (fin.every((x) => Number.isInteger(x) && Math.abs(x) < 1e8)) return xs.map((x) => (Number.isFinite(x) ? `${x.toFixed(0)}.` : formatNumber(x)));
  const big = Math.max(0, ...fin.map(Math.abs)), small = Math.min(Infinity, ...fin.filter((x) => x !== 0).map(Math.abs));
  const sci = big >= 1e8 || small < 1e-4 || big / small >= 1000;
  // PyTorch writes two exponent digits (1.0000e-05)
  const exp = (x: number): string => x.toExponential(4).replace(/e([+-])(\d)$/, "e$10$2");
  return xs.map((x) => (!Number.isFinite(x) ? formatNumber(x) : sci ? exp(x) : x.toFixed(4)));
}

export function formatShape(shape: number[]): string {
  return `[${shape.join(", ")}]`;
}

/** Five significant digits; scientific outside [1e-4, 1e6) so tiny norms stay short. */
export function shortNumber(x: number): string {
  if (!Number.isFinite(x)) return formatNumber(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-4 || a >= 1e6) ? x.toExponential(3) : fmt.format(x);
}

/** Stats of a value, computed from inline values on first use and kept. */
export function statsOf(v: Value): Stats | null {
  if (!v.stats && v.flat) v.stats = computeStats(v.flat);
  return v.stats;
}

/** Row-major values written as nested lists: [[1., 2.], [3., 4.]]. */
function nested(flat: string[], shape: number[], dim: number, at: number): string {
  const n = shape[dim] ?? 1;
  const step = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(dim === shape.length - 1 ? (flat[at + i] as string) : nested(flat, shape, dim + 1, at + i * step));
  }
  return `[${parts.join(", ")}]`;
}

/** Values at most this many are written out on edges and in lists. */
const BRIEF_MAX = 4;

/** A one-line summary used on edges and in lists: the values of a tiny tensor as PyTorch
 *  prints them ([0., 0., 1.]), else its shape and L2 norm. */
export function summary(v: Value): string {
  const z = v.complex;
  if (z && !v.sampled && z.re.length > 0 && z.re.length <= BRIEF_MAX) {
    const text = formatComplex(z);
    return v.shape.length === 0 ? (text[0] as string) : nested(text, v.shape, 0, 0);
  }
  if (z) return `${formatShape(v.shape)} ${v.dtype || "complex"}`;
  const flat = v.flat;
  if (flat && flat.length > 0 && flat.length <= BRIEF_MAX) {
    return v.shape.length === 0 ? formatNumber(flat[0] as number) : nested(formatValues(flat), v.shape, 0, 0);
  }
  const norm = statsOf(v)?.norm;
  return `${formatShape(v.shape)}${norm !== undefined && !Number.isNaN(norm) ? ` norm ${shortNumber(norm)}` : ""}`;
}

/** True when every element arrived (inline values), not only a summary. */
export function hasAllValues(v: Value): boolean {
  return v.flat !== null || (v.complex != null && !v.sampled);
}

/** The scalar of a one-element value, else null. */
export function scalarOf(v: Value): number | null {
  return v.flat && v.flat.length === 1 ? (v.flat[0] ?? null) : null;
}
