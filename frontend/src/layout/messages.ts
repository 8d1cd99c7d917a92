// The typed message union between the page and the layout worker.
import type { LayoutItem, Placed } from "./layered";

export type ToLayout =
  | { type: "reset"; epoch: number }
  | { type: "add"; epoch: number; items: LayoutItem[]; flush: boolean };

export type FromLayout = { type: "placed"; epoch: number; items: Placed[]; ms: number };
