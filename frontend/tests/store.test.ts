import { describe, expect, it } from "vitest";
import { RunLog, SNAPSHOT_EVERY } from "../src/model/store";
import { applyEvent, emptyState, reduce, vertexOrder } from "../src/model/reduce";
import { inplaceBlameLine } from "../src/model/blame";
import type { RunState } from "../src/model/types";
import { scalarOf } from "../src/model/value";
import { hookTitle, hooksOn, shortName } from "../src/render/scene";
import { synthRun } from "../src/bench/synth";
import type { WireEvent } from "../src/wire";
import { fixture } from "./load";

function fold(events: WireEvent[], upto = events.length - 1): RunState {
  const s = emptyState();
  for (let i = 0; i <= upto; i++) applyEvent(s, events[i] as WireEvent);
  return s;
}

function byName(s: RunState, name: string) {
  return [...s.vertices.values()].filter((v) => shortName(v.name) === name || v.label === name);
}

function summary(s: RunState): unknown {
  return {
    seq: s.seq, order: vertexOrder(s), vertices: [...s.vertices.keys()], current: s.current,
    queue: s.readyQueue, states: [...s.nodeState.entries()], grads: [...s.grads.entries()],
    versions: [...s.versions.entries()], error: s.error?.message ?? null, console: s.console.length,
  };
}

