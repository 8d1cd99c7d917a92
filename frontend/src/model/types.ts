// The processed graph model: what the panels draw. Built from wire events by reduce.ts.
import type { CowMap } from "./cowmap";

/** Summary statistics of a tensor's values. */
export interface Stats {
  min: number;
  max: number;
  mean: number;
  std: number;
  norm: number;
}

/** A tensor's values as far as the client knows them (inline for small, summary for large). */
export interface Value {
  shape: number[];
  dtype: string;
  /** Row-major flat values, when sent inline. */
  flat: number[] | null;
  stats: Stats | null;
  hist: { edges: number[]; counts: number[] } | null;
  /** A complex tensor's elements (then `flat` is null and stats are absent): all of them, or
   *  for a large one the first few the summary sends (`sample`). */
  complex?: { re: number[]; im: number[] } | null;
  /** True when `complex` holds only the summary's first elements. */
  sampled?: boolean;
}

/** A drawn vertex: a grad_fn node, an AccumulateGrad, a leaf tensor, or a graph cut. */
export type VertexKind = "fn" | "accumulate" | "leaf" | "const" | "cut";

export interface SavedRef {
  name: string;
  tensor: string | null;
  versionAtSave: number;
  /** Taken by a saved_tensors_hooks pack hook (`hooked` on the node, then a `saved_pack`). */
  hooked?: boolean;
  /** The type the pack hook returned ("int", "tuple"), and the seq of its `saved_pack`. */
  packedType?: string | null;
  packSeq?: number;
  /** A saved non-tensor (sizes, scalars) as Python prints it. */
  repr?: string;
}

/** Unpacks of a hooked saved tensor: the last one in a backward pass (`backward` 0: none yet),
 *  the node running then, the last one outside backward (a `grad_fn._saved_*` read), and how
 *  many in all. */
export interface Unpack {
  seq: number;
  backward: number;
  during: string | null;
  outsideSeq: number | null;
  count: number;
}

export interface Edge {
  /** Id of the next vertex (toward the leaves). */
  to: string;
  inputNr: number;
}

export interface Vertex {
  id: string;
  kind: VertexKind;
  /** PyTorch node name (MulBackward0) or the tensor's variable name. */
  name: string;
  /** User variable name(s) of the tensor this node produced, if known. */
  label: string;
  seq: number;
  edges: Edge[];
  line: number | null;
  module: string;
  gradMode: string;
  saved: SavedRef[];
  /** The tensor this vertex stands for (leaf/const/cut) or feeds (accumulate). */
  tensor: string | null;
  shape: number[];
  /** The module call this op ran in (`moduleScope`): boxes and layout bands are per call. */
  scope?: string;
}

export interface TensorInfo {
  id: string;
  shape: number[];
  dtype: string;
  requiresGrad: boolean;
  isLeaf: boolean;
  version: number;
  name: string;
  line: number | null;
  gradFn: string | null;
  value: Value | null;
  seq: number;
}

export type NodeRunState = "ready" | "running" | "done" | "freed";

export interface HookInfo {
  id: string;
  target: string;
  /** tensor, node_pre, node_post, post_accumulate (the wire's names). */
  kind: string;
  fired: number;
  lastFiredSeq: number;
  removed: boolean;
  /** Where it was registered and the function's name (`<lambda>`). */
  line: number | null;
  fn: string;
  /** What the last firing saw and returned (grad_out is null when the hook returned None). */
  gradIn: Value[];
  gradOut: Value[] | null;
}

export interface ConsoleLine {
  seq: number;
  stream: "stdout" | "stderr";
  text: string;
}

export interface ErrorInfo {
  seq: number;
  kind: string;
  message: string;
  line: number | null;
  node: string | null;
  traceback: string;
  anomalyLine: number | null;
}

export type RunStatus = "idle" | "running" | "paused" | "ok" | "error" | "timeout" | "killed" | "limit";

/** The whole run as of one cursor position. Values in maps are replaced, never mutated. */
export interface RunState {
  seq: number;
  runId: string;
  code: string;
  status: RunStatus;
  /** What ran the code: "" for backscope's engine, else e.g. "PyTorch 2.13.0" (real torch in
   *  the user's own process); run_started's `engine`. */
  engine: string;
  vertices: CowMap<Vertex>;
  /** Vertex ids in arrival order: an append-only array shared by every state of a run;
   *  this state sees its first `orderLen` entries (read them with `vertexOrder`). */
  order: string[];
  orderLen: number;
  tensors: CowMap<TensorInfo>;
  versions: CowMap<number>;
  grads: CowMap<Value>;
  nodeState: CowMap<NodeRunState>;
  /** Gradient that flowed along an edge, keyed `${from}>${edgeIndex}`. */
  edgeGrads: CowMap<Value>;
  gradOutputs: CowMap<Value[]>;
  /** Unpacks of hooked saved tensors, keyed `${node}|${name}` (`model/saved.ts`). */
  unpacked: CowMap<Unpack>;
  current: string | null;
  readyQueue: string[];
  deps: Map<string, number>;
  hooks: Map<string, HookInfo>;
  lastHook: string | null;
  console: ConsoleLine[];
  error: ErrorInfo | null;
  inBackward: boolean;
  backwards: number;
  pausedAt: string | null;
  pauseReason: string;
  modules: string[];
}
