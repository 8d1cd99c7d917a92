// The panels around the graph: status, controls, timeline, node list, inspector, console, error.
import type { App } from "../app";
import type { HookInfo, RunState } from "../model/types";
import { download, toJSON, toPNG, toSVG } from "../export";
import { fetchExamples } from "../net";
import { byId, h } from "./dom";
import { renderInspector } from "./inspector";
import { listedIds, nodeRow, TwinCount, type Listed } from "./nodelist";
import { VirtualList } from "./virtuallist";
import type { ViewState } from "../view/state";
import { iterationCount } from "../view/model";
import { drawStrip } from "./strip";
import { inplaceBlameLine } from "../model/blame";
import { eventText, firingAt, freedByLine, pauseReason, queuePosition, splitTraceback } from "../model/explain";
import { errorHint, errorWhere } from "../model/failure";
import { distinctTitles } from "../model/naming";
import { hookTitle, shortName } from "../render/scene";
import { bindInput } from "./input";
import { bindBreakpoints } from "./breakpoints";
import { engineBadge } from "./engine";

/** A hook in a few words for the firing list: "tensor hook L31", "module backward hook L24". */
function shortHook(hk: HookInfo): string {
  // nn.Module full backward hooks run as hooks on BackwardHookFunctionBackward nodes
  const kind = hk.fn.startsWith("BackwardHook.") ? "module backward hook"
    : ({ tensor: "tensor hook", node_pre: "pre-hook", node_post: "node hook", post_accumulate: "post-accumulate hook",
      module_forward_pre: "forward pre-hook", module_forward: "forward hook", module_backward_pre: "module backward pre-hook",
      module_backward: "module backward hook" } as Record<string, string>)[hk.kind] ?? `${hk.kind} hook`;
  const fn = hk.fn && hk.fn !== "<lambda>" && !hk.fn.startsWith("BackwardHook.") ? ` ${hk.fn}` : "";
  return `${kind}${fn}${hk.line !== null ? ` L${hk.line}` : ""}`;
}

/** stderr text with the library frames of a traceback folded ("3 frames inside torch"), so
 *  the snippet's own lines and the error stay in view. */
function traceback(text: string): HTMLElement {
  const out = h("span", { class: "stderr" });
  for (const [chunk, lib] of splitTraceback(text)) {
    if (!lib) {
      out.append(chunk);
      continue;
    }
    const n = (chunk.match(/^ {2}File /gm) ?? []).length;
    out.append(h("details", { class: "tb-lib" }, h("summary", {}, `  … ${n} frame${n === 1 ? "" : "s"} inside torch`), chunk));
  }
  return out;
}

/** What a firing hook sits on, in the user's words: the tensor's name (a tensor hook), the
 *  module (a module backward hook), else the node's name. */
function hookPlace(s: RunState, hk: HookInfo, node: string | null): string {
  if (hk.module) return hk.module;
  const t = hk.target.startsWith("t") ? s.tensors.get(hk.target.slice(1)) : undefined;
  if (t?.name) return t.name;
  const v = node !== null ? s.vertices.get(node) : undefined;
  if (!v) return "";
  return hk.fn.startsWith("BackwardHook.") && v.module ? v.module : shortName(v.name);
}

/** Height of a node-list row (style.css .nl-item). */
const ROW_H = 22;
/** How often the heavier panels refresh while a run streams in. */
const SLOW_MS = 250;

export class Panels {
  private app: App;
  private list: VirtualList;
  private listed: Listed = { ids: [], unusedFrom: 0, use: null, nth: new Map(), count: new TwinCount() };
  private listedKey = "";
  private listKey = "";
  private slowAt = 0;
  private slowerAt = 0;
  private slowTimer = 0;
  private inspKey = "";
  private markKey = "";
  private consoleLen = -1;
  private statusExtra = "";
  private listCurrent: string | null = null;

  constructor(app: App) {
    this.app = app;
    bindInput(app);
    bindBreakpoints(app);
    this.list = new VirtualList(byId("node-list"), ROW_H);
    byId("filter").addEventListener("input", (e) => app.dispatch({ type: "filter", text: (e.target as HTMLInputElement).value }));
    byId("iter-prev").addEventListener("click", () => this.stepIteration(-1));
    byId("iter-next").addEventListener("click", () => this.stepIteration(1));
    byId("iter-follow").addEventListener("click", () => app.dispatch({ type: "setIteration", iteration: null }));
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
    if (!this.app.editor.code && !this.app.editor.touched && examples[0] && !new URLSearchParams(location.search).get("run")) {
      // first visit: the first seed example is loaded, ready to run (unless the user has begun
      // on the editor before the list arrived: cleared it to paste, say)
      this.app.editor.code = examples[0].code;
      sel.value = examples[0].id;
    }
  }

