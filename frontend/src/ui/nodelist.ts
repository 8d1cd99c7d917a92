// The node list: a searchable, keyboard-reachable text view of the graph (the accessible view).
import type { RunState, Vertex } from "../model/types";
import { formatNumber, scalarOf, summary } from "../model/value";
import { h } from "./dom";
import { vertexOrder } from "../model/reduce";
import { hookTitle, hooksOn, shortName } from "../render/scene";
import type { HookInfo } from "../model/types";

/** "hook", "2 hooks", "hook fired" (firing now), "hook ×3" (fired three times so far). */
function hookBadge(hooks: (HookInfo & { firing: boolean })[]): string {
  if (hooks.some((x) => x.firing)) return "hook fired";
  const n = hooks.reduce((a, x) => a + x.fired, 0);
  return `${hooks.length > 1 ? `${hooks.length} hooks` : "hook"}${n ? ` ×${n}` : ""}`;
}

const LIMIT = 200;

function gradText(s: RunState, v: Vertex): string {
  const g = v.tensor !== null ? s.grads.get(v.tensor) : undefined;
  if (!g || v.kind === "accumulate") return "";
  const x = scalarOf(g);
  return x !== null ? `grad ${formatNumber(x)}` : `grad ${summary(g)}`;
}

function stateText(s: RunState, v: Vertex): string {
  const st = s.nodeState.get(v.id);
  if (s.current === v.id) return "running";
  return st ?? "";
}

/** Render matching vertices (the current step's entry is always included). */
export function renderNodeList(ul: HTMLElement, s: RunState, filter: string, selected: string | null, onPick: (id: string) => void): void {
  const f = filter.trim().toLowerCase();
  const match = (v: Vertex): boolean => !f || v.name.toLowerCase().includes(f) || v.label.toLowerCase().includes(f) || String(v.line ?? "") === f;
  const items: HTMLElement[] = [];
  let shown = 0, total = 0;
  for (const id of vertexOrder(s)) {
    const v = s.vertices.get(id);
    if (!v || !match(v)) continue;
    total += 1;
    if (shown >= LIMIT && id !== s.current && id !== selected) continue;
    shown += 1;
    const st = stateText(s, v);
    const name = v.kind === "fn" || v.kind === "accumulate" ? shortName(v.name) : v.label || v.name;
    const attrs: Record<string, string> = {
      class: `nl-item kind-${v.kind}${st ? ` st-${st}` : ""}${selected === id ? " selected" : ""}`,
      "data-node-name": name, "data-node-id": id, role: "option", tabindex: "-1",
      "aria-selected": selected === id ? "true" : "false",
    };
    if (s.current === id) attrs["aria-current"] = "step";
    const hooks = hooksOn(s, v);
    if (hooks.length) attrs["data-hook"] = hooks.some((x) => x.firing) ? "fired" : "idle";
    const dep = s.deps.get(id);
    const li = h("li", attrs,
      h("span", { class: "nl-dot" }),
      h("span", { class: "nl-name" }, name),
      v.label && (v.kind === "fn") ? h("span", { class: "nl-label" }, v.label) : null,
      h("span", { class: "nl-grad" }, gradText(s, v)),
      dep !== undefined && s.inBackward ? h("span", { class: "nl-dep", title: "dependencies left" }, `deps ${dep}`) : null,
      hooks.length ? h("span", { class: "nl-hook", title: hooks.map(hookTitle).join("\n") }, hookBadge(hooks)) : null,
      st ? h("span", { class: "nl-state" }, st) : null,
      v.line !== null ? h("span", { class: "nl-line" }, `L${v.line}`) : null,
    );
    li.addEventListener("click", () => onPick(id));
    items.push(li);
  }
  if (total > shown) items.push(h("li", { class: "nl-more" }, `${total - shown} more — refine the filter`));
  ul.replaceChildren(...items);
}
