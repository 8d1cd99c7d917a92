// The page's wiring: server batches into the run log, view actions into the view reducer, the
// graph the view shows into the layout worker, and one render per frame from (run state, view
// state). Ingesting, laying out, drawing and listing are decoupled: events are applied in
// slices of a few milliseconds, the worker places what changed, and a frame draws only what is
// on screen and builds only the node-list rows in sight.
import { MODULE_PREFIX, pathOfKey } from "./layout/graphview";
import type { FromLayout } from "./layout/messages";
import { LayoutLink } from "./layout/link";
import type { Placement } from "./layout/placement";
import { RunLog } from "./model/store";
import type { RunState, Value } from "./model/types";
import { GraphCanvas, presentIn, TEXT_K } from "./render/canvas";
import { fitViewport, graphRect } from "./render/fit";
import { Overview, viewRect } from "./render/overview";
import type { Scene } from "./render/scene";
import { FONT } from "./render/theme";
import { Connection } from "./net";
import { RunOpener } from "./opener";
import type { Breakpoint, Command, TensorValues, WireEvent } from "./wire";
import { CodeEditor } from "./ui/editor";
import { byId } from "./ui/dom";
import { Panels } from "./ui/panels";
import { initialView, reduceView, type ViewAction, type ViewState } from "./view/state";

/** The largest code the server runs: its command frames are at most 2 MiB (the server's
 *  max_message_bytes), with room for the command around the code. */
const MAX_CODE_BYTES = 2 * 2 ** 20 - 64 * 1024;

export interface Metrics {
  lastEventAt: number;
  /** When a frame was first drawn with every event applied and every vertex placed (0 until
   *  then; reset by each batch). */
  firstFullFrameAt: number;
  layoutMs: number;
  layoutCalls: number;
  frameMs: number;
  applyMs: number;
}

/** How long a slice of applying events may run before the page gets the thread back (input,
 *  frames), and how many events of a large batch are applied between two looks at the clock. */
const SLICE_MS = 12;
const PART = 500;

/** Run `f` as a new task soon: unlike setTimeout(0), never clamped to 4 ms after a few
 *  nested calls (which left a third of a stored run's replay idle). */
const yieldThen = (() => {
  const ch = new MessageChannel();
  const waiting: (() => void)[] = [];
  ch.port1.onmessage = () => waiting.shift()?.();
  return (f: () => void): void => {
    waiting.push(f);
    ch.port2.postMessage(null);
  };
})();
/** How often an untouched view refits to a graph that is streaming in, and how often the graph
 *  is redrawn then. */
const FIT_EVERY_MS = 150;
const DRAW_EVERY_MS = 100;
/** How often new vertices go to the layout worker while events stream in. */
const LAYOUT_EVERY_MS = 100;
/** How often a frame follows what streamed in (the canvas itself redraws at DRAW_EVERY_MS). */
const FRAME_EVERY_MS = 50;
/** The same while a backlog waits to be applied (a stored log, a stream the page lags
 *  behind): its events get the thread, and a frame shows where it is a few times a second. */
const BACKLOG_FRAME_MS = 200;

export class App {
  log = new RunLog();
  // a small graph area keeps its room for the graph until the user asks for the legend
  view: ViewState = initialView(localStorage.getItem("backscope.legend") === "shown" || (localStorage.getItem("backscope.legend") === null && innerWidth * innerHeight >= 1600 * 900));
  readonly place: Placement;
  readonly layout: LayoutLink;
  /** Full values fetched with `tensor_values`, by tensor id; `null` while a request is out. */
  fullValues = new Map<string, Value | string | null>();
  readonly metrics: Metrics = { lastEventAt: 0, firstFullFrameAt: 0, layoutMs: 0, layoutCalls: 0, frameMs: 0, applyMs: 0 };
  readonly conn = new Connection();
  readonly canvas: GraphCanvas;
  readonly overview: Overview;
  readonly editor: CodeEditor;
  readonly panels: Panels;
  readonly opener = new RunOpener(this);
  /** True when the last fit shows a region of a graph too big to read whole. */
  partial = false;

  private pendingStep = false;
  private pendingCenter: string | null = null;
  private queue: WireEvent[][] = [];
  private pumping = false;
  private raf = 0;
  private fitSoon = false;
  private fitAt = 0;
  private fitTimer = 0;
  private drawnAt = 0;
  private drawTimer = 0;
  private drawnViewport: ViewState["viewport"] | null = null;
  private shownCurrent: string | null = null;
  private retries = 0;
  private breakSet = new Set<string>();

