// The panels around the graph: status, controls, timeline, node list, inspector, console, error.
import type { App } from "../app";
import type { RunState } from "../model/types";
import { download, toJSON, toPNG, toSVG } from "../export";
import { fetchExamples } from "../net";
import { byId, h } from "./dom";
import { renderInspector } from "./inspector";
import { renderNodeList } from "./nodelist";
import { drawStrip } from "./strip";
import { inplaceBlameLine } from "../model/blame";
import { shortName } from "../render/scene";
import { bindInput } from "./input";
import { bindBreakpoints } from "./breakpoints";

/** Where to look after an error: only what is really there (a red node needs a node). */
function errorHint(hasNode: boolean, hasGraph: boolean): string {
  const marks = hasNode ? "the red node and the red line in the editor mark" : "the red line in the editor marks";
  const kept = hasGraph ? "The graph built before the error is kept: " : "";
  const text = `${kept}${marks} where it failed; the full traceback is in the console.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Panels {
  private app: App;
  private listKey = "";
  private inspKey = "";
  private markKey = "";
  private consoleLen = -1;
  private statusExtra = "";
  private listCurrent: string | null = null;

  constructor(app: App) {
    this.app = app;
    bindInput(app);
    bindBreakpoints(app);
    byId("filter").addEventListener("input", () => app.schedule());
    byId<HTMLInputElement>("timeline").addEventListener("input", (e) => app.seek(Number((e.target as HTMLInputElement).value)));
    byId("share").addEventListener("click", () => this.share());
    byId("export-svg").addEventListener("click", () => download("graph.svg", toSVG(app.scene()), "image/svg+xml"));
    byId("export-png").addEventListener("click", () => void toPNG(app.scene()).then((b) => b && download("graph.png", b)));
    byId("export-json").addEventListener("click", () => {
      const s = app.log.state();
      download(`run-${s.runId || "local"}.json`, toJSON(s.runId, app.editor.code, app.log.events), "application/json");
    });
    void this.loadExamples();
  }

  private async loadExamples(): Promise<void> {
    const sel = byId<HTMLSelectElement>("examples");
    const examples = await fetchExamples().catch(() => []);
    for (const ex of examples) sel.append(h("option", { value: ex.id }, ex.title));
    sel.addEventListener("change", () => {
      const ex = examples.find((x) => x.id === sel.value);
      if (ex) this.app.editor.code = ex.code;
    });
    // once the code is edited the menu no longer names what is in the editor
    this.app.editor.view.dom.addEventListener("input", () => {
      if (sel.value && examples.find((x) => x.id === sel.value)?.code !== this.app.editor.code) sel.value = "";
    });
    if (!this.app.editor.code && examples[0] && !new URLSearchParams(location.search).get("run")) {
      // first visit: the first seed example is loaded, ready to run
      this.app.editor.code = examples[0].code;
      sel.value = examples[0].id;
    }
  }

  private share(): void {
    const id = this.app.log.state().runId;
    if (!id) return this.status("run something first to share it");
    const url = `${location.origin}/?run=${id}`;
    history.replaceState(null, "", `/?run=${id}`);
    const box = byId<HTMLInputElement>("share-url");
    box.value = url;
    box.hidden = false;
    box.select();
    void navigator.clipboard?.writeText(url).catch(() => undefined);
  }

  status(extra: string): void {
    this.statusExtra = extra;
    this.app.schedule();
  }

  update(s: RunState): void {
    const log = this.app.log;
    const cur = s.current ? s.vertices.get(s.current) : undefined;
    const head = log.length ? log.stateAt(log.length - 1) : s;
    const where = head.status === "paused" ? `paused${head.pauseReason ? ` (${head.pauseReason})` : ""}` : head.status;
    byId("status").textContent = `${log.length} events · cursor ${log.cursor + 1}/${log.length} · ${where}${cur ? ` · at ${shortName(cur.name)}` : ""}${this.statusExtra ? ` · ${this.statusExtra}` : ""}`;
    byId("status").dataset.state = head.status;
    const tl = byId<HTMLInputElement>("timeline");
    tl.max = String(log.length - 1);
    tl.value = String(log.cursor);
    byId("tl-label").textContent = log.cursor >= 0 ? `#${log.cursor} ${log.events[log.cursor]?.type ?? ""}` : "start";
    drawStrip(byId<HTMLCanvasElement>("strip"), log.events, log.cursor);
    byId("first-hint").hidden = log.length > 0 || this.statusExtra !== "";
    this.controls(s);
    this.queue(s);
    this.error(s);
    this.consoleView(s);
    const filter = byId<HTMLInputElement>("filter").value;
    const key = `${s.seq}|${filter}|${this.app.selected}|${s.vertices.size}`;
    if (key !== this.listKey) {
      this.listKey = key;
      renderNodeList(byId("node-list"), s, filter, this.app.selected, (id) => this.app.select(id, true));
      // stepping moves the current entry: keep it in sight in a long list
      if (s.current !== this.listCurrent) byId("node-list").querySelector('[aria-current="step"]')?.scrollIntoView({ block: "nearest" });
      this.listCurrent = s.current;
    }
    const app = this.app;
    const full = [...app.fullValues.values()].map((x) => (x === null ? "0" : "1")).join("");
    const ikey = `${s.seq}|${app.selected}|${s.current}|${full}|${app.valuesAvailable()}`;
    if (ikey !== this.inspKey) {
      this.inspKey = ikey;
      // with nothing selected the inspector follows the node backward is at
      const id = app.selected ?? s.current;
      const v = id ? (s.vertices.get(id) ?? null) : null;
      renderInspector(byId("inspector"), s, v, {
        following: !app.selected && v !== null,
        onLine: (line) => app.editor.mark([line], null),
        full: (tid) => app.fullValues.get(tid),
        canLoad: app.valuesAvailable(),
        load: (tid) => app.requestValues(tid),
      });
    }
    this.marks(s);
  }

  private controls(s: RunState): void {
    const log = this.app.log;
    const head = log.length ? log.stateAt(log.length - 1) : s;
    const canStep = log.nextStop() !== null || head.status === "paused";
    byId<HTMLButtonElement>("step").disabled = !canStep;
    byId<HTMLButtonElement>("step-back").disabled = log.cursor <= 0;
    byId<HTMLButtonElement>("continue").disabled = !canStep && log.following;
    byId<HTMLButtonElement>("pause").disabled = head.status !== "running";
    byId<HTMLButtonElement>("restart").disabled = log.backwardStart() < 0;
    byId<HTMLButtonElement>("share").disabled = !s.runId;
    for (const id of ["export-svg", "export-png", "export-json"]) byId<HTMLButtonElement>(id).disabled = log.length === 0;
  }

  private queue(s: RunState): void {
    const q = byId("queue");
    if (!s.inBackward) {
      q.hidden = true;
      return;
    }
    q.hidden = false;
    const name = (id: string): string => shortName(s.vertices.get(id)?.name ?? id);
    const deps = [...s.deps.entries()].slice(0, 8).map(([id, n]) => `${name(id)}: ${n}`);
    q.replaceChildren(...[
      h("div", {}, h("b", {}, "running "), s.current ? name(s.current) : "—"),
      h("div", {}, h("b", {}, "ready queue "), s.readyQueue.length ? s.readyQueue.map(name).join(", ") : "empty"),
      deps.length ? h("div", {}, h("b", {}, "dependencies "), deps.join(" · ")) : null,
    ].filter((x): x is HTMLDivElement => x !== null)
    );
  }

  private error(s: RunState): void {
    const el = byId("error");
    const e = s.error;
    if (!e) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const blame = this.blameLine(s);
    const node = e.node !== null ? s.vertices.get(e.node) : undefined;
    el.replaceChildren(
      h("div", { class: "err-title" }, h("b", {}, e.kind), ": ", e.message),
      h("div", { class: "err-where" },
        e.line !== null ? `raised at line ${e.line}` : "",
        node ? ` · in ${shortName(node.name)}` : "",
        blame !== null ? ` · tensor modified in place at line ${blame}` : "",
        e.anomalyLine !== null ? ` · forward line ${e.anomalyLine} made the NaN` : ""),
      h("div", { class: "err-hint" }, errorHint(node !== undefined, s.vertices.size > 0)),
    );
    el.dataset.line = String(blame ?? e.anomalyLine ?? e.line ?? "");
  }

  blameLine(s: RunState): number | null {
    return inplaceBlameLine(s, this.app.log.events);
  }

  private consoleView(s: RunState): void {
    if (s.console.length === this.consoleLen) return;
    this.consoleLen = s.console.length;
    const el = byId("console");
    el.replaceChildren(...s.console.map((c) => h("span", { class: c.stream }, c.text)));
    el.scrollTop = el.scrollHeight;
  }

  private marks(s: RunState): void {
    const v = this.app.selected ? s.vertices.get(this.app.selected) : undefined;
    const cur = s.current ? s.vertices.get(s.current) : undefined;
    const selected = [v?.line, cur?.line].filter((x): x is number => typeof x === "number");
    const err = s.error ? (this.blameLine(s) ?? s.error.anomalyLine ?? s.error.line) : null;
    if (s.error?.line != null && err !== s.error.line) selected.push(s.error.line);
    const key = `${selected.join(",")}|${err}`;
    if (key === this.markKey) return;
    this.markKey = key;
    this.app.editor.mark(selected, err);
  }
}
