// What the reducer folds for the truthful panels: cut points and why .grad is None, module hooks
// placed on their module's ops, chunked full values, same-named nodes told apart.
import { describe, expect, it } from "vitest";
import { applyEvent, emptyState, vertexOrder } from "../src/model/reduce";
import { leafUse, whyGradNone } from "../src/model/gradnone";
import { distinctTitles } from "../src/model/naming";
import type { RunState, TensorInfo } from "../src/model/types";
import type { WireEvent } from "../src/wire";
import { ev, tensorInfo, val } from "./events";

const base = { run_id: "r", t: 0 };

function fold(events: WireEvent[]): RunState {
  const s = emptyState();
  for (const e of events) applyEvent(s, e);
  return s;
}

const tensor = (s: RunState, id: number): TensorInfo => s.tensors.get(String(id)) as TensorInfo;
const reason = (s: RunState, id: number): string | undefined => whyGradNone(s, tensor(s, id), leafUse(s))?.code;

describe("cut points", () => {
  // u = tensor(requires_grad); v = u.detach() (line 3); with no_grad: n = u * 2 (line 5)
  const events: WireEvent[] = [
    ev.runStarted(0),
    ev.tensor(1, tensorInfo(0, { requires_grad: true, name: "u", line: 2 })),
    ev.tensor(2, tensorInfo(1, { name: "v", line: 3 })),
    { ...base, seq: 3, type: "cut", kind: "detach", tensor: 0, output: 1, line: 3 },
    ev.untracked(4, { name: "MulBackward0", inputs: [0], outputs: [tensorInfo(2, { name: "n", line: 5 })], line: 5 }),
    { ...base, seq: 5, type: "requires_grad_set", tensor: 0, requires_grad: false, line: 6 },
  ];

  it("each is a cut vertex hanging off its input, named by its output", () => {
    const s = fold(events);
    // in the order they were made (a map's own order is by id)
    const cuts = vertexOrder(s).map((id) => s.vertices.get(id)).filter((v) => v?.kind === "cut");
    expect(cuts.map((v) => [v?.name, v?.label, v?.line, v?.edges.map((e) => e.to)])).toEqual([
      ["detach()", "v", 3, ["t0"]],
      ["MulBackward0 · no_grad", "n", 5, ["t0"]],
      ["requires_grad_(False)", "u", 6, ["t0"]],
    ]);
    // the named output is drawn once, as its cut
    expect(s.vertices.has("t1")).toBe(false);
  });

  it("tell why their outputs have no .grad, with the line", () => {
    const s = fold(events);
    expect(whyGradNone(s, tensor(s, 1))?.text).toMatch(/\.detach\(\) at line 3/);
    expect(reason(s, 2)).toBe("no_grad");
    expect(reason(s, 0)).toBe("requires_grad_false");
  });

  it("a leaf read only under no_grad is not unused", () => {
    const s = fold([...events.slice(0, 1), events[1] as WireEvent, events[4] as WireEvent, ev.backwardStarted(6), ev.backwardFinished(7)]);
    expect(reason(s, 0)).toBe("only_untracked");
  });
});

describe("why .grad is None", () => {
  it("names zero_grad with its line, and a later accumulation clears the note", () => {
    const s = fold([
      ev.runStarted(0),
      ev.tensor(1, tensorInfo(0, { requires_grad: true, name: "w" })),
      ev.backwardStarted(2),
      ev.gradAccumulated(3, 0, val([1, 1])),
      ev.backwardFinished(4),
      { ...base, seq: 5, type: "grad_changed", tensor: 0, how: "set_to_none", value: null, line: 9 },
    ]);
    expect(whyGradNone(s, tensor(s, 0))?.text).toBe(".grad was cleared at line 9 by zero_grad() (set_to_none=True)");
    applyEvent(s, ev.gradAccumulated(6, 0, val([2, 2])));
    expect(whyGradNone(s, tensor(s, 0))).toBeNull();
  });

  it("says backward has not run, then that a later tensor was made after it", () => {
    const s = fold([ev.runStarted(0), ev.tensor(1, tensorInfo(0, { requires_grad: true, name: "a" }))]);
    expect(reason(s, 0)).toBe("not_run");
    applyEvent(s, ev.backwardStarted(2));
    applyEvent(s, ev.backwardFinished(3));
    applyEvent(s, ev.tensor(4, tensorInfo(1, { requires_grad: true, name: "late", line: 7 })));
    expect(whyGradNone(s, tensor(s, 1))?.text).toBe("no backward has run since it was made at line 7");
    expect(reason(s, 0)).toBe("unused");
  });
});