  constructor() {
    // a worker that fails (its script not loaded, an exception) leaves the graph undrawn: say so
    this.layout = new LayoutLink(() => this.log, this.measure, (m) => this.onPlaced(m), (why) => this.panels.status(`the graph cannot be laid out: ${why} (reload the page)`));
    this.place = this.layout.place;
    this.canvas = new GraphCanvas(byId<HTMLCanvasElement>("graph"));
    this.canvas.onResize = () => {
      // an error banner or a window resize changes the canvas: keep an untouched view fitted
      if (!this.view.userMoved) this.fitSoon = true;
      this.schedule();
    };
    this.overview = new Overview(byId<HTMLCanvasElement>("overview"));
    this.overview.onPick = (x, y) => {
      const { k } = this.view.viewport;
      this.dispatch({ type: "pan", dx: this.canvas.size.w / 2 - x * k - this.view.viewport.x, dy: this.canvas.size.h / 2 - y * k - this.view.viewport.y });
    };
    this.editor = new CodeEditor(byId("editor"), {
      onRun: () => this.run(),
      onToggleBreak: (line) => this.dispatch({ type: "toggleBreakLine", line }),
      onLineClick: (line) => this.selectLine(line),
    });
    this.panels = new Panels(this);
    this.conn.onEvents = (batch) => this.enqueue(batch);
    this.conn.onClose = () => this.reconnect();
    this.reset();
  }

  // -- view state ---------------------------------------------------------------------------
  /** Apply a view action; its effects (commands, layout, refit) follow from what changed. */
  dispatch(a: ViewAction): void {
    const before = this.view;
    this.view = reduceView(before, a);
    if (this.view === before) return;
    const v = this.view;
    if (v.breakLines !== before.breakLines || v.breakNodes !== before.breakNodes || v.breakOps !== before.breakOps || v.breakNaN !== before.breakNaN) {
      this.breakSet = new Set(v.breakNodes);
      this.onBreakpoints();
      this.editor.setBreakpoints([...v.breakLines]);
      const s = this.headState();
      if (s.status === "running" || s.status === "paused") this.send({ type: "set_breakpoints", breakpoints: this.breakpointList() });
    }
    if (v.legend !== before.legend) {
      byId("legend").hidden = !v.legend;
      byId("legend-toggle").setAttribute("aria-pressed", String(v.legend));
    }
    if (v.collapse !== before.collapse || v.iteration !== before.iteration) this.layout.sync(v);
    if (!v.userMoved && before.userMoved) this.fitSoon = true;
    this.schedule();
  }

  /** Where each drawn box is (vertices, collapsed modules), by id. */
  get pos(): ReadonlyMap<string, import("./layout/layered").Placed> {
    return this.place.pos;
  }

  get selected(): string | null {
    return this.view.selected;
  }

  get breakLines(): readonly number[] {
    return this.view.breakLines;
  }

  get breakNodes(): readonly string[] {
    return this.view.breakNodes;
  }

  /** Text width at the graph's font (cached: runs repeat the same few op names). */
  private widths = new Map<string, number>();
  private measureCtx = document.createElement("canvas").getContext("2d");
  readonly measure = (text: string): number => {
    let w = this.widths.get(text);
    if (w === undefined) {
      const ctx = this.measureCtx;
      if (ctx) ctx.font = FONT;
      w = ctx ? ctx.measureText(text).width : text.length * 7.5;
      this.widths.set(text, w);
    }
    return w;
  };

  /** A dropped socket during a live run: ask for exactly the events after the last one held.
   *  The first try is immediate (so commands sent meanwhile follow the resume on the new
   *  socket); later ones back off while the server is unreachable. */
  private reconnect(): void {
    const head = this.headState();
    if (!head.runId || (head.status !== "running" && head.status !== "paused")) return;
    const runId = head.runId;
    const delay = this.retries === 0 ? 0 : Math.min(5000, 250 * 2 ** this.retries);
    this.retries += 1;
    this.panels.status("connection lost, reconnecting…");
    const go = (): void => {
      this.drain();
      if (this.headState().runId === runId) this.send({ type: "resume", run_id: runId, after_seq: this.log.length - 1 });
    };
    if (delay === 0) go();
    else setTimeout(go, delay);
  }

