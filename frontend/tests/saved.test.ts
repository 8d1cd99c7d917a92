// Saved-tensor hooks: which saved tensors a pack hook took (into what), and when backward
// unpacked each. Recorded runs: savedhooks.py (saved_tensors_hooks packing to an index) and
// saveoncpu.py (save_on_cpu, two backward passes, a grad_fn._saved_self read in between).
// And the leaves' .grad labels, which must not cut each other short.
import { describe, expect, it } from "vitest";
import { applyEvent, emptyState } from "../src/model/reduce";
import { savedEventText, savedHookText, unpackedNow } from "../src/model/saved";
import { RunLog } from "../src/model/store";
import type { RunState, Vertex } from "../src/model/types";
import type { WireEvent } from "../src/wire";
import { gradSlots } from "../src/render/decor";
import type { Placed } from "../src/layout/layered";
import { Placement } from "../src/layout/placement";
import type { Scene } from "../src/render/scene";
import { fixture } from "./load";

function stateAt(events: WireEvent[], upto: number): RunState {
  const s = emptyState();
  for (const ev of events.slice(0, upto + 1)) applyEvent(s, ev);
  return s;
}

/** The grad_fn vertex whose output is the named variable. */
function fnOf(s: RunState, label: string): Vertex {
  const v = [...s.vertices.values()].find((x) => x.kind === "fn" && x.label.split(", ").includes(label));
  if (!v) throw new Error(`no node for ${label}`);
  return v;
}

const hookText = (s: RunState, v: Vertex, name: string): string => {
  const sv = v.saved.find((x) => x.name === name);
  if (!sv) throw new Error(`no saved ${name}`);
  return savedHookText(s, v.id, sv)?.unpacked ?? "not hooked";
};

describe("saved_tensors_hooks (pack to an index)", () => {
  const events = fixture("savedhooks");
  const started = events.findIndex((e) => e.type === "backward_started");
  const unpacks = events.flatMap((e, i) => (e.type === "saved_unpack" ? [i] : []));

  it("marks what the pack hook took, into what type, and leaves the rest unhooked", () => {
    const s = stateAt(events, started);
    const y = fnOf(s, "y"), z = fnOf(s, "z");
    expect(y.saved.map((sv) => [sv.name, sv.hooked, sv.packedType])).toEqual([["self", true, "int"], ["other", true, "int"]]);
    expect(z.saved.map((sv) => [sv.name, sv.hooked, sv.packedType])).toEqual([["result", true, "int"]]);
    // loss = (z * x).sum() ran outside the with block: its MulBackward0 saved plainly
    const outer = [...s.vertices.values()].filter((v) => v.name === "MulBackward0" && v.id !== y.id);
    expect(outer).toHaveLength(1);
    expect(outer[0]?.saved.every((sv) => !sv.hooked && savedHookText(s, outer[0]?.id ?? "", sv) === null)).toBe(true);
    expect(hookText(stateAt(events, started - 1), y, "self")).toBe("not unpacked by backward (it has not run)");
    expect(hookText(s, y, "self")).toBe("not unpacked yet");
  });

  it("records each unpack at its step, inside the node that asked for it", () => {
    expect(unpacks).toHaveLength(3);
    const before = stateAt(events, (unpacks[0] as number) - 1);
    const z = fnOf(before, "z");
    expect(before.current).toBe(z.id);
    expect(hookText(before, z, "result")).toBe("not unpacked yet");
    const at = stateAt(events, unpacks[0] as number);
    expect(unpackedNow(at, z.id, "result")?.seq).toBe(unpacks[0]);
    const sv = z.saved[0];
    expect(sv && savedHookText(at, z.id, sv)).toEqual({ packed: "packed → int", unpacked: `unpacked at #${String(unpacks[0])}`, now: true });
    // y's node has not run yet
    expect(hookText(at, fnOf(at, "y"), "self")).toBe("not unpacked yet");
    // MulBackward0 asks for other before self (the order of its formula)
    const end = stateAt(events, events.length - 1);
    const y = fnOf(end, "y");
    expect(unpackedNow(end, y.id, "other")?.seq).toBe(unpacks[1]);
    expect(unpackedNow(end, y.id, "self")?.seq).toBe(unpacks[2]);
    expect(unpackedNow(end, y.id, "self")?.during).toBe(y.id);
    expect(hookText(end, y, "self")).toBe(`unpacked at #${String(unpacks[2])}`);
  });

  it("stops Step at each unpack and names it on the timeline", () => {
    const log = new RunLog();
    log.append(events);
    const enter = events.findIndex((e, i) => i > started && e.type === "node_enter" && log.stateAt(i).current === fnOf(log.stateAt(i), "z").id);
    expect(log.nextStop(enter)).toBe(unpacks[0]);
    expect(log.prevStop(unpacks[0])).toBe(enter);
    const ev = events[unpacks[1] as number] as WireEvent;
    expect(savedEventText(log.stateAt(unpacks[1] as number), ev)).toBe("other of MulBackward0");
    const pack = events.findIndex((e) => e.type === "saved_pack");
    expect(savedEventText(log.stateAt(pack), events[pack] as WireEvent)).toBe("self of MulBackward0 → int");
  });
});

