// The page's side of the layout worker: tells it the run's new vertices and the view's options
// (collapsed modules, the iteration drawn), and keeps its answers in a Placement.
import type { RunLog } from "../model/store";
import type { RunState } from "../model/types";
import type { ViewState } from "../view/state";
import { collapsedPaths, moduleLabel, shownIteration, type ModuleLabel } from "../view/model";
import type { GraphOptions, RawItem } from "./graphview";
import { layoutItem, layoutItems, sameItem } from "./items";
import { itemBuffers, Names, packItems, unpackPlaced } from "./codec";
import type { FromLayout, PlacedMessage, ToLayout } from "./messages";
import { Placement } from "./placement";

export class LayoutLink {
  readonly place = new Placement();
  /** Vertices told to the worker (a prefix of the run's vertex order). */
  sent = 0;
  /** Their items by id; the run's count of taken-back vertices and the length of its revision
   *  log when last checked against them. */
  private sentItems = new Map<string, RawItem>();
  private removedSeen = 0;
  private revisedSeen = 0;
  /** A worker epoch whose first answer replaces the placement (a re-layout after a vertex
   *  the worker had was taken back); -1 when none. */
  private replaceAt = -1;
  /** Why the worker stopped answering, if it did (shown to the user; null while it works). */
  failed: string | null = null;
  private epoch = 0;
  private sentModules = new Set<string>();
  private options: GraphOptions = { collapsed: [], iteration: null, backwardSeqs: [] };
  private optionsKey = "";
  private labels = new Map<string, ModuleLabel>();
  private labelsAt = -1;
  private readonly worker: Worker;
  /** This epoch's names (see codec.ts): the page's own, and the worker's module boxes. */
  private names = new Names(1);

  /** `onPlaced` hears each answer of this run's worker after it went into `place`. */
  constructor(private log: () => RunLog, private measure: (text: string) => number, onPlaced: (m: FromLayout) => void, onFailed: (why: string) => void) {
    this.worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    this.worker.onmessage = (msg: MessageEvent<PlacedMessage>) => {
      // an answer of an earlier epoch is dropped unread: its names were another table's
      if (msg.data.epoch !== this.epoch) return;
      const { packed, ...header } = msg.data;
      const m: FromLayout = { ...header, ...unpackPlaced(packed, this.names) };
      if (m.epoch === this.replaceAt) {
        this.replaceAt = -1;
        this.place.clear();
      }
      this.place.apply(m);
      onPlaced(m);
    };
    this.worker.onerror = (e: ErrorEvent) => {
      this.failed = e.message || "the layout worker failed to start";
      onFailed(this.failed);
    };
  }

  private post(m: ToLayout): void {
    if (m.type === "reset") this.names = new Names(1);
    this.worker.postMessage(m, m.type === "add" || m.type === "revise" ? itemBuffers(m.items) : []);
  }

  /** A new run: a fresh layout in the worker. */
  reset(): void {
    this.epoch += 1;
    this.place.clear();
    this.sent = 0;
    this.sentItems = new Map();
    this.removedSeen = 0;
    this.revisedSeen = 0;
    this.replaceAt = -1;
    this.sentModules = new Set();
    this.labels = new Map();
    this.labelsAt = -1;
    this.options = { collapsed: [], iteration: null, backwardSeqs: [] };
    this.optionsKey = JSON.stringify(this.options);
    this.post({ type: "reset", epoch: this.epoch, options: this.options });
  }

  /** New vertices to the worker (and, first, new options when the view's choices moved). */
  send(head: RunState, view: ViewState): void {
    this.sync(view);
    if (head.removed !== this.removedSeen) {
      this.removedSeen = head.removed;
      for (const id of this.sentItems.keys()) {
        if (head.vertices.has(id)) continue;
        this.relayout();
        break;
      }
    }
    if (head.revisedLen !== this.revisedSeen) this.revise(head);
    const ended = head.status !== "running" && head.status !== "paused";
    if (head.orderLen <= this.sent && !ended) return;
    const { items, modules } = layoutItems(head, this.log().index, this.sent, this.measure, this.sentModules, (key) => this.moduleWidth(key));
    this.sent = head.orderLen;
    for (const it of items) this.sentItems.set(it.id, it);
    // once the forward is over no consumer can arrive for a waiting leaf: place it anyway
    const flush = head.inBackward || head.backwards > 0 || ended;
    this.post({ type: "add", epoch: this.epoch, items: packItems(items, this.names), modules, flush });
  }

  /** A vertex the worker has was taken back (a provisional cut: the op got a grad_fn after
   *  all): the worker lays the run out again from its first vertex, and its first answer
   *  replaces the placement (the old one stays drawn until then). */
  private relayout(): void {
    this.epoch += 1;
    this.replaceAt = this.epoch;
    this.sent = 0;
    this.sentItems = new Map();
    this.sentModules = new Set();
    this.post({ type: "reset", epoch: this.epoch, options: this.options });
  }

  /** Vertices the worker has that the run described again since the last look (a name heard
   *  after the box was sized, a leaf turned const): the ones whose item changed go to the
   *  worker, which lays out again with them. */
  private revise(head: RunState): void {
    const ids = new Set(head.revised.slice(this.revisedSeen, head.revisedLen));
    this.revisedSeen = head.revisedLen;
    const changed: RawItem[] = [];
    const modules: [string, number][] = [];
    const index = this.log().index;
    for (const id of ids) {
      const was = this.sentItems.get(id);
      const v = head.vertices.get(id);
      if (!was || !v) continue;
      const now = layoutItem(head, index, v, this.measure, this.sentModules, (key) => this.moduleWidth(key), modules);
      if (sameItem(was, now)) continue;
      this.sentItems.set(id, now);
      changed.push(now);
    }
    if (changed.length) this.post({ type: "revise", epoch: this.epoch, items: packItems(changed, this.names), modules });
  }

  /** The layout options the view asks for now; a change re-lays the graph out in the worker. */
  sync(view: ViewState): void {
    const log = this.log();
    const idx = log.index;
    const iteration = shownIteration(idx, log.state(), view);
    const next: GraphOptions = {
      collapsed: collapsedPaths(idx, view, iteration),
      iteration,
      backwardSeqs: iteration === null ? [] : idx.backwardSeqs.slice(),
    };
    const key = JSON.stringify(next);
    if (key === this.optionsKey) return;
    this.optionsKey = key;
    this.options = next;
    this.post({ type: "options", epoch: this.epoch, options: next });
  }

  /** True when the worker has placed everything it was told (the vertices sent, not the run's
   *  order: a vertex taken back before it was sent is never told). */
  get caughtUp(): boolean {
    return this.place.seen >= this.sentItems.size;
  }

  get iteration(): number | null {
    return this.options.iteration;
  }

  get collapsed(): readonly string[] {
    return this.options.collapsed;
  }

  /** What a collapsed module's box says (cached until the next event). */
  readonly label = (key: string): ModuleLabel => {
    const log = this.log();
    if (this.labelsAt !== log.length) {
      this.labels.clear();
      this.labelsAt = log.length;
    }
    let l = this.labels.get(key);
    if (!l) {
      l = moduleLabel(log.index, log.index.byKey.get(key), key);
      this.labels.set(key, l);
    }
    return l;
  };

  private moduleWidth(key: string): number {
    const l = this.label(key);
    const w = Math.max(this.measure(`▸ ${l.title}`) * 1.08, this.measure(l.shapes) * 0.95) + 28;
    return Math.ceil(Math.min(320, Math.max(150, w)));
  }
}
