// A run's view graph as the page builds it: events into the store, layout items into the
// worker's GraphView (called directly here), placements into a Placement.
import { GraphView, type GraphOptions, type ModuleFrame } from "../src/layout/graphview";
import { layoutItems } from "../src/layout/items";
import { Placement } from "../src/layout/placement";
import { RunLog } from "../src/model/store";
import type { RunState } from "../src/model/types";
import type { WireEvent } from "../src/wire";

export const measure = (text: string): number => text.length * 7;

export interface Laid {
  log: RunLog;
  s: RunState;
  view: GraphView;
  place: Placement;
  frames: ModuleFrame[];
  /** Re-lay out with other options (a collapse, another iteration). */
  relayout: (o: Partial<GraphOptions>) => Placement;
}

export function laidOut(events: WireEvent[], options: Partial<GraphOptions> = {}): Laid {
  const log = new RunLog();
  log.append(events);
  const s = log.state();
  const view = new GraphView();
  const opts: GraphOptions = { collapsed: [], iteration: null, backwardSeqs: log.index.backwardSeqs, ...options };
  const place = new Placement();
  let layout = 0;
  const apply = (p: Placement, out: ReturnType<GraphView["add"]>): void => p.apply({ type: "placed", epoch: 1, layout: out.replace ? ++layout : layout, seen: view.size, ms: 0, why: "add", ...out });
  apply(place, view.setOptions(opts));
  const { items, modules } = layoutItems(s, log.index, 0, measure, new Set(), (k) => 100 + k.length);
  apply(place, view.add(items, modules, true));
  const relayout = (o: Partial<GraphOptions>): Placement => {
    const p = new Placement();
    apply(p, view.setOptions({ ...opts, ...o }));
    return p;
  };
  return { log, s, view, place, frames: place.frames, relayout };
}