  /** Forget the current run (a new run or a loaded one starts from an empty log). */
  reset(): void {
    this.log = new RunLog();
    this.queue = [];
    if (this.layoutTimer) clearTimeout(this.layoutTimer);
    this.layoutTimer = 0;
    this.layout.reset();
    this.fullValues = new Map();
    this.pendingStep = false;
    this.pendingCenter = null;
    this.dispatch({ type: "newRun" });
    this.opener.cancel();
    // a share link names the run it was made for: it goes with that run
    byId("share-url").hidden = true;
    this.schedule();
  }

  run(): void {
    const head = this.headState();
    // a run still going (or paused in backward) is stopped before the new one starts
    if (head.status === "running" || head.status === "paused") this.send({ type: "stop" });
    this.conn.reset();
    this.reset();
    const pause = byId<HTMLInputElement>("pause-backward").checked;
    const code = this.editor.code;
    const bytes = new TextEncoder().encode(code).length;
    if (bytes > MAX_CODE_BYTES) {
      // the server refuses a command this large (and closes a socket that sends a far larger
      // one): say so here rather than lose the connection
      this.panels.status(`the code is too large to run: ${(bytes / 2 ** 20).toFixed(1)} MiB (the server takes up to ${MAX_CODE_BYTES / 2 ** 20} MiB)`);
      return;
    }
    this.conn.send({ type: "run", code, options: { pause_in_backward: pause, breakpoints: this.breakpointList() } });
    history.replaceState(null, "", "/");
    this.panels.status("starting…");
  }

  // -- ingesting ----------------------------------------------------------------------------
  /** Take a batch from the socket (or a stored log): applied in slices so input and frames
   *  keep their turn. */
  enqueue(batch: WireEvent[]): void {
    this.queue.push(batch);
    if (this.pumping) return;
    this.pumping = true;
    queueMicrotask(() => this.pump());
  }

  /** Apply queued events for a slice of time, then hand the thread back (input, frames) and
   *  go on; what follows from new events (layout, the URL, a step waiting) is done once per
   *  slice, not per batch. */
  private pump(): void {
    const t0 = performance.now();
    while (this.queue.length && performance.now() - t0 < SLICE_MS) {
      const batch = this.queue[0] as WireEvent[];
      // a large batch (a stored log's frame) is applied a part at a time
      const part = batch.length > PART ? batch.splice(0, PART) : (this.queue.shift() as WireEvent[]);
      this.apply(part);
    }
    this.settle();
    if (this.queue.length) yieldThen(this.pumpNext);
    else this.pumping = false;
  }

  private readonly pumpNext = (): void => this.pump();

  /** Apply whatever is still queued now (before a resume asks from the last seq held). */
  private drain(): void {
    while (this.queue.length) this.apply(this.queue.shift() as WireEvent[]);
    this.settle();
  }

  /** Take a batch of events now (from the queue, a stored run, or a test). */
  ingest(batch: WireEvent[]): void {
    this.apply(batch);
    this.settle();
  }

  /** A batch into the log, and what each batch says for itself (a start, values, a link). */
  private apply(batch: WireEvent[]): void {
    const t0 = performance.now();
    this.log.append(batch);
    this.metrics.applyMs += performance.now() - t0;
    this.metrics.lastEventAt = performance.now();
    this.metrics.firstFullFrameAt = 0;
    if (this.retries > 0 || batch.some((e) => e.type === "run_started")) this.panels.status("");
    this.retries = 0;
    for (const e of batch) if (e.type === "tensor_values") this.gotValues(e);
    this.opener.took(batch);
  }

  /** What follows from the events applied since the last call: a step that waited for its
   *  events, the run's URL, new vertices to the layout worker, a frame. */
  private settle(): void {
    if (this.pendingStep) {
      const stop = this.log.nextStop();
      if (stop !== null) {
        this.pendingStep = false;
        this.log.seek(stop);
        // a stop that came alone in its batch is the newest event: the cursor stays on it
        // when the rest of the step (up to the next pause) arrives
        this.log.following = false;
      }
    }
    const head = this.headState();
    if (head.runId && location.search !== `?run=${head.runId}`) history.replaceState(null, "", `/?run=${head.runId}`);
    // while events stream in (a live run, or a stored log's backlog) the layout worker gets
    // new vertices a few times a second in larger parts rather than after every slice (each
    // message costs a copy on both sides and an answer); a stream that goes quiet gets its
    // last part sent when the wait is over
    const now = performance.now();
    const streaming = this.queue.length > 0 || (head.status === "running" && this.log.following);
    const wait = streaming ? this.layoutSentAt + LAYOUT_EVERY_MS - now : 0;
    if (wait <= 0) this.sendLayout();
    else if (!this.layoutTimer) this.layoutTimer = window.setTimeout(this.sendLayout, wait);
    if (streaming) this.refresh();
    else this.schedule();
  }

