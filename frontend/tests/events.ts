// Typed event builders for reducer tests: each fills the fields a test does not care about, so
// a test states only what it checks and still hands the reducer a whole, well-typed event.
import type {
  BackwardStarted, Error as ErrorEvent, GradAccumulated, HookFired, HookRegistered, NodeEnter, NodeEvent, NodeExit,
  Paused, RunFinished, RunStarted, TensorEvent, TensorInfo, TensorValue, UntrackedOp, VersionBump,
} from "../src/protocol";

const base = { run_id: "r", t: 0 };

/** An inline value: `val([1, 2])`, `val(5)` (a scalar), `val(["nan", 2])`. */
export function val(values: unknown, shape?: number[]): TensorValue {
  const inferred = Array.isArray(values) ? [values.length] : [];
  return { shape: shape ?? inferred, dtype: "float32", values };
}

export function tensorInfo(id: number, o: Partial<TensorInfo> = {}): TensorInfo {
  const value = o.value ?? val([0, 0]);
  return {
    id, shape: value.shape, dtype: "float32", requires_grad: false, is_leaf: true, version: 0, grad_fn: null,
    output_nr: 0, name: null, line: null, grad_mode: "grad", backward: null, value, ...o,
  };
}

export const ev = {
  runStarted: (seq: number, code = ""): RunStarted => ({ ...base, seq, type: "run_started", version: 1, code, options: {} }),
  runFinished: (seq: number, status: RunFinished["status"] = "ok"): RunFinished => ({ ...base, seq, type: "run_finished", status, events: seq + 1, duration_ns: 0 }),
  tensor: (seq: number, info: TensorInfo): TensorEvent => ({ ...base, seq, type: "tensor", tensor: info }),
  node: (seq: number, o: Partial<NodeEvent> & { id: number; name: string }): NodeEvent => ({
    ...base, seq, type: "node", next: [], inputs: [], outputs: [], saved: [], line: null, grad_mode: "grad",
    module_path: null, module_calls: null, variable: null, backward: null, ...o,
  }),
  untracked: (seq: number, o: Partial<UntrackedOp> & { name: string; outputs: TensorInfo[] }): UntrackedOp => ({
    ...base, seq, type: "untracked_op", inputs: [], line: null, grad_mode: "no_grad", module_path: null, module_calls: null, ...o,
  }),
  bump: (seq: number, tensor: number, version: number, value: TensorValue, line: number | null = null): VersionBump => ({
    ...base, seq, type: "version_bump", tensor, version, grad_fn: null, line, value,
  }),
  backwardStarted: (seq: number, o: Partial<BackwardStarted> = {}): BackwardStarted => ({
    ...base, seq, type: "backward_started", backward: 0, roots: [], grad_tensors: [], retain_graph: false, create_graph: false,
    inputs: [], line: null, ...o,
  }),
  backwardFinished: (seq: number): { run_id: string; t: number; seq: number; type: "backward_finished"; backward: number; nodes_run: number } => ({
    ...base, seq, type: "backward_finished", backward: 0, nodes_run: 0,
  }),
  nodeEnter: (seq: number, node: number, o: Partial<NodeEnter> = {}): NodeEnter => ({
    ...base, seq, type: "node_enter", backward: 0, node, grad_outputs: [], queue: [], deps: [], ...o,
  }),
  nodeExit: (seq: number, node: number, grads: (TensorValue | null)[] = [], freed = false): NodeExit => ({
    ...base, seq, type: "node_exit", backward: 0, node, grad_inputs: grads, freed,
  }),
  gradAccumulated: (seq: number, tensor: number, total: TensorValue): GradAccumulated => ({
    ...base, seq, type: "grad_accumulated", backward: 0, node: null, tensor, grad: total, total,
  }),
  hookRegistered: (seq: number, o: Partial<HookRegistered> & { hook: number }): HookRegistered => ({
    ...base, seq, type: "hook_registered", kind: "tensor", target_kind: "tensor", target: null, fn: "<lambda>", line: null, ...o,
  }),
  hookFired: (seq: number, o: Partial<HookFired> & { hook: number }): HookFired => ({
    ...base, seq, type: "hook_fired", kind: "tensor", backward: 0, node: null, grad_in: [], grad_out: null, module_path: null, ...o,
  }),
  paused: (seq: number, node: number | null, why: Paused["why"]): Paused => ({
    ...base, seq, type: "paused", node, backward: 0, where: "before_node", why,
  }),
  error: (seq: number, o: Partial<ErrorEvent> = {}): ErrorEvent => ({
    ...base, seq, type: "error", source: "snippet", error_type: "RuntimeError", message: "", line: null, traceback: "", ...o,
  }),
};
