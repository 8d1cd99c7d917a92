// Complex tensors: the wire sends each element as Python writes it ("1+3j", "-0.5-2e-05j",
// "nan+infj"), since JSON has no complex numbers; summaries of large ones carry no stats.
import { formatValues } from "./value";

export interface Complex {
  re: number[];
  im: number[];
}

function real(text: string): number {
  const t = text.toLowerCase();
  if (t === "nan" || t === "+nan" || t === "-nan") return NaN;
  if (t === "inf" || t === "+inf") return Infinity;
  if (t === "-inf") return -Infinity;
  return t === "" || t === "+" ? 1 : t === "-" ? -1 : Number(t);
}

/** One element: "a+bj", "a-bj", "bj" or a plain real; parentheses allowed. */
export function parseComplex(text: string): [number, number] {
  const t = text.trim().replace(/^\(|\)$/g, "");
  if (!t.endsWith("j")) return [real(t), 0];
  const body = t.slice(0, -1);
  // the sign that starts the imaginary part: not the first character, not an exponent's
  for (let i = body.length - 1; i > 0; i--) {
    const c = body[i];
    if ((c === "+" || c === "-") && !/[eE]/.test(body[i - 1] ?? "")) return [real(body.slice(0, i)), real(body.slice(i))];
  }
  return [0, real(body)];
}

/** The elements of a (nested) list of complex strings, row-major; null when any is not one. */
export function complexOf(data: unknown): Complex | null {
  const re: number[] = [], im: number[] = [];
  let ok = true;
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === "string") {
      const [a, b] = parseComplex(v);
      re.push(a);
      im.push(b);
    } else if (typeof v === "number") {
      re.push(v);
      im.push(0);
    } else ok = false;
  };
  walk(data);
  return ok && (re.length > 0 || Array.isArray(data)) ? { re, im } : null;
}

/** |z| of each element (heatmaps and histograms of complex tensors show magnitudes). */
export function magnitudes(z: Complex): number[] {
  return z.re.map((a, i) => Math.hypot(a, z.im[i] ?? 0));
}

/** As PyTorch prints them: real and imaginary parts each in their tensor-wide format
 *  (1.+3.j, 0.5000-2.0000j). */
export function formatComplex(z: Complex): string[] {
  const re = formatValues(z.re);
  const im = formatValues(z.im.map(Math.abs));
  return re.map((r, i) => `${r}${(z.im[i] ?? 0) < 0 || Object.is(z.im[i], -0) ? "-" : "+"}${im[i] ?? ""}j`);
}
