// The processed graph model: what the panels draw. Built from wire events by reduce.ts.
import type { CowMap } from "./cowmap";

/** Summary statistics of a tensor's values. */
export interface Stats {
  /** min/max/mean/std/norm are over the finite elements; `nan` and `inf` count the others
   *  (inf counts both signs), so `tensor([nan, 2.])` reads min 2 max 2 with 1 NaN beside it. */
  min: number;
  max: number;
  mean: number;
  std: number;
  norm: number;
  nan: number;
  inf: number;
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
  /** A node made while backward ran (create_graph=True): that backward pass (1-based). */
  madeBy?: number;
  /** A cut vertex: what cut the graph (no_grad, inference_mode, detach, .data,
   *  requires_grad_(False)). */
  cut?: string;
}

/** One version of a tensor: the value it held from `seq` on, and the line that made it. */
export interface VersionEntry {
  version: number;
  seq: number;
  line: number | null;
  value: Value | null;
  /** Values written without the version counter moving (`apply_`, a write through `.data`):
   *  the tensor holds them from here on at the same version. */
  uncounted?: true;
}

/** One hook firing of the current backward pass, in the order the engine ran them. */
export interface Firing {
  seq: number;
  hook: string;
  node: string | null;
  /** A module hook's module (`Net.fc1`). */
  module?: string;
}

/** A backward call (`backward_started`): where, and whether it kept or grew the graph. */
export interface BackwardCall {
  seq: number;
  line: number | null;
  retainGraph: boolean;
  createGraph: boolean;
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
  /** Made without a graph: by an op under no_grad/inference_mode, detach(), .data or
   *  requires_grad_(False), at `line` (why its .grad is None). */
  cutBy?: { how: string; line: number | null };
  /** `retain_grad()` was called on this non-leaf, at this line. */
  retainsGrad?: number | null;
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
  /** A module hook's module path (`Net.fc1`) and class, when known. */
  module?: string;
  moduleType?: string;
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

export type RunStatus = "idle" | "running" | "paused" | "ok" | "error" | "timeout" | "killed" | "limit" | "stopped" | "interrupted";

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
  /** How many vertices were taken back (a provisional cut or a stand-in leaf given way):
   *  whoever copied vertices out (the layout) checks theirs when it moves. */
  removed: number;
  /** Ids of vertices described again after they were added (a name heard later, requires_grad
   *  flipped), in order, with repeats: an append-only array shared like `order`; this state sees
   *  its first `revisedLen` entries. Whoever copied vertices out (the layout sized each box by
   *  its label) redoes the ones named here. */
  revised: string[];
  revisedLen: number;
  tensors: CowMap<TensorInfo>;
  versions: CowMap<number>;
  /** Every version of a tensor the run has shown (version_bump), oldest first. */
  versionLog: CowMap<VersionEntry[]>;
  grads: CowMap<Value>;
  /** A .grad set to None (zero_grad(set_to_none=True), `.grad = None`, a hook): where and by what. */
  gradCleared: CowMap<{ line: number | null; by: string }>;
  /** A .grad written outside backward with a value (zero_grad(set_to_none=False), `.grad = t`,
   *  an in-place write, a hook): where, by what, and whether backward has added to it since. */
  gradSet: CowMap<{ line: number | null; by: string; accumulatedSince: boolean }>;
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
  /** Hook firings of the backward pass the cursor is in (none outside backward). */
  firings: Firing[];
  /** Module forward / forward-pre hook firings of the run so far, in order. */
  forwardFirings: Firing[];
  /** Chunks of a `tensor_values` answer still arriving, by tensor id. */
  valueChunks: Map<string, unknown[]>;
  /** The last op vertex each module path made (module hooks are drawn on it), and module
   *  pre-forward hooks waiting for their call's first op. */
  lastNodeOf: Map<string, string>;
  pendingPre: Map<string, string[]>;
  /** The worker was halted (time limit, stop) and said where it was. */
  halted: { why: string; line: number | null; lines: number[] } | null;
  backwardCalls: BackwardCall[];
  console: ConsoleLine[];
  error: ErrorInfo | null;
  inBackward: boolean;
  backwards: number;
  pausedAt: string | null;
  pauseReason: string;
  modules: string[];
}