  private layoutSentAt = 0;
  private layoutTimer = 0;

  private readonly sendLayout = (): void => {
    if (this.layoutTimer) clearTimeout(this.layoutTimer);
    this.layoutTimer = 0;
    this.layoutSentAt = performance.now();
    this.layout.send(this.headState(), this.view);
  };

  /** A frame soon for what streamed in: at most every FRAME_EVERY_MS while a run streams
   *  (each frame costs a render, a commit and a paint whatever changed); input and view
   *  actions still get the next frame (schedule). */
  private refresh(): void {
    if (this.raf || this.refreshTimer) return;
    const wait = this.renderedAt + (this.queue.length ? BACKLOG_FRAME_MS : FRAME_EVERY_MS) - performance.now();
    if (wait <= 0) this.schedule();
    else this.refreshTimer = window.setTimeout(() => ((this.refreshTimer = 0), this.schedule()), wait);
  }

  private refreshTimer = 0;
  private renderedAt = 0;

  get shownIteration(): number | null {
    return this.layout.iteration;
  }

  get collapsed(): readonly string[] {
    return this.layout.collapsed;
  }

  private onPlaced(m: FromLayout): void {
    this.metrics.layoutMs = Math.max(this.metrics.layoutMs, m.ms);
    this.metrics.layoutCalls += 1;
    if (m.replace || !this.view.userMoved) this.fitSoon = true;
    // a new view of the graph (a module opened, another iteration) brings the selection back
    // into sight; boxes redone for a wider label leave the user's view where it is
    if (m.replace && m.why === "options" && this.view.userMoved && this.view.selected) this.pendingCenter = this.view.selected;
    if (m.why === "add" && this.headState().status === "running") this.refresh();
    else this.schedule();
  }

