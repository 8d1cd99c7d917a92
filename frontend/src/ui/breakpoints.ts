// The breakpoints popover (op names, NaN gradients, a list of line/node breakpoints) and the
// keyboard help dialog.
import type { App } from "../app";
import { shortName } from "../render/scene";
import { byId, h } from "./dom";

/** Op names a user may want to break on: the run's node names, else common ones. */
function opNames(app: App): string[] {
  const names = new Set<string>();
  for (const v of app.log.state().vertices.values()) if (v.kind === "fn") names.add(shortName(v.name));
  if (names.size === 0) for (const n of ["MulBackward0", "AddBackward0", "MmBackward0", "SumBackward0", "ExpBackward0"]) names.add(n);
  return [...names].sort();
}

function refresh(app: App): void {
  const n = app.breakpointList().length;
  const badge = byId("bp-count");
  badge.hidden = n === 0;
  badge.textContent = String(n);
  const lines = [...app.breakLines].sort((a, b) => a - b).map((l) => `line ${l}`);
  const nodes = [...app.breakNodes].map((id) => shortName(app.log.state().vertices.get(id)?.name ?? id));
  const all = [...lines, ...nodes];
  byId("bp-lines").replaceChildren(all.length ? h("div", {}, `also: ${all.join(", ")}`) : "");
}

export function bindBreakpoints(app: App): void {
  const btn = byId("breakpoints"), pop = byId("bp-pop");
  const op = byId<HTMLInputElement>("break-op"), nan = byId<HTMLInputElement>("break-nan");
  const apply = (): void => {
    app.setOpBreakpoints(op.value.split(/[,\s]+/), nan.checked);
    refresh(app);
  };
  const show = (open: boolean): void => {
    pop.hidden = !open;
    btn.setAttribute("aria-expanded", String(open));
    if (!open) return;
    byId("op-names").replaceChildren(...opNames(app).map((n) => h("option", { value: n })));
    refresh(app);
    op.focus();
  };
  btn.addEventListener("click", () => show(pop.hidden));
  op.addEventListener("change", apply);
  op.addEventListener("keydown", (e) => {
    if (e.key === "Enter") (apply(), show(false));
    if (e.key === "Escape") show(false);
  });
  nan.addEventListener("change", apply);
  byId("bp-done").addEventListener("click", () => (apply(), show(false)));
  byId("bp-clear").addEventListener("click", () => {
    op.value = "";
    nan.checked = false;
    app.dispatch({ type: "clearBreakpoints" });
    apply();
  });
  document.addEventListener("pointerdown", (e) => {
    if (!pop.hidden && !(e.target as HTMLElement).closest(".bp-wrap")) (apply(), show(false));
  });
  app.onBreakpoints = () => refresh(app);

  const help = byId("help-dlg");
  const toggleHelp = (open?: boolean): void => {
    help.hidden = !(open ?? help.hidden);
  };
  byId("help").addEventListener("click", () => toggleHelp());
  app.toggleHelp = toggleHelp;
  help.addEventListener("pointerdown", () => toggleHelp(false));
}
