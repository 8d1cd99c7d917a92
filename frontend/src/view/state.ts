// The page's UI state as data: selection, breakpoints, which modules are open, which iteration
// of a training loop is drawn, the viewport, the node filter. Every change is an action applied
// by `reduceView` (xyflow's way); the panels and the canvas render from (run state, view state).

export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export interface ViewState {
  selected: string | null;
  breakLines: readonly number[];
  /** Node breakpoints by vertex id. */
  breakNodes: readonly string[];
  /** Op-name breakpoints (MulBackward0) and the break-on-NaN-gradient switch. */
  breakOps: readonly string[];
  breakNaN: boolean;
  /** Modules the user opened (false) or shut (true), by path; others follow the default. */
  collapse: Readonly<Record<string, boolean>>;
  /** The training-loop iteration drawn, or null to follow the run (the latest, or the one
   *  backward is stepping through). */
  iteration: number | null;
  viewport: Viewport;
  /** Set once the user pans or zooms; until then the view keeps fitting the growing graph. */
  userMoved: boolean;
  filter: string;
  legend: boolean;
  /** Set once the user moves back in time in this run (the replay hint has done its job). */
  replayed: boolean;
}

export type ViewAction =
  | { type: "newRun" }
  | { type: "select"; id: string | null }
  | { type: "toggleBreakLine"; line: number }
  | { type: "toggleBreakNode"; id: string }
  | { type: "setOpBreakpoints"; ops: readonly string[]; onNaN: boolean }
  | { type: "clearBreakpoints" }
  | { type: "setCollapsed"; paths: readonly string[]; collapsed: boolean }
  | { type: "resetCollapse" }
  | { type: "setIteration"; iteration: number | null }
  | { type: "pan"; dx: number; dy: number }
  | { type: "zoomAt"; sx: number; sy: number; factor: number; min?: number }
  | { type: "fitted"; viewport: Viewport }
  | { type: "refit" }
  | { type: "filter"; text: string }
  | { type: "legend"; shown: boolean }
  | { type: "replayed" };

export const MAX_ZOOM = 4;

export function initialView(legend = true): ViewState {
  return {
    selected: null, breakLines: [], breakNodes: [], breakOps: [], breakNaN: false, collapse: {},
    iteration: null, viewport: { x: 40, y: 40, k: 1 }, userMoved: false, filter: "", legend, replayed: false,
  };
}

function toggled<T>(xs: readonly T[], x: T): T[] {
  return xs.includes(x) ? xs.filter((y) => y !== x) : [...xs, x];
}

/** The one place view state changes. Unchanged state is returned as is (same object). */
export function reduceView(v: ViewState, a: ViewAction): ViewState {
  switch (a.type) {
    case "newRun":
      // breakpoints and the legend belong to the user, not to a run
      return { ...v, selected: null, collapse: {}, iteration: null, userMoved: false, replayed: false };
    case "select":
      return v.selected === a.id ? v : { ...v, selected: a.id };
    case "toggleBreakLine":
      return { ...v, breakLines: toggled(v.breakLines, a.line).sort((x, y) => x - y) };
    case "toggleBreakNode":
      return { ...v, breakNodes: toggled(v.breakNodes, a.id) };
    case "setOpBreakpoints": {
      const ops = [...new Set(a.ops.map((o) => o.trim()).filter(Boolean))];
      return { ...v, breakOps: ops, breakNaN: a.onNaN };
    }
    case "clearBreakpoints":
      return { ...v, breakLines: [], breakNodes: [], breakOps: [], breakNaN: false };
    case "setCollapsed": {
      const collapse = { ...v.collapse };
      for (const p of a.paths) collapse[p] = a.collapsed;
      return { ...v, collapse };
    }
    case "resetCollapse":
      return { ...v, collapse: {} };
    case "setIteration":
      return v.iteration === a.iteration ? v : { ...v, iteration: a.iteration };
    case "pan":
      return { ...v, userMoved: true, viewport: { ...v.viewport, x: v.viewport.x + a.dx, y: v.viewport.y + a.dy } };
    case "zoomAt": {
      const { x, y, k } = v.viewport;
      const nk = Math.min(MAX_ZOOM, Math.max(a.min ?? 0.001, k * a.factor));
      // the world point under (sx, sy) stays there
      const wx = (a.sx - x) / k, wy = (a.sy - y) / k;
      return { ...v, userMoved: true, viewport: { k: nk, x: a.sx - wx * nk, y: a.sy - wy * nk } };
    }
    case "fitted":
      return { ...v, viewport: a.viewport };
    case "refit":
      return { ...v, userMoved: false };
    case "filter":
      return v.filter === a.text ? v : { ...v, filter: a.text };
    case "legend":
      return v.legend === a.shown ? v : { ...v, legend: a.shown };
    case "replayed":
      return v.replayed ? v : { ...v, replayed: true };
  }
}
