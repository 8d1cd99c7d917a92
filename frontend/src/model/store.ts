// The event log with a cursor. The head state is folded in place as events arrive; a snapshot
// every SNAPSHOT_EVERY events makes any seek cost at most that many applications. Beside it,
// the run's index: facts that never change once known (module calls, iterations), kept for the
// view (collapsed modules, folded training loops) without scanning the log.
import type { NodeEvent, UntrackedOp } from "../protocol";
import type { WireEvent } from "../wire";
import type { RunState } from "./types";
import { applyEvent, cloneState, emptyState } from "./reduce";

/** One call of an nn.Module: its path ("Net.conv1"), class, and the ops that ran in it. */
export interface ModuleCall {
  call: number;
  /** "path#call": one box per call. */
  key: string;
  path: string;
  type: string;
  parent: number | null;
  /** 1 for a call made at top level, 2 inside one, ... */
  depth: number;
  /** The training-loop iteration it ran in (backward passes started before it). */
  iteration: number;
  line: number | null;
  /** The first and last grad_fn node run inside it (nested calls included), and how many. */
  first: string | null;
  last: string | null;
  ops: number;
  /** The seq of its module_enter, and the shape of the first tensor its ops took from
   *  outside the call that is not a parameter (the module's input). */
  enterSeq: number;
  input: number[] | null;
  /** The shape of what it returned (its first tensor), from its module_exit; null until then,
   *  or when it returned no tensor (or the log predates the field). */
  output: number[] | null;
}

/** Run-wide facts folded from the events as they arrive (the same at every cursor). */
export class RunIndex {
  readonly calls = new Map<number, ModuleCall>();
  /** The same calls by key ("Net.fc1#3"). */
  readonly byKey = new Map<string, ModuleCall>();
  /** Module class by path. */
  readonly types = new Map<string, string>();
  /** The innermost module call each grad_fn node ran in. */
  readonly nodeCall = new Map<string, number>();
  /** The shape of each node's first output. */
  readonly outShape = new Map<string, number[]>();
  /** Seqs of backward_started: iteration i of a loop is what ran after the i-th of them. */
  readonly backwardSeqs: number[] = [];
  /** grad_fn nodes made in each iteration. */
  readonly iterationOps: number[] = [];
  /** True once an op uses an op of an earlier iteration (then iterations are not a loop's). */
  linked = false;
  /** AccumulateGrad nodes (each a parameter or leaf that gets a .grad). */
  accumulators = 0;
  /** The iteration each grad_fn node was made in, by node id (ids are dense). */
  private fnIteration: number[] = [];
  private open: number[] = [];

  /** The module calls a node ran in, outermost first. */
  chainOf(id: string): ModuleCall[] {
    const out: ModuleCall[] = [];
    for (let c = this.nodeCall.get(id); c !== undefined; ) {
      const m = this.calls.get(c);
      if (!m) break;
      out.unshift(m);
      c = m.parent ?? undefined;
    }
    return out;
  }

  /** Fold one event; `head` is the run state with it applied (for tensor facts). */
  observe(ev: WireEvent, head: RunState): void {
    switch (ev.type) {
      case "module_enter": {
        const { call, path, module_type: type } = ev;
        const parent = this.open[this.open.length - 1] ?? null;
        const depth = parent === null ? 1 : (this.calls.get(parent)?.depth ?? 0) + 1;
        this.calls.set(call, {
          call, key: `${path}#${call}`, path, type, parent, depth, iteration: this.backwardSeqs.length,
          line: ev.line, first: null, last: null, ops: 0, enterSeq: ev.seq, input: null, output: null,
        });
        this.byKey.set(`${path}#${call}`, this.calls.get(call) as ModuleCall);
        this.types.set(path, type);
        this.open.push(call);
        return;
      }
      case "module_exit": {
        const call = ev.call;
        const m = call === null ? undefined : this.calls.get(call);
        if (m) m.output = ev.output_shape ?? null;
        const at = call === null ? this.open.length - 1 : this.open.lastIndexOf(call);
        if (at >= 0) this.open.length = at;
        return;
      }
      case "backward_started":
        this.backwardSeqs.push(ev.seq);
        return;
      case "node":
        return this.onNode(ev, head);
      case "untracked_op": {
        // an op run under no_grad inside a module (a model's inference) is drawn in its module
        const out = ev.outputs[0];
        if (!out) return;
        const id = `c${String(out.id)}`;
        this.outShape.set(id, out.shape);
        const it = this.backwardSeqs.length;
        this.iterationOps[it] = (this.iterationOps[it] ?? 0) + 1;
        return this.inCalls(id, ev, head);
      }
    }
  }

  private onNode(e: NodeEvent, head: RunState): void {
    const id = String(e.id);
    if (e.name.endsWith("AccumulateGrad")) {
      this.accumulators += 1;
      return;
    }
    const out = e.outputs[0];
    if (out) this.outShape.set(id, out.shape);
    const it = this.backwardSeqs.length;
    this.fnIteration[e.id] = it;
    this.iterationOps[it] = (this.iterationOps[it] ?? 0) + 1;
    if (it > 0 && !this.linked) {
      for (const edge of e.next) {
        const at = edge.node !== null ? this.fnIteration[edge.node] : undefined;
        if (at !== undefined && at < it) this.linked = true;
      }
    }
    this.inCalls(id, e, head);
  }