describe("reducer on recorded runs", () => {
  it("builds the Exp Function graph and accumulates e into a.grad", () => {
    const s = fold(fixture("exp"));
    const [fn] = byName(s, "ExpBackward");
    const [acc] = byName(s, "AccumulateGrad");
    const [leaf] = byName(s, "a");
    expect(fn && acc && leaf).toBeTruthy();
    expect(fn?.edges.map((e) => e.to)).toEqual([acc?.id]);
    expect(acc?.edges.map((e) => e.to)).toEqual([leaf?.id]);
    // the exp run under no_grad inside forward is not left behind as a cut point
    expect([...s.vertices.values()].filter((v) => v.kind === "cut")).toEqual([]);
    const grad = s.grads.get(leaf?.tensor ?? "");
    expect(grad && scalarOf(grad)).toBeCloseTo(Math.E, 6);
    expect(s.status).toBe("ok");
    expect(s.console.map((c) => c.text).join("")).toContain("2.7183");
  });

  it("has no a.grad before the AccumulateGrad step (time travel back)", () => {
    const events = fixture("exp");
    const acc = events.findIndex((e) => e.type === "grad_accumulated");
    const before = fold(events, acc - 1);
    expect(before.grads.size).toBe(0);
    expect(fold(events, acc).grads.size).toBe(1);
  });

  it("shows .grad cleared by a post-accumulate hook (the fused optimizer step)", () => {
    const events = fixture("fused");
    const acc = events.findIndex((e) => e.type === "grad_accumulated");
    const [leaf] = byName(fold(events), "w");
    const tensor = leaf?.tensor ?? "";
    expect(tensor).not.toBe("");
    expect(fold(events, acc).grads.get(tensor)?.flat).toEqual([2, 4]);
    expect(fold(events).grads.has(tensor)).toBe(false);
  });

  it("flags the stale saved tensor and blames the in-place line", () => {
    const events = fixture("inplace");
    const s = fold(events);
    expect(s.error?.kind).toBe("RuntimeError");
    expect(s.error?.message).toMatch(/modified by an inplace operation/);
    // z.add_(1) is on line 6 of tests/fixtures/inplace.py
    expect(inplaceBlameLine(s)).toBe(6);
    const stale = [...s.vertices.values()].flatMap((v) => v.saved).filter((sv) => sv.tensor !== null && s.versions.get(sv.tensor) !== sv.versionAtSave);
    expect(stale.length).toBeGreaterThan(0);
  });

  it("marks freed buffers and reports the second-backward error", () => {
    const s = fold(fixture("second"));
    expect(s.error?.message).toMatch(/^Trying to backward through the graph a second time/);
    expect(s.error?.line).toBe(6);
    const mul = byName(s, "MulBackward0")[0];
    expect(mul && s.nodeState.get(mul.id)).toBe("freed");
  });

  it("lights a hook when it fires and only then", () => {
    const events = fixture("hook");
    const fired = events.findIndex((e) => e.type === "hook_fired");
    const at = fold(events, fired);
    const mul = byName(at, "MulBackward0")[0];
    expect(mul).toBeTruthy();
    if (!mul) return;
    const seen = (st: RunState): { firing: boolean; fired: number }[] => hooksOn(st, mul).map((x) => ({ firing: x.firing, fired: x.fired }));
    expect(seen(at)).toEqual([{ firing: true, fired: 1 }]);
    expect(seen(fold(events, fired - 1))).toEqual([{ firing: false, fired: 0 }]);
    // it stays lit while MulBackward0 runs and goes out when the next node starts
    expect(seen(fold(events, fired + 1))).toEqual([{ firing: true, fired: 1 }]);
    const nextEnter = events.findIndex((e, i) => i > fired && e.type === "node_enter");
    expect(seen(fold(events, nextEnter))).toEqual([{ firing: false, fired: 1 }]);
  });

  it("says what a hook is, where it was registered, and what it saw (hook.py line 5)", () => {
    const events = fixture("hook");
    const fired = events.findIndex((e) => e.type === "hook_fired");
    const at = fold(events, fired);
    const mul = byName(at, "MulBackward0")[0];
    if (!mul) throw new Error("no MulBackward0");
    const [hk] = hooksOn(at, mul);
    if (!hk) throw new Error("no hook");
    expect(hookTitle(hk)).toBe("tensor hook (Tensor.register_hook) · <lambda>, line 5");
    // the hook printed `hook saw tensor([ 6., 12., 18.])`: the gradient of y = x * 3 wrt y is 2y
    expect(hk.gradIn.map((g) => g.flat)).toEqual([[6, 12, 18]]);
    expect(hk.gradOut).toBeNull();
  });

  it("keeps module paths for nn.Module scopes", () => {
    const s = fold(fixture("mlp"));
    expect(s.modules).toEqual(expect.arrayContaining(["Sequential", "Sequential.0", "Sequential.1", "Sequential.2"]));
    const addmm = byName(s, "AddmmBackward0");
    expect(addmm.map((v) => v.module).sort()).toEqual(["Sequential.0", "Sequential.2"]);
  });

  it("points an anomaly error at the forward line of the failing node", () => {
    const s = fold(fixture("anomaly"));
    expect(s.error?.message).toMatch(/SqrtBackward0/);
    // y = x.sqrt() is on line 5 of tests/fixtures/anomaly.py
    expect(s.error?.anomalyLine).toBe(5);
  });

  it("is pure: reduce leaves its input untouched", () => {
    const events = fixture("hook");
    let s = emptyState();
    for (const ev of events) {
      const before = JSON.stringify(summary(s));
      const next = reduce(s, ev);
      expect(JSON.stringify(summary(s))).toBe(before);
      s = next;
    }
    expect(summary(s)).toEqual(summary(fold(events)));
  });
});

