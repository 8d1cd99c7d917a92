import { describe, expect, it } from "vitest";
import { RunLog } from "../src/model/store";
import { listedIds, type Listed } from "../src/ui/nodelist";
import type { NodeEvent } from "../src/protocol";
import type { WireEvent } from "../src/wire";
import { fixture } from "./load";

const entries = (m: ReadonlyMap<string, number>): [string, number][] => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

describe("the node list's twin numbers", () => {
  // runs with loops (twins), names heard late (revised rows), modules and leaves
  for (const name of ["loop", "params", "mlp", "cnnloop", "encoder", "nested", "second"]) {
    it(`extended as ${name} grows, they are the numbers counted afresh`, () => {
      const log = new RunLog();
      let listed: Listed | null = null;
      let extended = 0;
      for (const ev of fixture(name)) {
        log.append([ev]);
        const s = log.state();
        const before: Listed | null = listed;
        listed = listedIds(s, "", before);
        if (before && listed.count === before.count) extended += 1;
        expect(entries(listed.nth)).toEqual(entries(listedIds(s, "").nth));
      }
      expect(extended).toBeGreaterThan(0);
    });
  }

  it("a state at an earlier cursor is counted afresh", () => {
    const log = new RunLog();
    log.append(fixture("loop"));
    const head = listedIds(log.state(), "");
    log.seek(Math.floor(log.length / 3));
    const back = listedIds(log.state(), "", head);
    expect(back.count).not.toBe(head.count);
    expect(entries(back.nth)).toEqual(entries(listedIds(log.state(), "").nth));
  });

  it("a row described again (a name heard later) is counted afresh", () => {
    const events = fixture("loop");
    const log = new RunLog();
    log.append(events);
    const before = listedIds(log.state(), "");
    const mul = events.find((e): e is NodeEvent & WireEvent => e.type === "node" && e.name === "MulBackward0");
    const out = mul?.outputs[0];
    if (!mul || !out) throw new Error("the loop fixture has a MulBackward0 with an output");
    // the first iteration's product gets a name: its row no longer reads like the other two
    log.append([{ type: "tensor", t: 0, run_id: mul.run_id, seq: log.length, tensor: { ...out, name: "sq" } } as WireEvent]);
    const after = listedIds(log.state(), "", before);
    // recounted where it changed, not over every vertex again
    expect(after.count).toBe(before.count);
    expect(entries(after.nth)).toEqual(entries(listedIds(log.state(), "").nth));
    expect(after.nth.get(String(mul.id))).toBeUndefined();
  });
});