  private share(): void {
    const id = this.app.log.state().runId;
    if (!id) return this.status("run something first to share it");
    // a link made while stepping back in time reopens the run at that step
    const log = this.app.log;
    const query = `?run=${id}${log.following ? "" : `&at=${log.cursor}`}`;
    const url = `${location.origin}/${query}`;
    history.replaceState(null, "", `/${query}`);
    const box = byId<HTMLInputElement>("share-url");
    box.value = url;
    box.hidden = false;
    box.select();
    void navigator.clipboard?.writeText(url).catch(() => undefined);
  }

  /** While a stored log is read (App.render draws nothing else meanwhile). */
  reading(events: number): void {
    byId("status").textContent = `${events} events · reading the run…`;
    byId("first-hint").hidden = true;
  }

  status(extra: string): void {
    this.statusExtra = extra;
    this.app.schedule();
  }

  private stepIteration(d: number): void {
    const cur = this.app.shownIteration;
    if (cur === null) return;
    const n = iterationCount(this.app.log.index);
    this.app.dispatch({ type: "setIteration", iteration: Math.max(0, Math.min(n - 1, cur + d)) });
  }

  /** The iteration selector of a folded training loop: "iteration 2 / 3". */
  private iterations(view: ViewState): void {
    const it = this.app.shownIteration;
    const bar = byId("iterations");
    bar.hidden = it === null;
    if (it === null) return;
    const n = iterationCount(this.app.log.index);
    byId("iter-label").textContent = `iteration ${it + 1} / ${n}`;
    byId<HTMLButtonElement>("iter-prev").disabled = it <= 0;
    byId<HTMLButtonElement>("iter-next").disabled = it >= n - 1;
    const follow = byId<HTMLButtonElement>("iter-follow");
    follow.hidden = view.iteration === null;
  }

  /** The node list: a virtualised view of the matching vertices (rows built only in sight). */
  private nodeList(s: RunState, view: ViewState): void {
    const lkey = `${s.orderLen}|${s.backwards}|${view.filter}`;
    if (lkey !== this.listedKey || s.order !== this.listedOrder) {
      this.listedKey = lkey;
      this.listedOrder = s.order;
      this.listed = listedIds(s, view.filter, this.listed);
    }
    const { ids, use, nth } = this.listed;
    const key = `${s.seq}|${s.current}|${view.selected}|${s.vertices.size}|${ids.length}`;
    // the rows are rebuilt on a new key; a later repaint (a scroll, a resize of the list) builds
    // them from this state, the one every other panel shows, never from an older one
    this.list.set(ids.length, key, (i) => {
      const id = ids[i] as string;
      const v = s.vertices.get(id);
      return v ? nodeRow(s, v, view.selected, (x) => this.app.select(x, true), use, nth.get(id)) : document.createElement("li");
    });
    if (key === this.listKey) return;
    this.listKey = key;
    // stepping moves the current entry: keep it in sight in a long list
    if (s.current !== this.listCurrent && s.current !== null) {
      const i = ids.indexOf(s.current);
      if (i >= 0) this.list.reveal(i);
    }
    this.listCurrent = s.current;
  }
  private listedOrder: string[] | null = null;

