// What the error banner says: where a run failed or was stopped, and where to look (only what
// is really there: a red node needs a node, a red line needs a line).
import type { RunState } from "./types";
import { shortName } from "./naming";

/** The run ended by a limit or a stop, not by an exception of its own. */
export function wasStopped(s: RunState): boolean {
  return s.status === "timeout" || s.status === "limit" || s.status === "killed" || s.status === "stopped" || s.status === "interrupted";
}

/** "raised at line 5 · in MulBackward0 · …", or for a stopped run the line it was running. */
export function errorWhere(s: RunState, blame: number | null): string {
  const e = s.error;
  if (!e) return "";
  const node = e.node !== null ? s.vertices.get(e.node) : undefined;
  const parts: string[] = [];
  if (wasStopped(s)) parts.push(e.line !== null ? `stopped while running line ${e.line}` : "stopped; the line it was running is not known");
  else if (e.line !== null) parts.push(`raised at line ${e.line}`);
  if (node) parts.push(`in ${shortName(node.name)}${node.line !== null ? ` (line ${node.line})` : ""}`);
  if (blame !== null) parts.push(`tensor modified in place at line ${blame}`);
  if (e.anomalyLine !== null) parts.push(`forward line ${e.anomalyLine} made the NaN`);
  return parts.join(" · ");
}

/** Where to look after an error or a stop. */
export function errorHint(s: RunState, blame: number | null): string {
  const e = s.error;
  if (!e) return "";
  const hasNode = e.node !== null && s.vertices.has(e.node);
  const line = blame ?? e.anomalyLine ?? e.line;
  const marks = [hasNode ? "the red node" : "", line !== null ? "the red line in the editor" : ""].filter(Boolean);
  const graph = s.vertices.size > 0 ? (wasStopped(s) ? "The graph built before the run was stopped is kept" : "The graph built before the error is kept") : "";
  const where = marks.length ? `${marks.join(" and ")} mark${marks.length > 1 ? "" : "s"} where it ${wasStopped(s) ? "was" : "failed"}` : "";
  const text = [graph, where].filter(Boolean).join(": ");
  const tail = wasStopped(s) ? "" : "the full traceback is in the console.";
  const out = text && tail ? `${text}; ${tail}` : text ? `${text}.` : tail;
  return out.charAt(0).toUpperCase() + out.slice(1);
}
