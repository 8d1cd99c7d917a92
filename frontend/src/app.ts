// The page controller: owns the run log, the layout worker, the canvas and the panels, and
// turns buttons, keys and server batches into cursor moves and commands.
import type { Placed } from "./layout/layered";
import { layoutItems } from "./layout/items";
import type { FromLayout, ToLayout } from "./layout/messages";
import { RunLog } from "./model/store";
import type { RunState, Value, Vertex } from "./model/types";
import { parseValue } from "./model/value";
import { GraphCanvas } from "./render/canvas";
import type { Scene } from "./render/scene";
import { FONT } from "./render/theme";
import { Connection } from "./net";
import { RunOpener } from "./opener";
import type { Breakpoint, Command, TensorValues, WireEvent } from "./wire";
import { CodeEditor } from "./ui/editor";
import { byId } from "./ui/dom";
import { Panels } from "./ui/panels";

export interface Metrics {
  lastEventAt: number;
  firstFullFrameAt: number;
  layoutMs: number;
  layoutCalls: number;
  frameMs: number;
  applyMs: number;
}

/** Overlays drawn over the graph canvas, which a fitted graph keeps clear of. */
const OVERLAYS = [".legend", ".zoom", "#big-note", "#replay-hint"];

/** How far the visible overlays reach into the canvas from its top and bottom edges. */
export function overlayInsets(canvas: HTMLElement): { top: number; right: number; bottom: number; left: number } {
  const c = canvas.getBoundingClientRect();
  const out = { top: 0, right: 0, bottom: 0, left: 0 };
  for (const sel of OVERLAYS) {
    const el = document.querySelector<HTMLElement>(sel);
    if (!el || el.hidden || el.offsetParent === null) continue;
    const r = el.getBoundingClientRect();
    if (r.bottom <= c.top || r.top >= c.bottom) continue;
    if (r.top + r.height / 2 > c.top + c.height / 2) out.bottom = Math.max(out.bottom, c.bottom - r.top);
    else out.top = Math.max(out.top, r.bottom - c.top);
  }
  return out;
}

export class App {
  log = new RunLog();
  pos = new Map<string, Placed>();
  private laid = 0;
  private epoch = 0;
  selected: string | null = null;
  collapsed = new Set<string>();
  breakLines = new Set<number>();
  breakNodes = new Set<string>();
  /** Op-name breakpoints (MulBackward0) and the break-on-NaN-gradient switch. */
  breakOps = new Set<string>();
  breakNaN = false;
  /** Full values fetched with `tensor_values`, by tensor id; `null` while a request is out. */
  fullValues = new Map<string, Value | string | null>();
  private pendingStep = false;
  /** Set once the user moves back in time in this run: the replay hint has done its job. */
  replayed = false;
  private raf = 0;
  readonly metrics: Metrics = { lastEventAt: 0, firstFullFrameAt: 0, layoutMs: 0, layoutCalls: 0, frameMs: 0, applyMs: 0 };
  readonly conn = new Connection();
  readonly worker: Worker;
  readonly canvas: GraphCanvas;
  readonly editor: CodeEditor;
  readonly panels: Panels;
  readonly opener = new RunOpener(this);

  constructor() {
    this.worker = new Worker(new URL("./layout/worker.ts", import.meta.url), { type: "module" });
    this.worker.onmessage = (m: MessageEvent<FromLayout>) => this.onPlaced(m.data);
    this.canvas = new GraphCanvas(byId<HTMLCanvasElement>("graph"));
    this.canvas.onFrame = () => this.onFrame();
    this.canvas.insets = () => overlayInsets(this.canvas.el);
    this.canvas.onResize = () => {
      // an error banner or a window resize changes the canvas: keep an untouched view fitted
      if (!this.userMoved) this.fitSoon = true;
      this.schedule();
    };
    this.editor = new CodeEditor(byId("editor"), {
      onRun: () => this.run(),
      onToggleBreak: (line) => this.toggleBreakLine(line),
      onLineClick: (line) => this.selectLine(line),
    });
    this.panels = new Panels(this);
    this.conn.onEvents = (batch) => this.ingest(batch);
    this.conn.onClose = () => this.reconnect();
    this.reset();
  }

  private widths = new Map<string, number>();
  private measureCtx = document.createElement("canvas").getContext("2d");