  update(s: RunState, view: ViewState): void {
    const log = this.app.log;
    const cur = s.current ? s.vertices.get(s.current) : undefined;
    const head = log.length ? log.stateAt(log.length - 1) : s;
    // while a run streams in with the cursor following it, the heavier panels (strip, queue,
    // node list, inspector) refresh a few times a second, not every frame
    const now = performance.now();
    const streaming = head.status === "running" && log.following;
    const slow = !streaming || now - this.slowAt >= SLOW_MS;
    if (slow) this.slowAt = now;
    if (!slow) {
      // a stream that goes quiet still gets its panels brought up to date
      if (!this.slowTimer) this.slowTimer = window.setTimeout(() => ((this.slowTimer = 0), this.app.schedule()), SLOW_MS);
      return;
    }
    // both sandbox workers busy (say, two tabs paused in backward): say the run waits
    const waiting = head.status === "running" && log.length < 4 ? queuePosition(log.events) : 0;
    const where = head.status === "paused" ? `paused${head.pauseReason ? ` (${head.pauseReason})` : ""}`
      : waiting > 0 ? `queued: waiting for a free worker${waiting > 1 ? ` (${waiting - 1} ahead)` : ""}` : head.status;
    // the node backward is at is named by the queue panel; the status line stays short enough
    // for a narrow header (the title has all of it)
    const text = `${log.length} events · cursor ${log.cursor + 1}/${log.length} · ${where}${this.statusExtra ? ` · ${this.statusExtra}` : ""}`;
    byId("status").textContent = text;
    byId("status").title = `${text}${cur ? ` · at ${shortName(cur.name)}` : ""}`;
    byId("status").dataset.state = head.status;
    engineBadge(byId("engine"), head);
    const tl = byId<HTMLInputElement>("timeline");
    tl.max = String(log.length - 1);
    tl.value = String(log.cursor);
    const ev = log.events[log.cursor];
    const detail = ev ? eventText(s, ev) : "";
    byId("tl-label").textContent = ev ? `#${log.cursor} ${ev.type}${detail ? ` · ${detail}` : ""}` : "start";
    byId("first-hint").hidden = log.length > 0 || this.statusExtra !== "";
    this.controls(s);
    this.error(s);
    this.pauseNote(s);
    this.replayHint(s, head, view);
    this.consoleView(s);
    this.iterations(view);
    // the strip, the queue, the node list and the inspector follow a stream once a second
    // (they cost the most)
    const slower = !streaming || now - this.slowerAt >= 4 * SLOW_MS;
    if (!slower) {
      if (!this.slowTimer) this.slowTimer = window.setTimeout(() => ((this.slowTimer = 0), this.app.schedule()), this.slowerAt + 4 * SLOW_MS - now);
      return;
    }
    this.slowerAt = now;
    drawStrip(byId<HTMLCanvasElement>("strip"), log.events, log.cursor);
    this.queue(s);
    this.nodeList(s, view);
    const app = this.app;
    const full = [...app.fullValues.values()].map((x) => (x === null ? "0" : "1")).join("");
    const ikey = `${s.seq}|${view.selected}|${s.current}|${full}|${app.valuesAvailable()}`;
    if (ikey !== this.inspKey) {
      this.inspKey = ikey;
      // with nothing selected the inspector follows the node backward is at (or failed in)
      const id = view.selected ?? s.current ?? s.error?.node ?? null;
      const v = id ? (s.vertices.get(id) ?? null) : null;
      renderInspector(byId("inspector"), s, v, {
        following: !view.selected && v !== null,
        failed: !view.selected && !s.current && v !== null,
        onLine: (line) => app.editor.mark([line], null),
        full: (tid) => app.fullValues.get(tid),
        canLoad: app.valuesAvailable(),
        load: (tid) => app.requestValues(tid),
        versions: (tid) => head.versionLog.get(tid),
        seek: (seq) => app.seek(seq),
      });
    }
    this.marks(s, view);
  }

  private controls(s: RunState): void {
    const log = this.app.log;
    const head = log.length ? log.stateAt(log.length - 1) : s;
    const canStep = log.nextStop() !== null || head.status === "paused";
    byId<HTMLButtonElement>("step").disabled = !canStep;
    byId<HTMLButtonElement>("step-back").disabled = log.cursor <= 0;
    byId<HTMLButtonElement>("continue").disabled = !canStep && log.following;
    byId<HTMLButtonElement>("pause").disabled = head.status !== "running";
    byId<HTMLButtonElement>("stop").disabled = head.status !== "running" && head.status !== "paused";
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
    // nodes listed together that share a name are told apart (by output, line or index)
    const deps8 = [...s.deps.entries()].slice(0, 8);
    const titles = distinctTitles(s, [...(s.current ? [s.current] : []), ...s.readyQueue, ...deps8.map(([id]) => id)]);
    const name = (id: string): string => titles.get(id) ?? id;
    const deps = deps8.map(([id, n]) => `${name(id)}: ${n}`);
    const cur = s.current ? s.nodeState.get(s.current) : undefined;
    const doing = cur === "done" || cur === "freed" ? "finished " : "running ";
    q.replaceChildren(...[
      h("div", {}, h("b", {}, doing), s.current ? name(s.current) : "—"),
      h("div", {}, h("b", {}, "ready queue "), s.readyQueue.length ? s.readyQueue.map(name).join(", ") : "empty"),
      deps.length ? h("div", {}, h("b", {}, "dependencies "), deps.join(" · ")) : null,
      this.firings(s),
    ].filter((x): x is HTMLDivElement => x !== null)
    );
  }