describe("save_on_cpu across two backward passes", () => {
  const events = fixture("saveoncpu");
  const starts = events.flatMap((e, i) => (e.type === "backward_started" ? [i] : []));
  const unpacks = events.flatMap((e, i) => (e.type === "saved_unpack" ? [i] : []));

  it("packs into a tuple and counts a grad_fn._saved_self read outside backward", () => {
    expect(starts).toHaveLength(2);
    expect(unpacks).toHaveLength(3);
    const s = stateAt(events, unpacks[1] as number);
    const b = fnOf(s, "b");
    expect(b.saved[0]?.packedType).toBe("tuple");
    expect(hookText(s, b, "self")).toBe(`unpacked at #${String(unpacks[0])} · read at #${String(unpacks[1])} outside backward`);
    expect(s.unpacked.get(`${b.id}|self`)?.count).toBe(2);
  });

  it("starts each backward pass with nothing unpacked", () => {
    const s = stateAt(events, starts[1] as number);
    const b = fnOf(s, "b");
    expect(unpackedNow(s, b.id, "self")).toBeNull();
    expect(hookText(s, b, "self")).toBe(`not unpacked yet · read at #${String(unpacks[1])} outside backward`);
    const end = stateAt(events, events.length - 1);
    expect(unpackedNow(end, b.id, "self")?.seq).toBe(unpacks[2]);
    expect(end.unpacked.get(`${b.id}|self`)?.count).toBe(3);
    // stepping back before the second pass's unpack shows the state of that moment again
    expect(unpackedNow(stateAt(events, (unpacks[2] as number) - 1), b.id, "self")).toBeNull();
  });
});

const scene0 = (state: RunState): Scene => ({ state, place: new Placement(), selected: null, breakpoints: new Set(), moduleLabel: (key) => ({ title: key, shapes: "" }) });

describe(".grad labels of leaves side by side", () => {
  // savedhooks.py ends with x and w's .grad set; their labels sit above the leaves
  const s = stateAt(fixture("savedhooks"), fixture("savedhooks").length - 1);
  const leaves = [...s.vertices.values()].filter((v) => v.kind === "leaf");
  const ctx = { font: "", measureText: (t: string) => ({ width: t.length * 7 }) } as unknown as CanvasRenderingContext2D;
  const scene = (gap: number): [Vertex, Placed][] => leaves.map((v, i) => [v, { id: v.id, x: i * gap, y: 0, w: 60, h: 30, rank: 0 } as Placed]);

  it("lifts the left label a line when the next one would cut it, so neither is cut", () => {
    expect(leaves.map((v) => v.label)).toEqual(["x", "w"]);
    const shown = scene(90);
    const slots = gradSlots(ctx, scene0(s), shown);
    const [x, w] = leaves.map((v) => slots.get(v.id));
    expect(x?.lift).toBe(1);
    expect(w?.lift).toBe(0);
    for (const slot of [x, w]) expect((slot?.text.length ?? 0) * 7).toBeLessThanOrEqual(slot?.room ?? 0);
  });

  it("keeps both on one line when they fit", () => {
    const slots = gradSlots(ctx, scene0(s), scene(600));
    expect(leaves.map((v) => slots.get(v.id)?.lift)).toEqual([0, 0]);
  });
});