  schedule(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.render();
    });
  }

  scene(): Scene {
    return { state: this.log.state(), place: this.place, selected: this.view.selected, breakpoints: this.breakSet, moduleLabel: this.layout.label };
  }

  /** The drawn box of a vertex (its own, or its collapsed module's). */
  anchorOf(id: string): string {
    return this.place.anchorId(id);
  }

  private render(): void {
    const t0 = performance.now();
    this.renderedAt = t0;
    if (this.opener.catchingUp) {
      // a share link's stored log is read and folded before the run is drawn: a frame of a
      // graph still growing costs the whole graph's canvas, map and panels, and would take
      // the thread from the events; the status line says how far the read is
      this.panels.reading(this.log.length);
      return;
    }
    const scene = this.scene();
    const s = scene.state;
    this.layout.sync(this.view);
    const head = this.headState();
    const streaming = head.status === "running" && this.log.following;
    if (this.fitSoon && !this.view.userMoved) {
      // while a run streams in, the view follows the growing graph a few times a second
      const wait = streaming ? this.fitAt + FIT_EVERY_MS - t0 : 0;
      if (wait > 0) {
        if (!this.fitTimer) this.fitTimer = window.setTimeout(() => ((this.fitTimer = 0), this.schedule()), wait);
      } else {
        this.fit();
        this.fitAt = t0;
        this.fitSoon = false;
      }
    } else this.fitSoon = false;
    // a step brings its node into view once; after that the user may pan or jump elsewhere
    const cur = s.current;
    if (cur !== this.shownCurrent && (cur === null || this.place.anchorOf(cur))) {
      this.shownCurrent = cur;
      if (cur && !this.log.following) this.centerOn(cur, true);
    }
    if (this.pendingCenter && this.place.anchorOf(this.pendingCenter)) {
      this.centerOn(this.pendingCenter, false);
      this.pendingCenter = null;
    }
    const v = this.view.viewport;
    // while a run streams in, the graph is redrawn a few times a second (each frame of the
    // canvas costs the same whatever changed); a pan or zoom of the user's is drawn at once
    const userMove = v !== this.drawnViewport && this.view.userMoved;
    const drawWait = streaming && !userMove ? this.drawnAt + DRAW_EVERY_MS - t0 : 0;
    if (drawWait > 0) {
      if (!this.drawTimer) this.drawTimer = window.setTimeout(() => ((this.drawTimer = 0), this.schedule()), drawWait);
    } else if (this.canvas.drawIfChanged(scene, v)) {
      this.drawnAt = t0;
      this.drawnViewport = v;
    }
    const whole = graphRect(this.place);
    const vis = viewRect(v, this.canvas.size.w, this.canvas.size.h);
    const all = !!whole && vis.x0 <= whole.x0 && vis.y0 <= whole.y0 && vis.x1 >= whole.x1 && vis.y1 >= whole.y1;
    this.overview.draw(this.place, whole, vis, !all && this.place.pos.size > 0, s, presentIn(scene));
    // while a run streams in, the panels refresh in a task of their own: a frame's drawing and
    // the panels' heavier refresh never add up to one long task
    if (streaming) this.updatePanelsSoon();
    else this.panels.update(s, this.view);
    this.metrics.frameMs = performance.now() - t0;
    if (!this.metrics.firstFullFrameAt && !streaming && !this.drawTimer && this.metrics.lastEventAt && !this.queue.length && !this.layoutTimer && this.layout.caughtUp && s.seq === this.log.length - 1) {
      this.metrics.firstFullFrameAt = performance.now();
    }
  }

  private panelsDue = false;

  private updatePanelsSoon(): void {
    if (this.panelsDue) return;
    this.panelsDue = true;
    yieldThen(() => {
      this.panelsDue = false;
      this.panels.update(this.log.state(), this.view);
    });
  }

  /** Fit the view: the whole graph, or a readable region of a huge one (see fit.ts). */
  fit(): void {
    const s = this.log.state();
    const focusId = s.current ?? this.view.selected;
    const focus = focusId !== null ? this.place.anchorOf(focusId) : undefined;
    const f = fitViewport(this.place, this.canvas.size.w, this.canvas.size.h, { top: 0, right: 0, bottom: 0, left: 0 }, focus);
    if (!f) return;
    this.partial = f.partial;
    this.view = reduceView(this.view, { type: "fitted", viewport: f.viewport });
    const note = byId("big-note");
    note.hidden = !f.partial;
    if (f.partial) {
      const what = s.current ? "the current node" : this.view.selected ? "the selection" : "the loss";
      note.textContent = `${this.place.pos.size} boxes: showing the region around ${what} · the map (bottom right) shows all`;
    }
  }

  /** The smallest zoom worth having: the whole graph a little smaller than the canvas. */
  minZoom(): number {
    const f = fitViewport(this.place, this.canvas.size.w, this.canvas.size.h, { top: 0, right: 0, bottom: 0, left: 0 }, undefined);
    return f ? Math.min(TEXT_K, f.wholeK * 0.7) : 0.05;
  }

  /** Bring a vertex's box into view (only when off screen unless `always`). */
  centerOn(id: string, onlyIfHidden: boolean): void {
    const p = this.place.anchorOf(id);
    if (!p) return;
    const { w: W, h: H } = this.canvas.size;
    const { x, y, k } = this.view.viewport;
    const sx = p.x * k + x, sy = p.y * k + y;
    if (onlyIfHidden && sx > 40 && sx < W - 120 && sy > 40 && sy < H - 60) return;
    this.view = reduceView(this.view, { type: "fitted", viewport: { k, x: W / 2 - (p.x + p.w / 2) * k, y: H / 2 - (p.y + p.h / 2) * k } });
    byId("big-note").hidden = true;
    this.schedule();
  }

  // -- stepping ----------------------------------------------------------------------------
  private headState(): RunState {
    return this.log.stateAt(this.log.length - 1);
  }

  send(cmd: Command): void {
    this.conn.send(cmd);
  }

  step(): void {
    const next = this.log.nextStop();
    if (next !== null) {
      this.log.seek(next);
      this.log.following = false;  // a step lands on its stop, even the newest event
    } else if (this.headState().status === "paused") {
      // the server runs one node; the cursor moves when its events arrive (see ingest)
      this.log.following = false;
      this.pendingStep = true;
      this.send({ type: "step" });
    }
    this.schedule();
  }

  stepBack(): void {
    this.dispatch({ type: "replayed" });
    const prev = this.log.prevStop();
    if (prev >= 0) this.log.seek(prev);
    else {
      const bs = this.log.backwardStart();
      if (bs > 0 && this.log.cursor >= bs) this.log.seek(bs - 1);
    }
    this.log.following = false;
    this.schedule();
  }

  continue(): void {
    this.log.seek(this.log.length - 1);
    if (this.headState().status === "paused") this.send({ type: "continue" });
    this.schedule();
  }

  pause(): void {
    if (this.headState().status === "running") this.send({ type: "pause" });
    this.log.following = false;
    this.schedule();
  }

  restart(): void {
    this.dispatch({ type: "replayed" });
    const bs = this.log.backwardStart();
    this.log.seek(bs > 0 ? bs - 1 : -1);
    this.log.following = false;
    this.schedule();
  }

  seek(index: number): void {
    if (index < this.log.cursor) this.dispatch({ type: "replayed" });
    this.log.seek(index);
    this.schedule();
  }

  // -- selection, modules and breakpoints ----------------------------------------------------
  /** Select a vertex; with `center`, open what hides it (a collapsed module, another
   *  iteration) and bring it into view. */
  select(id: string | null, center = false): void {
    this.dispatch({ type: "select", id });
    if (!id || !center) return;
    this.reveal(id);
    this.pendingCenter = id;
    byId("big-note").hidden = true;
    this.schedule();
  }

  /** Open the collapsed modules around a vertex and show its iteration. */
  reveal(id: string): void {
    const idx = this.log.index;
    const shut = new Set(this.layout.collapsed);
    const paths = idx.chainOf(id).map((c) => c.path).filter((p) => shut.has(p));
    if (paths.length) this.dispatch({ type: "setCollapsed", paths, collapsed: false });
    const v = this.log.state().vertices.get(id);
    if (v && this.layout.iteration !== null && v.kind === "fn") {
      let it = 0;
      while (it < idx.backwardSeqs.length && (idx.backwardSeqs[it] as number) < v.seq) it++;
      if (it !== this.layout.iteration) this.dispatch({ type: "setIteration", iteration: it });
    }
  }

  /** Open every module (`open`), or go back to the default (big models collapsed). */
  expandAll(open: boolean): void {
    if (open) this.dispatch({ type: "setCollapsed", paths: [...this.log.index.types.keys()], collapsed: false });
    else this.dispatch({ type: "resetCollapse" });
  }

  /** A click on a collapsed module's box opens it; on an open module's title shuts it. */
  toggleModule(hit: string): void {
    if (hit.startsWith(MODULE_PREFIX)) this.dispatch({ type: "setCollapsed", paths: [pathOfKey(hit.slice(MODULE_PREFIX.length))], collapsed: false });
    else if (hit.startsWith("f:")) this.dispatch({ type: "setCollapsed", paths: [hit.slice(2)], collapsed: true });
  }

  selectLine(line: number): void {
    const s = this.log.state();
    let best: string | null = null;
    let fn = false;
    for (const v of s.vertices.values()) {
      if (v.line !== line || (best !== null && (fn || v.kind !== "fn"))) continue;
      best = v.id;
      fn = v.kind === "fn";
    }
    if (best) this.select(best, true);
  }

  breakpointList(): Breakpoint[] {
    const v = this.view;
    return [
      ...v.breakLines.map((line) => ({ line })),
      ...v.breakNodes.filter((n) => /^\d+$/.test(n)).map((n) => ({ node_id: Number(n) })),
      ...v.breakOps.map((op) => ({ op })),
      ...(v.breakNaN ? [{ on_nan: true }] : []),
    ];
  }

  setOpBreakpoints(ops: string[], onNaN: boolean): void {
    this.dispatch({ type: "setOpBreakpoints", ops, onNaN });
  }

  toggleBreakNode(id: string): void {
    if (!id.startsWith(MODULE_PREFIX)) this.dispatch({ type: "toggleBreakNode", id });
  }

  /** Whether the worker answers `tensor_values` now: while paused in backward it waits for
   *  commands. (After the snippet it would too if the run were started with the tracer's
   *  `linger` option, which the server's RunOptions do not pass through.) */
  valuesAvailable(): boolean {
    return this.headState().status === "paused";
  }

  requestValues(tensorId: string): void {
    if (!/^\d+$/.test(tensorId) || !this.valuesAvailable()) return;
    this.fullValues.set(tensorId, null);
    this.send({ type: "tensor_values", tensor_id: Number(tensorId) });
    this.schedule();
  }

  /** A `tensor_values` answer (in chunks): the reducer folds the values into the tensor's
   *  current version; here only the request's state (an error, or done). */
  private gotValues(e: TensorValues): void {
    if (e.tensor_id === null) return;
    const id = String(e.tensor_id);
    if (e.error !== undefined) this.fullValues.set(id, e.error);
    else if (e.last) this.fullValues.delete(id);
  }

  /** Hooks the panels set: breakpoints changed; open/close the keyboard help. */
  onBreakpoints: () => void = () => {};
  toggleHelp: (open?: boolean) => void = () => {};
}