  /** The hooks this backward pass has fired so far, in order; the one at the cursor lit. */
  private firings(s: RunState): HTMLDivElement | null {
    const all = s.firings;
    if (!all.length) return null;
    const now = firingAt(s);
    const shown = all.slice(-6);
    const items = shown.map((f, i) => {
      const hk = s.hooks.get(f.hook);
      const on = hk ? hookPlace(s, hk, f.node) : "";
      const text = `${all.length - shown.length + i + 1}. ${hk ? shortHook(hk) : `hook ${f.hook}`}${on ? ` on ${on}` : ""}`;
      return h("span", { class: `firing${i === shown.length - 1 && now === f.hook ? " now" : ""}`, title: hk ? hookTitle(hk) : "" }, text);
    });
    return h("div", { class: "firings", "data-testid": "hook-firings" }, h("b", {}, "hooks fired "), ...items);
  }

  private error(s: RunState): void {
    const el = byId("error");
    const e = s.error;
    if (!e) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    // rebuilt only when the error or the run changes (not on every frame: text stays selectable)
    const key = `${s.runId}|${e.seq}|${s.status}|${s.vertices.size > 0}`;
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    const blame = this.blameLine(s);
    el.replaceChildren(
      h("div", { class: "err-title" }, h("b", {}, e.kind), ": ", e.message),
      h("div", { class: "err-where", "data-testid": "error-where" }, errorWhere(s, blame)),
      h("div", { class: "err-hint" }, errorHint(s, blame)),
      this.freedHint(s) ?? "",
    );
    el.dataset.line = String(blame ?? e.anomalyLine ?? e.line ?? "");
  }

  /** The second-backward error: name the earlier call that freed the graph. */
  private freedHint(s: RunState): HTMLDivElement | null {
    const line = freedByLine(s);
    if (line === null) return null;
    return h("div", { class: "err-fix", "data-testid": "error-fix" },
      `The backward call at line ${line} already freed this graph's saved tensors (the dashed nodes). Pass retain_graph=True to that call to backward through the graph again.`);
  }

  /** Why the run is paused (a breakpoint, a NaN gradient, the Pause button), above the graph. */
  private pauseNote(s: RunState): void {
    const el = byId("pause-note");
    const why = pauseReason(s);
    el.hidden = why === null;
    if (!why) return;
    const key = `${why.title}|${why.detail}`;
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    el.replaceChildren(h("b", {}, why.title), h("div", { class: "note" }, why.detail));
  }

  /** After a finished run the cursor is at the end: say how to replay backward step by step. */
  private replayHint(s: RunState, head: RunState, view: ViewState): void {
    const log = this.app.log;
    const done = head.status === "ok" && log.backwardStart() >= 0 && log.following && s.seq === log.length - 1;
    const el = byId("replay-hint");
    const hidden = !done || view.replayed;
    if (el.hidden !== hidden) el.hidden = hidden;
  }

  blameLine(s: RunState): number | null {
    return inplaceBlameLine(s);
  }

  private consoleView(s: RunState): void {
    if (s.console.length === this.consoleLen) return;
    this.consoleLen = s.console.length;
    const el = byId("console");
    el.replaceChildren(...s.console.map((c) => (c.stream === "stderr" ? traceback(c.text) : h("span", { class: c.stream }, c.text))));
    el.scrollTop = el.scrollHeight;
  }

  private marks(s: RunState, view: ViewState): void {
    const v = view.selected ? s.vertices.get(view.selected) : undefined;
    const cur = s.current ? s.vertices.get(s.current) : undefined;
    const firing = firingAt(s);
    const hk = firing !== null ? s.hooks.get(firing) : undefined;
    const selected = [v?.line, hk?.line, cur?.line].filter((x): x is number => typeof x === "number");
    const err = s.error ? (this.blameLine(s) ?? s.error.anomalyLine ?? s.error.line) : null;
    if (s.error?.line != null && err !== s.error.line) selected.push(s.error.line);
    const freed = freedByLine(s);
    if (freed !== null) selected.push(freed);
    const key = `${selected.join(",")}|${err}`;
    if (key === this.markKey) return;
    this.markKey = key;
    this.app.editor.mark(selected, err);
  }
}
