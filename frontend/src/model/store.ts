// The event log with a cursor. The head state is folded in place as events arrive; a snapshot
// every SNAPSHOT_EVERY events makes any seek cost at most that many applications.
import type { WireEvent } from "../wire";
import type { RunState } from "./types";
import { applyEvent, cloneState, emptyState } from "./reduce";

export const SNAPSHOT_EVERY = 2048;

/** Events the Step buttons stop at: before and after each backward node, hook firings (and
 *  saved-tensor unpack hooks, user code run inside a node), the end. */
const STOPS = new Set(["node_enter", "hook_fired", "saved_unpack", "node_exit", "backward_finished", "error"]);

export class RunLog {
  readonly events: WireEvent[] = [];
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
    let added = 0;
    for (const ev of batch) {
      if (ev.seq < this.events.length) continue;
      this.events.push(ev);
      applyEvent(this.head, ev);
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

  /** The state at the cursor (the head itself when at the end). */
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
      if (STOPS.has((this.events[i] as WireEvent).type)) return i;
    }
    return null;
  }

  prevStop(from = this.cursor): number {
    for (let i = from - 1; i >= 0; i--) {
      if (STOPS.has((this.events[i] as WireEvent).type)) return i;
    }
    return -1;
  }

  /** First event of the (last) backward pass, for Restart. */
  backwardStart(): number {
    return this.firstBackward;
  }
}
