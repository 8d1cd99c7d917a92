// The view reducer: every UI change is an action; unchanged state comes back as the same object.
import { describe, expect, it } from "vitest";
import { initialView, reduceView, type ViewAction, type ViewState } from "../src/view/state";

const run = (actions: ViewAction[], v: ViewState = initialView()): ViewState => actions.reduce(reduceView, v);

describe("reduceView", () => {
  it("selects and returns the same state when nothing changes", () => {
    const v = run([{ type: "select", id: "3" }]);
    expect(v.selected).toBe("3");
    expect(reduceView(v, { type: "select", id: "3" })).toBe(v);
    expect(reduceView(v, { type: "setIteration", iteration: null })).toBe(v);
  });

  it("toggles line and node breakpoints, keeps lines sorted, clears all", () => {
    const v = run([{ type: "toggleBreakLine", line: 9 }, { type: "toggleBreakLine", line: 3 }, { type: "toggleBreakNode", id: "7" }]);
    expect(v.breakLines).toEqual([3, 9]);
    expect(v.breakNodes).toEqual(["7"]);
    expect(run([{ type: "toggleBreakLine", line: 9 }], v).breakLines).toEqual([3]);
    const ops = run([{ type: "setOpBreakpoints", ops: [" MulBackward0", "", "MulBackward0"], onNaN: true }], v);
    expect(ops.breakOps).toEqual(["MulBackward0"]);
    expect(ops.breakNaN).toBe(true);
    const cleared = run([{ type: "clearBreakpoints" }], ops);
    expect([cleared.breakLines, cleared.breakNodes, cleared.breakOps, cleared.breakNaN]).toEqual([[], [], [], false]);
  });

  it("a new run forgets selection, collapse, iteration and the user's pan, not breakpoints", () => {
    const v = run([
      { type: "toggleBreakLine", line: 4 }, { type: "select", id: "1" }, { type: "setCollapsed", paths: ["Net.fc"], collapsed: false },
      { type: "setIteration", iteration: 2 }, { type: "pan", dx: 5, dy: 0 }, { type: "legend", shown: false }, { type: "newRun" },
    ]);
    expect(v.selected).toBeNull();
    expect(v.collapse).toEqual({});
    expect(v.iteration).toBeNull();
    expect(v.userMoved).toBe(false);
    expect(v.breakLines).toEqual([4]);
    expect(v.legend).toBe(false);
  });

  it("records opened and shut modules; reset goes back to the default", () => {
    const v = run([{ type: "setCollapsed", paths: ["A.b", "A.c"], collapsed: false }, { type: "setCollapsed", paths: ["A.c"], collapsed: true }]);
    expect(v.collapse).toEqual({ "A.b": false, "A.c": true });
    expect(run([{ type: "resetCollapse" }], v).collapse).toEqual({});
  });

  it("zooms about a point (the world point under it stays), within the limits", () => {
    const v = run([{ type: "fitted", viewport: { x: 10, y: 20, k: 1 } }]);
    const z = run([{ type: "zoomAt", sx: 100, sy: 50, factor: 2 }], v);
    expect(z.viewport.k).toBe(2);
    // world (90, 30) was at screen (100, 50) and still is
    expect(90 * z.viewport.k + z.viewport.x).toBeCloseTo(100);
    expect(30 * z.viewport.k + z.viewport.y).toBeCloseTo(50);
    expect(z.userMoved).toBe(true);
    expect(run([{ type: "zoomAt", sx: 0, sy: 0, factor: 1e-6, min: 0.3 }], v).viewport.k).toBe(0.3);
    expect(run([{ type: "zoomAt", sx: 0, sy: 0, factor: 1e6 }], v).viewport.k).toBe(4);
  });

  it("a pan moves the view and marks it moved by the user; refit clears that", () => {
    const v = run([{ type: "pan", dx: 7, dy: -3 }]);
    expect(v.viewport).toEqual({ x: 47, y: 37, k: 1 });
    expect(v.userMoved).toBe(true);
    expect(run([{ type: "refit" }], v).userMoved).toBe(false);
    // a fit sets the viewport without counting as the user's move
    expect(run([{ type: "fitted", viewport: { x: 0, y: 0, k: 0.5 } }]).userMoved).toBe(false);
  });
});
