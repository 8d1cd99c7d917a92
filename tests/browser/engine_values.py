"""What the engine's own objects hold, for the page's property test: run a snippet traced (as
the sandbox worker does) in this process and print, as JSON, each in-place version's value (as
the tracer took it at that moment) and, at exit, the values of every tensor the snippet names
(its variables, and the parameters and buffers of its modules), keyed by the tracer's tensor
ids (the ids the page knows).

Run as `python -m tests.browser.engine_values < snippet.py` (it installs the engine as `torch`,
so it runs in its own process)."""

from __future__ import annotations

import builtins
import json
import math
import sys
from typing import Any

DUMP = "__backscope_engine_values__"


def _plain(a: Any) -> list[Any]:
    """Flat values, non-finite ones as strings (JSON has no NaN)."""
    out: list[Any] = []
    for x in a.reshape(-1).tolist():
        if isinstance(x, float) and not math.isfinite(x):
            out.append("nan" if x != x else ("inf" if x > 0 else "-inf"))
        else:
            out.append(x)
    return out


def main() -> None:
    code = sys.stdin.read()
    from engine._tensor import Tensor
    from engine.autograd import observer
    from engine.nn import Module
    from engine.tracing.run import run_snippet

    final: dict[str, dict[str, Any]] = {}

    def dump(ns: dict[str, Any]) -> None:
        tr = observer.TRACER
        tr.flush()  # ids are given when a batch is built: build the last one first
        named: list[tuple[str, Any]] = []
        for k, v in ns.items():
            if isinstance(v, Tensor):
                named.append((k, v))
            elif isinstance(v, Module):
                named.extend((f"{k}.{n}", p) for n, p in v.named_parameters())
                named.extend((f"{k}.{n}", b) for n, b in v.named_buffers())
        for name, t in named:
            tid = tr.tensors.get(t)
            if tid is None or tid not in tr.described or t.dtype.is_complex:
                continue
            final.setdefault(
                str(tid), {"name": name, "shape": list(t.shape), "values": _plain(t._d)}
            )

    events: list[dict[str, Any]] = []
    setattr(builtins, DUMP, dump)
    # the sandbox's options, so ids are given in the same order as in the page's run (a large
    # gradient gets an id); a large version's value is then a summary, compared by its stats
    run_snippet(code + f"\n{DUMP}(globals())\n", events.extend)
    failed = [e for e in events if e["type"] == "error" and DUMP in str(e.get("traceback"))]
    if failed:
        raise RuntimeError(f"the dump of final values failed: {failed[-1].get('traceback')}")
    bumps = [
        {"tensor": str(e["tensor"]), "version": e["version"], "value": e["value"]}
        for e in events
        if e["type"] == "version_bump" and e["tensor"] is not None
    ]
    json.dump({"final": final, "bumps": bumps}, sys.stdout)


if __name__ == "__main__":
    main()
