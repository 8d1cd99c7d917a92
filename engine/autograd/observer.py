"""The tracer slot: with none installed an op pays one `is None` check.

The tracer (engine/tracing) installs itself here; the engine only calls these methods:
`tensor_made`, `node_made`, `untracked` (an op skipped under no_grad), `before_write` (an
in-place write is about to happen), `rebased` (an in-place op's result is the tensor
written into), `version_bump`,
`hook_registered`, `hook_removed`, `hook_fired`, `saved_unpack`, `module_enter`/`module_exit`
and `drive(steps)` (runs a backward walk, see engine/tracing/stepper.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TRACER: Any = None
# saved_tensors_hooks stack: (pack, unpack) pairs, innermost last.
SAVED_HOOKS: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []


def install(tracer: Any) -> None:
    """Install (or with None, remove) the tracer."""
    global TRACER
    TRACER = tracer
