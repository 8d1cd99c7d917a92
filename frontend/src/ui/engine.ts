// The engine badge: which engine produced the run (backscope's own, or real PyTorch in the
// user's process), with what a real-torch run can and cannot show in its title.
import type { RunState } from "../model/types";

/** What a run recorded from real PyTorch cannot show as the engine's runs do. */
export const REAL_TORCH_LIMITS = [
  "Nodes made during backward (create_graph, reentrant checkpoint) are drawn as they are discovered.",
  "Stepping back replays what was recorded: PyTorch cannot run backwards.",
  "Nodes on an accelerator run on its device threads; the stepper pauses the CPU side.",
  "Values are captured within a bound: large tensors as summaries (and full values while the run lives).",
];

/** Show which engine ran `s` (hidden before a run). */
export function engineBadge(el: HTMLElement, s: RunState): void {
  if (!s.runId) {
    el.hidden = true;
    return;
  }
  const real = s.engine !== "";
  const text = real ? s.engine : "backscope engine";
  if (el.textContent !== text) el.textContent = text;
  el.dataset.engine = real ? "pytorch" : "backscope";
  el.title = real
    ? `Recorded from real ${s.engine} in your own process.\n${REAL_TORCH_LIMITS.map((l) => `• ${l}`).join("\n")}`
    : "Run by backscope's NumPy autograd engine in the server's sandbox.";
  el.hidden = false;
}
