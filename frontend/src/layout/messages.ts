// The typed message union between the page and the layout worker. Items and placements
// travel packed in typed arrays that are moved, not copied (codec.ts).
import type { PackedItems, PackedPlaced } from "./codec";
import type { GraphOptions, GraphOutput, ModuleFrame } from "./graphview";

export type ToLayout =
  | { type: "reset"; epoch: number; options: GraphOptions }
  | { type: "add"; epoch: number; items: PackedItems; modules: [string, number][]; flush: boolean }
  | { type: "options"; epoch: number; options: GraphOptions }
  /** Vertices the worker has, described again (a wider label): laid out anew with them. */
  | { type: "revise"; epoch: number; items: PackedItems; modules: [string, number][] };

interface PlacedHeader {
  type: "placed";
  epoch: number;
  layout: number;
  seen: number;
  ms: number;
  why: "add" | "options" | "revise";
}

/** The worker's answer as it travels: placements and aliases packed, frames as they are. */
export type PlacedMessage = PlacedHeader & { replace: boolean; packed: PackedPlaced; frames: ModuleFrame[] };

/** Placements for the page; `layout` counts full layouts of this run (a `replace` bumps it),
 *  `seen` the vertices the worker has been told about so far, `why` the message answered. */
export type FromLayout = PlacedHeader & GraphOutput;