  /** Vertex `id`, made by op `e`, is one more op of the module calls `e` ran in. */
  private inCalls(id: string, e: NodeEvent | UntrackedOp, head: RunState): void {
    const calls = e.module_calls;
    const inner = calls && calls.length ? calls[calls.length - 1] : e.module_path ? this.open[this.open.length - 1] : undefined;
    if (typeof inner !== "number" || !this.calls.has(inner)) return;
    this.nodeCall.set(id, inner);
    const inputs = e.inputs.filter((t): t is number => t !== null).map(String);
    for (let c: number | null = inner; c !== null; ) {
      const m = this.calls.get(c);
      if (!m) break;
      if (m.first === null) m.first = id;
      m.last = id;
      m.ops += 1;
      if (m.input === null) {
        for (const t of inputs) {
          const info = head.tensors.get(t);
          if (info && info.seq < m.enterSeq && !(info.isLeaf && info.requiresGrad)) {
            m.input = info.shape;
            break;
          }
        }
      }
      c = m.parent;
    }
  }
}

export const SNAPSHOT_EVERY = 2048;

/** Events the Step buttons stop at: before and after each backward node, hook firings (and
 *  saved-tensor unpack hooks, user code run inside a node), the end. Typed by the protocol's
 *  event types, so a name that is not one of them does not compile. */
const STOPS: ReadonlySet<WireEvent["type"]> = new Set<WireEvent["type"]>([
  "node_enter",
  "hook_fired",
  "saved_unpack",
  "node_exit",
  "backward_finished",
  "error",
]);

export class RunLog {
  readonly events: WireEvent[] = [];
  readonly index = new RunIndex();
  private head: RunState = emptyState();
  private snapshots: RunState[] = [emptyState()];
  private view: RunState | null = null;
  private viewAt = -1;
  /** Index of the last applied event at the cursor; -1 means before the first event. */
  cursor = -1;
  /** When true the cursor follows the head as events arrive. */
  following = true;
  private firstBackward = -1;

  /** Append a batch (dense seq; duplicates from a resume are dropped). */
  append(batch: WireEvent[]): number {
    if (!this.following && this.cursor === this.events.length - 1 && batch.some((ev) => ev.seq >= this.events.length)) {
      // the cursor stays on what was the newest event (a step landed on it) while the run goes
      // on: the head folded so far is that event's state, handed out by state() and maybe held
      // (a panel's rows); it stays so, and the head folds on in a copy
      this.view = this.head;
      this.viewAt = this.cursor;
      this.head = cloneState(this.head);
    }
    let added = 0;
    for (const ev of batch) {
      if (ev.seq < this.events.length) continue;
      this.events.push(ev);
      applyEvent(this.head, ev);
      this.index.observe(ev, this.head);
      if (this.firstBackward < 0 && ev.type === "backward_started") this.firstBackward = ev.seq;
      added += 1;
      if (this.events.length % SNAPSHOT_EVERY === 0) this.snapshots.push(cloneState(this.head));
    }
    if (this.following) this.cursor = this.events.length - 1;
    return added;
  }

  get length(): number {
    return this.events.length;
  }

  /** The state at the cursor (the head itself when at the end). A state handed out here never
   *  changes while the cursor stays (the head is folded on in place only while it follows). */
  state(): RunState {
    if (this.cursor === this.events.length - 1) return this.head;
    if (this.view && this.viewAt === this.cursor) return this.view;
    this.view = this.stateAt(this.cursor);
    this.viewAt = this.cursor;
    return this.view;
  }

  /** Fold from the nearest snapshot at or before `index`. */
  stateAt(index: number): RunState {
    if (index >= this.events.length - 1) return this.head;
    const snap = Math.min(Math.floor((index + 1) / SNAPSHOT_EVERY), this.snapshots.length - 1);
    const base = this.view && this.viewAt <= index && this.viewAt >= snap * SNAPSHOT_EVERY - 1 ? this.view : null;
    const s = cloneState(base ?? (this.snapshots[snap] as RunState));
    for (let i = (base ? this.viewAt : snap * SNAPSHOT_EVERY - 1) + 1; i <= index; i++) {
      applyEvent(s, this.events[i] as WireEvent);
    }
    return s;
  }

  seek(index: number): void {
    this.cursor = Math.max(-1, Math.min(index, this.events.length - 1));
    this.following = this.cursor === this.events.length - 1;
  }

  /** Next stop after the cursor, or null when the log has none yet. */
  nextStop(from = this.cursor): number | null {
    for (let i = from + 1; i < this.events.length; i++) {
      if (STOPS.has(this.events[i].type)) return i;
    }
    return null;
  }

  prevStop(from = this.cursor): number {
    for (let i = from - 1; i >= 0; i--) {
      if (STOPS.has(this.events[i].type)) return i;
    }
    return -1;
  }

  /** First event of the (last) backward pass, for Restart. */
  backwardStart(): number {
    return this.firstBackward;
  }
}