  /** Text width at the graph's font (cached: runs repeat the same few op names). */
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

  private post(m: ToLayout): void {
    this.worker.postMessage(m);
  }

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
      if (this.headState().runId === runId) this.send({ type: "resume", run_id: runId, after_seq: this.log.length - 1 });
    };
    if (delay === 0) go();
    else setTimeout(go, delay);
  }
  private retries = 0;

  /** Forget the current run (a new run or a loaded one starts from an empty log). */
  reset(): void {
    this.log = new RunLog();
    this.pos = new Map();
    this.laid = 0;
    this.epoch += 1;
    this.selected = null;
    this.collapsed.clear();
    this.fullValues = new Map();
    this.pendingStep = false;
    this.userMoved = false;
    this.replayed = false;
    this.opener.cancel();
    this.post({ type: "reset", epoch: this.epoch });
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
    this.conn.send({ type: "run", code: this.editor.code, options: { pause_in_backward: pause, breakpoints: this.breakpointList() } });
    history.replaceState(null, "", "/");
    this.panels.status("starting…");
  }

  /** Take a batch of events (from the socket, a stored run, or a test). */
  ingest(batch: WireEvent[]): void {
    const t0 = performance.now();
    this.log.append(batch);
    this.metrics.applyMs += performance.now() - t0;
    this.metrics.lastEventAt = performance.now();
    this.metrics.firstFullFrameAt = 0;
    if (batch.some((e) => e.type === "run_started") || this.retries > 0) this.panels.status("");
    this.retries = 0;
    for (const e of batch) if (e.type === "tensor_values") this.gotValues(e);
    this.opener.took(batch);
    if (this.pendingStep) {
      const stop = this.log.nextStop();
      if (stop !== null) {
        this.pendingStep = false;
        this.log.seek(stop);
      }
    }
    const head = this.log.stateAt(this.log.length - 1);
    if (head.runId && location.search !== `?run=${head.runId}`) history.replaceState(null, "", `/?run=${head.runId}`);
    this.sendLayout(head);
    this.schedule();
  }

  private sendLayout(head: RunState): void {
    if (head.orderLen <= this.laid && !(head.status !== "running" && head.status !== "paused")) return;
    const items = layoutItems(head, this.laid, this.measure);
    this.laid = head.orderLen;
    // once the forward is over no consumer can arrive for a waiting leaf: place it anyway
    const flush = head.inBackward || head.backwards > 0 || head.status !== "running";
    this.post({ type: "add", epoch: this.epoch, items, flush });
  }

  private onPlaced(m: FromLayout): void {
    if (m.epoch !== this.epoch) return;
    const first = this.pos.size === 0;
    for (const p of m.items) this.pos.set(p.id, p);
    this.metrics.layoutMs = Math.max(this.metrics.layoutMs, m.ms);
    this.metrics.layoutCalls += 1;
    if (first || !this.userMoved) this.fitSoon = true;
    this.schedule();
  }

  fitSoon = false;
  /** The current node the view last brought into sight (see render). */
  private shownCurrent: string | null = null;
  /** Set once the user pans or zooms; until then the view keeps fitting the growing graph. */
  userMoved = false;

  schedule(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.render();
    });
  }

  scene(): Scene {
    return { state: this.log.state(), pos: this.pos, selected: this.selected, collapsed: this.collapsed, breakpoints: this.breakNodes };
  }

  private render(): void {
    const scene = this.scene();
    this.canvas.scene = scene;
    this.canvas.setScene(scene);
    if (this.fitSoon) {
      this.fitSoon = false;
      this.fit();
    }
    // a step brings its node into view once; after that the user may pan or jump elsewhere
    // (a node picked in the list) without the view snapping back to it on every frame
    const cur = scene.state.current;
    if (cur !== this.shownCurrent && (cur === null || this.pos.has(cur))) {
      this.shownCurrent = cur;
      if (cur && this.log.following === false) this.canvas.centerOn(cur);
    }
    this.canvas.draw();
    byId("big-note").hidden = !this.canvas.partial;
    this.panels.update(scene.state);
  }

  /** Fit the view (a huge graph: the readable region around the current/selected node). */
  fit(): void {
    const s = this.log.state();
    this.canvas.fit(s.current ?? this.selected);
    const note = byId("big-note");
    if (!this.canvas.partial) return;
    const what = this.canvas.partialWhat === "last" ? "the last forward pass (earlier ones are above)"
      : `the region around ${s.current ? "the current node" : this.selected ? "the selection" : "the loss"}`;
    note.textContent = `${this.pos.size} nodes: showing ${what} · zoom out (wheel, −) for all`;
  }

  private onFrame(): void {
    this.metrics.frameMs = this.canvas.lastFrameMs;
    const s = this.log.state();
    if (!this.metrics.firstFullFrameAt && this.metrics.lastEventAt && this.pos.size >= this.laid && s.seq === this.log.length - 1) {
      this.metrics.firstFullFrameAt = performance.now();
    }
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
    if (next !== null) this.log.seek(next);
    else if (this.headState().status === "paused") {
      // the server runs one node; the cursor moves when its events arrive (see ingest)
      this.log.following = false;
      this.pendingStep = true;
      this.send({ type: "step" });
    }
    this.schedule();
  }

  stepBack(): void {
    this.replayed = true;
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
    this.replayed = true;
    const bs = this.log.backwardStart();
    this.log.seek(bs > 0 ? bs - 1 : -1);
    this.log.following = false;
    this.schedule();
  }

  seek(index: number): void {
    if (index < this.log.cursor) this.replayed = true;
    this.log.seek(index);
    this.schedule();
  }

  // -- selection and breakpoints -------------------------------------------------------------
  select(id: string | null, center = false): void {
    this.selected = id;
    if (id && center) {
      this.canvas.centerOn(id);
      this.canvas.partial = false; // the note about the fitted region no longer describes the view
    }
    this.schedule();
  }

  selectLine(line: number): void {
    const s = this.log.state();
    let best: Vertex | null = null;
    for (const v of s.vertices.values()) {
      if (v.line === line && (!best || (best.kind !== "fn" && v.kind === "fn"))) best = v;
    }
    if (best) this.select(best.id, true);
  }

  breakpointList(): Breakpoint[] {
    return [
      ...[...this.breakLines].map((line) => ({ line })),
      ...[...this.breakNodes].filter((n) => /^\d+$/.test(n)).map((n) => ({ node_id: Number(n) })),
      ...[...this.breakOps].map((op) => ({ op })),
      ...(this.breakNaN ? [{ on_nan: true }] : []),
    ];
  }

  setOpBreakpoints(ops: string[], onNaN: boolean): void {
    this.breakOps = new Set(ops.map((o) => o.trim()).filter(Boolean));
    this.breakNaN = onNaN;
    this.breakpointsChanged();
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

  private gotValues(e: TensorValues): void {
    if (e.tensor_id === null) return;
    const id = String(e.tensor_id);
    // an answer comes in chunks of flat values (offset, total, last): join them, then parse
    const parts = e.offset === 0 ? [] : this.valueChunks.get(id) ?? [];
    for (const x of e.values ?? []) parts.push(x);
    if (!e.last) {
      this.valueChunks.set(id, parts);
      return;
    }
    this.valueChunks.delete(id);
    const v = e.error ? null : parseValue({ shape: e.shape ?? [], dtype: e.dtype ?? "", values: parts }, e.shape ?? []);
    this.fullValues.set(id, v ?? e.error ?? "no values came back");
  }
  /** `tensor_values` chunks received so far, by tensor id, until the last one. */
  private valueChunks = new Map<string, unknown[]>();

  /** Hooks the panels set: breakpoints changed; open/close the keyboard help. */
  onBreakpoints: () => void = () => {};
  toggleHelp: (open?: boolean) => void = () => {};

  private breakpointsChanged(): void {
    this.onBreakpoints();
    this.editor.setBreakpoints([...this.breakLines].sort((a, b) => a - b));
    const s = this.headState();
    if (s.status === "running" || s.status === "paused") this.send({ type: "set_breakpoints", breakpoints: this.breakpointList() });
    this.schedule();
  }

  toggleBreakLine(line: number): void {
    if (!this.breakLines.delete(line)) this.breakLines.add(line);
    this.breakpointsChanged();
  }

  toggleBreakNode(id: string): void {
    if (!this.breakNodes.delete(id)) this.breakNodes.add(id);
    this.breakpointsChanged();
  }

  toggleModule(path: string): void {
    if (!this.collapsed.delete(path)) this.collapsed.add(path);
    this.schedule();
  }
}
