// A tensor's versions: the value at the cursor is the one its last version_bump carried, each
// version keeps the line that made it, and a seek back shows the older value again.
import { describe, expect, it } from "vitest";
import { applyEvent, emptyState } from "../src/model/reduce";
import { RunLog } from "../src/model/store";
import { inplaceBlameLine } from "../src/model/blame";
import { parseValue, statsOf } from "../src/model/value";
import type { WireEvent } from "../src/wire";
import { ev, tensorInfo, val } from "./events";

// w = torch.tensor([1., 2.], requires_grad=True) (line 2); w -= 0.5 * w.grad under no_grad
// (line 5) and again (line 6)
const run: WireEvent[] = [
  ev.runStarted(0),
  ev.tensor(1, tensorInfo(0, { requires_grad: true, name: "w", line: 2, value: val([1, 2]) })),
  ev.bump(2, 0, 1, val([0, 0]), 5),
  ev.bump(3, 0, 2, val([-1, -2]), 6),
  ev.runFinished(4),
];

describe("versions", () => {
  it("the tensor's value is the one its last version_bump carried", () => {
    const log = new RunLog();
    log.append(run);
    const t = log.state().tensors.get("0");
    expect(t?.version).toBe(2);
    expect(t?.value?.flat).toEqual([-1, -2]);
  });

  it("a seek shows the value of the version current at the cursor", () => {
    const log = new RunLog();
    log.append(run);
    const at = (i: number): number[] | null | undefined => log.stateAt(i).tensors.get("0")?.value?.flat;
    expect(at(1)).toEqual([1, 2]);
    expect(at(2)).toEqual([0, 0]);
    expect(at(3)).toEqual([-1, -2]);
  });

  it("each version keeps the line that made it and its value", () => {
    const s = emptyState();
    for (const e of run) applyEvent(s, e);
    const log = s.versionLog.get("0") ?? [];
    expect(log.map((x) => [x.version, x.line, x.value?.flat])).toEqual([[0, 2, [1, 2]], [1, 5, [0, 0]], [2, 6, [-1, -2]]]);
  });

  it("a write the counter does not count (apply_) changes the values at the same version", () => {
    // t = torch.tensor([1., 2.]) (line 2); t.apply_(lambda x: x * 10) (line 3): version 0 still
    const events: WireEvent[] = [
      ev.runStarted(0),
      ev.tensor(1, tensorInfo(0, { name: "t", line: 2, value: val([1, 2]) })),
      ev.bump(2, 0, 0, val([10, 20]), 3),
      ev.runFinished(3),
    ];
    const log = new RunLog();
    log.append(events);
    const at = (i: number) => log.stateAt(i).tensors.get("0");
    expect(at(1)?.value?.flat).toEqual([1, 2]);
    expect([at(2)?.version, at(2)?.value?.flat]).toEqual([0, [10, 20]]);
    const versions = log.state().versionLog.get("0") ?? [];
    expect(versions.map((x) => [x.version, x.line, x.value?.flat, x.uncounted ?? false])).toEqual([[0, 2, [1, 2], false], [0, 3, [10, 20], true]]);
  });

  it("the in-place blame comes from the version log (no scan of the events)", () => {
    const s = emptyState();
    for (const e of [
      ev.runStarted(0),
      ev.tensor(1, tensorInfo(0, { requires_grad: true, name: "x", value: val([1, 2]) })),
      ev.node(2, { id: 1, name: "ExpBackward0", saved: [{ name: "result", tensor: 2, version: 0 }], outputs: [tensorInfo(2, { grad_fn: 1, is_leaf: false, requires_grad: true })] }),
      ev.bump(3, 2, 1, val([5, 5]), 4),
      ev.error(4, { message: "one of the variables needed for gradient computation has been modified by an inplace operation", node: 1 }),
    ]) applyEvent(s, e);
    expect(inplaceBlameLine(s)).toBe(4);
  });
});

describe("NaN and Inf", () => {
  it("are counted beside the stats of the finite elements", () => {
    const v = parseValue(val(["nan", 2]));
    const st = v ? statsOf(v) : null;
    expect(st).toMatchObject({ min: 2, max: 2, nan: 1, inf: 0 });
    const w = parseValue(val(["inf", "-inf", 1, 3]));
    expect(w ? statsOf(w) : null).toMatchObject({ min: 1, max: 3, mean: 2, nan: 0, inf: 2 });
  });

  it("of a large tensor's summary are read from its counts", () => {
    const v = parseValue({ shape: [100], dtype: "float32", nan: 3, inf: 1, stats: { min: 0, max: 1, mean: 0.5, std: 0.1 } });
    expect(v?.stats).toMatchObject({ nan: 3, inf: 1, min: 0, max: 1 });
  });
});