describe("RunLog: cursor, snapshots, stepping", () => {
  const events = synthRun(3000);

  it("seeks to any index with the same state as a fold from scratch", () => {
    const log = new RunLog();
    log.append(events);
    expect(events.length).toBeGreaterThan(3 * SNAPSHOT_EVERY);
    for (const k of [-1, 0, 5, SNAPSHOT_EVERY - 2, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY + 17, events.length - 2, events.length - 1]) {
      log.seek(k);
      expect(summary(log.state())).toEqual(summary(fold(events, k)));
    }
    // walking backwards reuses the last view without corrupting it
    log.seek(3 * SNAPSHOT_EVERY + 5);
    log.seek(3 * SNAPSHOT_EVERY + 1);
    expect(summary(log.state())).toEqual(summary(fold(events, 3 * SNAPSHOT_EVERY + 1)));
    log.seek(3 * SNAPSHOT_EVERY + 9);
    expect(summary(log.state())).toEqual(summary(fold(events, 3 * SNAPSHOT_EVERY + 9)));
  });

  it("drops events it already has (a resume may resend)", () => {
    const log = new RunLog();
    log.append(events.slice(0, 100));
    expect(log.append(events.slice(50, 150))).toBe(50);
    expect(log.length).toBe(150);
  });

  it("steps between node_enter/node_exit and back", () => {
    const log = new RunLog();
    log.append(fixture("exp"));
    log.seek(log.backwardStart());
    const stops: string[] = [];
    for (let next = log.nextStop(); next !== null; next = log.nextStop()) {
      log.seek(next);
      stops.push(`${log.events[next]?.type}:${log.state().current ?? "-"}`);
    }
    expect(stops).toEqual(["node_enter:1", "node_exit:1", "node_enter:0", "node_exit:0", "backward_finished:-"]);
    // a.grad is written while AccumulateGrad runs: there at its exit, gone at its enter
    const back = log.prevStop();
    log.seek(back);
    expect(log.events[back]?.type).toBe("node_exit");
    expect(log.state().grads.size).toBe(1);
    const enter = log.prevStop();
    log.seek(enter);
    expect(log.events[enter]?.type).toBe("node_enter");
    expect(log.state().grads.size).toBe(0);
  });

  it("keeps the state it handed out at a step's stop while the rest of the step arrives", () => {
    // a Step lands on a stop that came alone in its batch (the newest event), and the cursor
    // stays there when the next node's events arrive: the state read at the stop is the state
    // at the cursor still (a panel may hold it and paint from it later)
    const events = fixture("exp");
    const stop = events.findIndex((e) => e.type === "node_enter");
    const log = new RunLog();
    log.append(events.slice(0, stop + 1));
    log.seek(stop);
    log.following = false;
    const held = log.state();
    expect(held.current).toBe("1");
    log.append(events.slice(stop + 1));
    expect(log.cursor).toBe(stop);
    expect(summary(held)).toEqual(summary(fold(events, stop)));
    expect(summary(log.state())).toEqual(summary(fold(events, stop)));
    log.seek(log.length - 1);
    expect(summary(log.state())).toEqual(summary(fold(events)));
  });

  // its speed (100k events/s, a seek within 100 ms) is bench/bench_frontend.py's
  it("seeks anywhere in a 100k-event run to the state a fold from the start gives", () => {
    const big = synthRun(30000);
    expect(big.length).toBeGreaterThan(100000);
    const log = new RunLog();
    expect(log.append(big)).toBe(big.length);
    for (const k of [10, 40000, 77777, big.length - 5]) {
      log.seek(k);
      const s = log.state();
      const ref = fold(big, k);
      expect(s.seq).toBe(k);
      expect([s.vertices.size, s.tensors.size, s.grads.size, s.nodeState.size, s.current]).toEqual([ref.vertices.size, ref.tensors.size, ref.grads.size, ref.nodeState.size, ref.current]);
    }
  });
});

describe("parameters and non-leaf tensors", () => {
  it("names a parameter as named_parameters() does", () => {
    const s = fold(fixture("params"));
    const leaves = [...s.vertices.values()].filter((v) => v.kind === "leaf").map((v) => v.label).sort();
    expect(leaves).toEqual(["0.bias", "0.weight", "2.bias", "2.weight"]);
  });

  it("names an unnamed leaf after the module that first uses it, with its shape", () => {
    // the same run with the tracer's names taken out (a parameter no module registered)
    const unnamed = fixture("params").map((ev) =>
      ev.type === "tensor" ? ({ ...ev, tensor: { ...ev.tensor, name: null } } as WireEvent) : ev);
    const s = fold(unnamed);
    const leaves = [...s.vertices.values()].filter((v) => v.kind === "leaf").map((v) => v.label).sort();
    // nn.Linear(3, 4): weight 4×3 and bias 4; nn.Linear(4, 1): weight 1×4 and bias 1
    expect(leaves).toEqual(["Sequential.0 param 4", "Sequential.0 param 4×3", "Sequential.2 param 1", "Sequential.2 param 1×4"]);
  });

  it("labels the grad_fn of a named non-leaf tensor with the variable", () => {
    const s = fold(fixture("params"));
    expect(byName(s, "SumBackward0")[0]?.label).toBe("loss");
    expect(byName(s, "AddmmBackward0").map((v) => v.label)).toContain("h");
  });
});
