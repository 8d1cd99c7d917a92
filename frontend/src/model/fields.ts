// Tolerant readers for wire fields: ids may arrive as numbers or strings, optional fields may
// be absent. Kept in one place so the generated protocol types can tighten them later.

export type Obj = Record<string, unknown>;

// Fixed arity (no rest arrays): these run several times per event.
export function pick(o: Obj, a: string, b?: string, c?: string, d?: string): unknown {
  const va = o[a];
  if (va !== undefined && va !== null) return va;
  if (b === undefined) return undefined;
  const vb = o[b];
  if (vb !== undefined && vb !== null) return vb;
  if (c === undefined) return undefined;
  const vc = o[c];
  if (vc !== undefined && vc !== null) return vc;
  return d === undefined ? undefined : (o[d] ?? undefined);
}

export function idOf(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (typeof v === "object" && v !== null) return idOf(pick(v as Obj, "id", "node", "node_id"));
  return null;
}

export function str(o: Obj, a: string, b?: string, c?: string): string {
  const v = pick(o, a, b, c);
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

export function num(o: Obj, a: string, b?: string, c?: string): number | null {
  const v = pick(o, a, b, c);
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function bool(o: Obj, a: string, b?: string, c?: string): boolean {
  return pick(o, a, b, c) === true;
}

export function list(o: Obj, a: string, b?: string, c?: string): unknown[] {
  const v = pick(o, a, b, c);
  return Array.isArray(v) ? v : [];
}

export function ids(o: Obj, a: string, b?: string, c?: string): string[] {
  const out: string[] = [];
  for (const v of list(o, a, b, c)) {
    const id = idOf(v);
    if (id !== null) out.push(id);
  }
  return out;
}

export function shapeOf(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((d): d is number => typeof d === "number") : [];
}

export function asObj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : null;
}