describe("module hooks", () => {
  const node = (seq: number, id: number, path: string): WireEvent => ev.node(seq, { id, name: "AddmmBackward0", module_path: path, line: 4 });
  const hook = (seq: number, id: number, kind: "module_forward_pre" | "module_forward"): WireEvent => ({
    ...base, seq, type: "hook_registered", hook: id, kind, target_kind: "module", target: null, fn: "<lambda>", line: 3, module_type: "Linear", module_path: null,
  });
  const fired = (seq: number, id: number, kind: "module_forward_pre" | "module_forward"): WireEvent => ev.hookFired(seq, { hook: id, kind, backward: null, module_path: "Net.fc" });

  it("a pre-hook lands on its call's first op, a forward hook on its last, each counted once", () => {
    const s = fold([
      ev.runStarted(0), hook(1, 0, "module_forward_pre"), hook(2, 1, "module_forward"),
      fired(3, 0, "module_forward_pre"), node(4, 10, "Net.fc"), node(5, 11, "Net.fc"), fired(6, 1, "module_forward"),
    ]);
    expect(s.hooks.get("0")).toMatchObject({ target: "10", fired: 1, module: "Net.fc" });
    expect(s.hooks.get("1")).toMatchObject({ target: "11", fired: 1 });
    // outside backward: the forward firings list, not the backward pass's
    expect(s.firings).toEqual([]);
    expect(s.forwardFirings.map((f) => f.hook)).toEqual(["0", "1"]);
    // an outer module's last op is its submodules' last op
    expect(s.lastNodeOf.get("Net")).toBe("11");
  });
});

describe("tensor_values chunks", () => {
  it("are joined into the version current when they arrive", () => {
    const summary = { shape: [4], dtype: "float32", stats: { min: 0, max: 3, mean: 1.5, std: 1.29 }, nan: 0, inf: 0 };
    const chunk = (seq: number, offset: number, values: number[], last: boolean): WireEvent => ({
      ...base, seq, type: "tensor_values", tensor_id: 0, shape: [4], dtype: "float32", offset, total: 4, values, last,
    });
    const s = fold([ev.runStarted(0), ev.tensor(1, tensorInfo(0, { value: summary, name: "w" })), chunk(2, 0, [0, 1], false)]);
    expect(tensor(s, 0).value?.flat).toBeNull();
    applyEvent(s, chunk(3, 2, [2, 3], true));
    expect(tensor(s, 0).value?.flat).toEqual([0, 1, 2, 3]);
    expect(s.valueChunks.size).toBe(0);
  });
});

describe("distinctTitles", () => {
  it("tells same-named nodes apart by their output, else their line, else an index", () => {
    const s = fold([
      ev.runStarted(0),
      ev.node(1, { id: 1, name: "SumBackward0", line: 3, outputs: [tensorInfo(10, { name: "a", grad_fn: 1, is_leaf: false })] }),
      ev.node(2, { id: 2, name: "SumBackward0", line: 4, outputs: [tensorInfo(11, { name: "b", grad_fn: 2, is_leaf: false })] }),
      ev.node(3, { id: 3, name: "MulBackward0", line: 5 }),
      ev.node(4, { id: 4, name: "MulBackward0", line: 6 }),
      ev.node(5, { id: 5, name: "ExpBackward0", line: 7 }),
      ev.node(6, { id: 6, name: "ExpBackward0", line: 7 }),
    ]);
    const t = distinctTitles(s, ["1", "2", "3", "4", "5", "6"]);
    expect([...t.values()]).toEqual(["SumBackward0 (a)", "SumBackward0 (b)", "MulBackward0 L5", "MulBackward0 L6", "ExpBackward0 #1", "ExpBackward0 #2"]);
    expect(distinctTitles(s, ["1", "3"]).get("1")).toBe("SumBackward0");
  });
});
