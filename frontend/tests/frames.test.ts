import { describe, expect, it } from "vitest";
import { FrameReader } from "../src/net";

const enc = new TextEncoder();

function framed(texts: string[]): Uint8Array {
  const parts = texts.map((t) => {
    const body = enc.encode(t);
    const head = enc.encode(`${body.length}\n`);
    const out = new Uint8Array(head.length + body.length);
    out.set(head);
    out.set(body, head.length);
    return out;
  });
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (all.set(p, at), (at += p.length));
  return all;
}

describe("a stored log's frames", () => {
  const texts = ['[{"seq":0,"text":"é\\n"}]', "[]", `[${'{"seq":1},'.repeat(300)}{"seq":2}]`];
  const bytes = framed(texts);

  it("come out whole however the bytes are cut", () => {
    for (const cut of [1, 2, 3, 7, 64, 1000, bytes.length]) {
      const r = new FrameReader();
      const out: string[] = [];
      for (let i = 0; i < bytes.length; i += cut) out.push(...r.push(bytes.subarray(i, i + cut)));
      expect(out).toEqual(texts);
      expect(r.empty).toBe(true);
    }
  });

  it("say when a frame was cut short", () => {
    const r = new FrameReader();
    expect(r.push(bytes.subarray(0, bytes.length - 1))).toEqual(texts.slice(0, 2));
    expect(r.empty).toBe(false);
  });

  it("refuse a header that is not a length", () => {
    expect(() => new FrameReader().push(enc.encode("x12\n[]"))).toThrow();
  });
});
