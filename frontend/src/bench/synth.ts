// A synthetic run of a given size (forward graph plus a full backward), for the budget checks:
// a ladder of Mul/Add nodes with a parameter every few nodes, in the server's event shapes.
import type { WireEvent } from "../wire";

export function synthRun(nodes: number, runId = "synth"): WireEvent[] {
  const out: Record<string, unknown>[] = [];
  const ev = (type: string, fields: Record<string, unknown>): void => {
    out.push({ run_id: runId, seq: out.length, t: out.length * 1000, type, ...fields });
  };
  const val = (x: number): Record<string, unknown> => ({ shape: [4], dtype: "float32", values: [x, x, x, x] });
  const tensor = (id: number, leaf: boolean, gradFn: number | null, name: string | null): Record<string, unknown> => ({
    id, shape: [4], dtype: "float32", requires_grad: true, is_leaf: leaf, version: 0, grad_fn: gradFn,
    output_nr: 0, name, line: 3, value: val(id),
  });
  ev("run_started", { version: 1, code: "# synthetic", options: {} });
  let nodeId = 0, tensorId = 0, prev = -1, prev2 = -1;
  const ops: number[] = [];
  const accs: { node: number; tensor: number }[] = [];
  while (nodeId < nodes) {
    const i = ops.length;
    const next: { node: number | null; input_nr: number }[] = [];
    if (i % 4 === 0 || prev < 0) {
      const t = tensorId++;
      ev("tensor", { tensor: tensor(t, true, null, `w${t}`) });
      const acc = nodeId++;
      ev("node", { id: acc, name: "torch::autograd::AccumulateGrad", next: [], inputs: [], outputs: [], saved: [], line: null, grad_mode: "grad", module_path: null, variable: t });
      accs.push({ node: acc, tensor: t });
      next.push({ node: acc, input_nr: 0 });
    }
    if (prev >= 0) next.push({ node: prev, input_nr: 0 });
    if (next.length < 2 && prev2 >= 0) next.push({ node: prev2, input_nr: 0 });
    const id = nodeId++;
    const name = next.length > 1 && i % 2 ? "AddBackward0" : "MulBackward0";
    ev("node", { id, name, next, inputs: [], outputs: [tensor(tensorId++, false, id, null)], saved: [{ name: "self", tensor: tensorId - 1, version: 0 }], line: 4 + (i % 20), grad_mode: "grad", module_path: `layer${Math.floor(i / 200)}`, variable: null });
    ops.push(id);
    prev2 = prev;
    prev = id;
  }
  ev("backward_started", { backward: 0, roots: [{ node: prev, input_nr: 0 }], grad_tensors: [null], retain_graph: false, create_graph: false, inputs: [], line: 30 });
  for (let k = ops.length - 1; k >= 0; k--) {
    const n = ops[k] as number;
    ev("node_enter", { backward: 0, node: n, grad_outputs: [val(1)], queue: k > 0 ? [ops[k - 1]] : [], deps: [{ node: n, count: 0 }] });
    ev("node_exit", { backward: 0, node: n, grad_inputs: [val(2), val(3)], freed: true });
  }
  for (const a of accs) {
    ev("node_enter", { backward: 0, node: a.node, grad_outputs: [val(1)], queue: [], deps: [] });
    ev("grad_accumulated", { backward: 0, node: a.node, tensor: a.tensor, grad: val(1), total: val(1) });
    ev("node_exit", { backward: 0, node: a.node, grad_inputs: [], freed: false });
  }
  ev("backward_finished", { backward: 0, nodes_run: nodeId });
  ev("run_finished", { status: "ok", events: out.length + 1, duration_ns: 1 });
  // the shapes above follow server/protocol.py field for field
  return out as unknown as WireEvent[];
}
