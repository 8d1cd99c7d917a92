// Buttons, keyboard shortcuts, and mouse on the canvas (pan, zoom, select, breakpoint).
import type { App } from "../app";
import { byId } from "./dom";
import { hookTitle, hooksOn, shortName, vertexTitle } from "../render/scene";
import { formatNumber, formatShape, summary } from "../model/value";

function typing(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || !!t.closest(".cm-editor"));
}

/** Hovering a vertex shows its name and, once backward reached it, the gradients it sent. */
function hover(app: App, cv: HTMLCanvasElement, e: PointerEvent): void {
  const r = cv.getBoundingClientRect();
  const id = app.canvas.hitTest(app.scene(), app.view.viewport, e.clientX - r.left, e.clientY - r.top).vertex;
  const s = app.log.state();
  const v = id ? s.vertices.get(id) : undefined;
  if (!v) {
    cv.title = "";
    return;
  }
  const grads = v.edges.map((edge, i) => {
    const g = s.edgeGrads.get(`${v.id}>${i}`);
    const to = s.vertices.get(edge.to);
    return g ? `\n→ ${to ? shortName(to.name) : edge.to}: ${summary(g)}${g.flat && g.flat.length <= 8 ? ` ${g.flat.map(formatNumber).join(", ")}` : ""}` : "";
  });
  let out = "";
  if (v.kind === "fn" && v.label) {
    // the non-leaf tensor drawn as the pill inside this node's box
    const t = [...s.tensors.values()].find((x) => x.gradFn === v.id);
    if (t) out = `\n${v.label}: non-leaf tensor ${formatShape(t.shape)} ${t.dtype}, requires_grad`;
  }
  const hooks = hooksOn(s, v).map((x) => `\n${hookTitle(x)}${x.fired ? ` · fired ${x.fired}×` : ""}`);
  cv.title = `${vertexTitle(v)}${v.line !== null ? ` (line ${v.line})` : ""}${out}${grads.join("")}${hooks.join("")}`;
}

/** Show or hide the legend (remembered); an untouched view refits to the space it frees. */
function toggleLegend(app: App): void {
  const shown = !app.view.legend;
  localStorage.setItem("backscope.legend", shown ? "shown" : "hidden");
  app.dispatch({ type: "legend", shown });
}

/** Zoom about a screen point, never further out than a little past the whole graph. */
function zoom(app: App, sx: number, sy: number, factor: number): void {
  app.dispatch({ type: "zoomAt", sx, sy, factor, min: app.minZoom() });
}

export function bindInput(app: App): void {
  const click = (id: string, fn: () => void): void => byId(id).addEventListener("click", fn);
  click("run", () => app.run());
  click("step", () => app.step());
  click("step-back", () => app.stepBack());
  click("continue", () => app.continue());
  click("pause", () => app.pause());
  // a runaway run (`while True: pass`) ends now instead of at its time limit, its graph kept
  click("stop", () => {
    const st = app.log.length ? app.log.stateAt(app.log.length - 1).status : null;
    if (st === "running" || st === "paused") app.send({ type: "stop" });
  });
  click("restart", () => app.restart());
  click("fit", () => app.dispatch({ type: "refit" }));
  click("legend-toggle", () => toggleLegend(app));
  byId("legend").hidden = !app.view.legend;
  byId("legend-toggle").setAttribute("aria-pressed", String(app.view.legend));
  const hideNote = (): void => {
    byId("big-note").hidden = true;
  };
  const mid = (): [number, number] => [app.canvas.size.w / 2, app.canvas.size.h / 2];
  click("zoom-in", () => zoom(app, ...mid(), 1.25));
  click("zoom-out", () => (hideNote(), zoom(app, ...mid(), 0.8)));
  click("expand-all", () => app.expandAll(true));
  click("collapse-all", () => app.expandAll(false));

  window.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      app.run();
      return;
    }
    // debugger keys (as in browser devtools) work from the editor too
    const fkey: Record<string, () => void> = { F10: () => (e.shiftKey ? app.stepBack() : app.step()), F8: () => app.continue() };
    if (fkey[e.key] && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      (fkey[e.key] as () => void)();
      return;
    }
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const keys: Record<string, () => void> = {
      ArrowRight: () => app.step(), ArrowLeft: () => app.stepBack(), c: () => app.continue(),
      p: () => app.pause(), r: () => app.restart(), f: () => app.dispatch({ type: "refit" }), l: () => toggleLegend(app),
      Home: () => app.seek(-1), End: () => app.seek(app.log.length - 1),
      "[": () => app.seek(app.log.cursor - 1), "]": () => app.seek(app.log.cursor + 1),
      b: () => app.selected && app.toggleBreakNode(app.selected),
      "/": () => byId("filter").focus(), Escape: () => (app.toggleHelp(false), app.select(null)),
      "?": () => app.toggleHelp(),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      fn();
    }
  });

  const cv = app.canvas.el;
  let drag: { x: number; y: number; moved: boolean } | null = null;
  cv.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, moved: false };
    if (cv.isConnected && e.isTrusted) cv.setPointerCapture(e.pointerId);
  });
  cv.addEventListener("pointermove", (e) => {
    if (!drag) return hover(app, cv, e);
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (drag.moved) {
      drag.x = e.clientX;
      drag.y = e.clientY;
      app.dispatch({ type: "pan", dx, dy });
    }
  });
  cv.addEventListener("pointerup", (e) => {
    const d = drag;
    drag = null;
    if (!d || d.moved) return;
    const r = cv.getBoundingClientRect();
    const hit = app.canvas.hitTest(app.scene(), app.view.viewport, e.clientX - r.left, e.clientY - r.top);
    if (hit.module) app.toggleModule(hit.module);
    else if (hit.vertex && e.shiftKey) app.toggleBreakNode(hit.vertex);
    else app.select(hit.vertex ?? null);
  });
  cv.addEventListener("dblclick", (e) => {
    const r = cv.getBoundingClientRect();
    const hit = app.canvas.hitTest(app.scene(), app.view.viewport, e.clientX - r.left, e.clientY - r.top);
    if (hit.vertex) app.toggleBreakNode(hit.vertex);
  });
  cv.addEventListener("wheel", (e) => {
    e.preventDefault();
    hideNote();
    const r = cv.getBoundingClientRect();
    zoom(app, e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });
}
