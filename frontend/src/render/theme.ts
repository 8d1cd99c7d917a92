// Colours shared by the canvas renderer, the SVG export and the legend (CSS mirrors them).
import type { NodeRunState, VertexKind } from "../model/types";

/** The font vertex labels are drawn (and measured) in. */
export const FONT = "12px Inter, system-ui, sans-serif";

export const THEME = {
  bg: "#0f1218",
  grid: "#161a22",
  text: "#dde3ee",
  muted: "#8a94a8",
  edge: "#465066",
  edgeGrad: "#5fd0ff",
  current: "#37d5ff",
  ready: "#37d5ff",
  stale: "#ff6b6b",
  error: "#ff5c5c",
  hook: "#b58cff",
  hookFired: "#ffd24a",
  selected: "#ffffff",
  module: "#1b2130",
  moduleStroke: "#34406a",
  nonLeafFill: "#2a2416",
  nonLeafStroke: "#c9a35a",
  nonLeafText: "#f5d9a0",
};

export const KIND_COLORS: Record<VertexKind, { fill: string; stroke: string }> = {
  fn: { fill: "#1b2740", stroke: "#5b8def" },
  accumulate: { fill: "#163126", stroke: "#3fbf86" },
  leaf: { fill: "#3a2d12", stroke: "#f0a93a" },
  const: { fill: "#23262e", stroke: "#6b7385" },
  cut: { fill: "#2f1b29", stroke: "#d86a8e" },
};

export const FREED = { fill: "#15171c", stroke: "#4a5060", text: "#8a90a0" };

export function vertexColors(kind: VertexKind, state: NodeRunState | undefined): { fill: string; stroke: string; text: string } {
  if (state === "freed") return FREED;
  const c = KIND_COLORS[kind];
  return { fill: c.fill, stroke: c.stroke, text: THEME.text };
}
