// The typed message union between the page and the layout worker.
import type { GraphOptions, GraphOutput, RawItem } from "./graphview";

export type ToLayout =
  | { type: "reset"; epoch: number; options: GraphOptions }
  | { type: "add"; epoch: number; items: RawItem[]; modules: [string, number][]; flush: boolean }
  | { type: "options"; epoch: number; options: GraphOptions }
  /** Vertices the worker has, described again (a wider label): laid out anew with them. */
  | { type: "revise"; epoch: number; items: RawItem[]; modules: [string, number][] };

/** Placements for the page; `layout` counts full layouts of this run (a `replace` bumps it),
 *  `seen` the vertices the worker has been told about so far, `why` the message answered. */
export type FromLayout = { type: "placed"; epoch: number; layout: number; seen: number; ms: number; why: "add" | "options" | "revise" } & GraphOutput;
