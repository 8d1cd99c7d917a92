// The reducer: state(k) = events[0..k] folded by applyEvent. `applyEvent` writes into a draft
// that the store owns; `reduce` is the pure form (clone, then apply) used by tests and seeks.
// The forward graph is folded in forward.ts, the backward pass and hooks in backward.ts.
import type { Error as ErrorEvent } from "../protocol";
import type { WireEvent } from "../wire";
import type { RunState } from "./types";
import { CowMap } from "./cowmap";
import { onSavedPack, onSavedUnpack } from "./saved";
import { onBackward, onGradChanged, onHookFired, onHookRegistered, onHookRemoved, onRetainGrad } from "./backward";
import { onCut, onNode, onRequiresGradSet, onTensorInfo, onTensorValues, onUntracked, onVersionBump, sid } from "./forward";

export { moduleScope } from "./forward";

export function emptyState(): RunState {
  return {
    seq: -1, runId: "", code: "", status: "idle", engine: "",
    vertices: new CowMap(), order: [], orderLen: 0, removed: 0, revised: [], revisedLen: 0, tensors: new CowMap(), versions: new CowMap(), versionLog: new CowMap(),
    grads: new CowMap(), gradCleared: new CowMap(), gradSet: new CowMap(), nodeState: new CowMap(), edgeGrads: new CowMap(), gradOutputs: new CowMap(), unpacked: new CowMap(),
    current: null, readyQueue: [], deps: new Map(), hooks: new Map(), lastHook: null, firings: [], forwardFirings: [], valueChunks: new Map(), lastNodeOf: new Map(), pendingPre: new Map(), halted: null, backwardCalls: [],
    console: [], error: null, inBackward: false, backwards: 0, pausedAt: null, pauseReason: "", modules: [],
  };
}

/** A copy whose maps and arrays can be written without touching the original. */
export function cloneState(s: RunState): RunState {
  return {
    ...s,
    vertices: s.vertices.fork(), tensors: s.tensors.fork(), versions: s.versions.fork(), versionLog: s.versionLog.fork(),
    grads: s.grads.fork(), gradCleared: s.gradCleared.fork(), gradSet: s.gradSet.fork(), nodeState: s.nodeState.fork(), edgeGrads: s.edgeGrads.fork(), gradOutputs: s.gradOutputs.fork(),
    unpacked: s.unpacked.fork(), readyQueue: s.readyQueue.slice(), deps: new Map(s.deps), hooks: new Map(s.hooks),
    firings: s.firings.slice(), forwardFirings: s.forwardFirings.slice(), valueChunks: new Map(s.valueChunks), lastNodeOf: new Map(s.lastNodeOf), pendingPre: new Map(s.pendingPre), backwardCalls: s.backwardCalls.slice(), console: s.console.slice(), modules: s.modules.slice(),
  };
}

/** The ids of the vertices this state has, in arrival order. */
export function vertexOrder(s: RunState): string[] {
  return s.order.length === s.orderLen ? s.order : s.order.slice(0, s.orderLen);
}

export function reduce(s: RunState, ev: WireEvent): RunState {
  const next = cloneState(s);
  applyEvent(next, ev);
  return next;
}

/** The innermost frame of the snippet in a forward trace (anomaly mode's "forward call that
 *  caused" it): frames of the engine or the runner are skipped by checking that the frame's
 *  source text is the snippet's text at that line. */
function traceLine(trace: string[], code: string): number | null {
  const lines = code.split("\n");
  let found: number | null = null;
  for (const entry of trace) {
    if (typeof entry !== "string") continue;
    const m = /line (\d+)[^\n]*\n([^\n]*)/.exec(entry);
    if (!m) continue;
    const n = Number(m[1]);
    const text = (m[2] ?? "").trim();
    if (text && lines[n - 1]?.trim() === text) found = n;
  }
  return found;
}

function onError(s: RunState, e: ErrorEvent, seq: number): void {
  const trace = e.anomaly_trace ?? [];
  // an error raised during backward belongs to the node being run when the event has none
  const node = sid(e.node) ?? (s.inBackward ? s.current : null);
  // the sandbox ends a run its owner stopped with the bare reason ("killed: killed"): say it
  const message = e.source === "sandbox" && e.error_type === "killed" && (e.message === "killed" || e.message === "stopped")
    ? "stopped at its owner's request (the Stop button)" : e.message;
  let anomalyLine = trace.length ? traceLine(trace, s.code) : null;
  if (anomalyLine === null && node !== null && /returned nan values/.test(message)) {
    // detect_anomaly names the node whose backward made the NaN; its forward line is on the node
    anomalyLine = s.vertices.get(node)?.line ?? null;
  }
  // a stopped run's error says where the worker was (the halted event came first)
  const line = e.line ?? (e.source === "sandbox" ? (s.halted?.line ?? null) : null);
  s.error = {
    // stored runs from before the protocol package may lack line and traceback
    seq, kind: e.error_type || "Error", message, line, node, traceback: e.traceback ?? "", anomalyLine,
  };
  // the console shows what Python would print: the traceback ends with "Type: message"
  const tb = s.error.traceback || `${s.error.kind}: ${message}`;
  s.console.push({ seq, stream: "stderr", text: tb.endsWith("\n") ? tb : `${tb}\n` });
}

/** Fold one event into the draft state. Unknown event types only advance the cursor. */
export function applyEvent(s: RunState, ev: WireEvent): void {
  s.seq = ev.seq;
  // a fired hook stays lit while its node runs, until the next node starts
  if (ev.type === "node_enter" || ev.type === "backward_finished") s.lastHook = null;
  switch (ev.type) {
    case "run_started":
      s.runId = ev.run_id;
      s.code = ev.code;
      s.engine = ev.engine ?? "";
      s.status = "running";
      return;
    case "stdout":
    case "stderr":
      s.console.push({ seq: ev.seq, stream: ev.type, text: ev.text });
      return;
    case "command_error":
      s.console.push({ seq: ev.seq, stream: "stderr", text: `[server] ${ev.message}\n` });
      return;
    case "tensor":
      onTensorInfo(s, ev.tensor, ev.seq);
      return;
    case "node":
      return onNode(s, ev, ev.seq);
    case "untracked_op":
      return onUntracked(s, ev, ev.seq);
    case "version_bump":
      return onVersionBump(s, ev, ev.seq);
    case "hook_registered":
      return onHookRegistered(s, ev);
    case "hook_removed":
      return onHookRemoved(s, ev);
    case "hook_fired":
      return onHookFired(s, ev);
    case "saved_pack":
      return onSavedPack(s, ev);
    case "saved_unpack":
      return onSavedUnpack(s, ev);
    case "module_enter":
      if (ev.path && !s.modules.includes(ev.path)) s.modules.push(ev.path);
      return;
    case "tensor_values":
      return onTensorValues(s, ev);
    case "cut":
      return onCut(s, ev);
    case "requires_grad_set":
      return onRequiresGradSet(s, ev);
    case "retain_grad":
      return onRetainGrad(s, ev);
    case "grad_changed":
      return onGradChanged(s, ev);
    case "halted":
      s.halted = { why: ev.why, line: ev.line, lines: ev.lines };
      return;
    case "error":
      return onError(s, ev, ev.seq);
    case "run_finished":
      s.status = ev.status;
      s.pausedAt = null;
      s.current = null;
      s.inBackward = false;
      return;
  }
  if (onBackward(s, ev) && s.status === "paused" && ev.type !== "paused") {
    s.status = "running";
    s.pausedAt = null;
  }
}
