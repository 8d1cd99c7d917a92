"""What the engine's own objects hold, for the page's property test: run a snippet traced (as
the sandbox worker does) in this process and print, as JSON, the values at exit of every tensor
the snippet names (its variables, and the parameters and buffers of its modules), each with the
tracer's id for it and the name the tracer gave it (as the page folds names), so the test can
check that its match with the page's tensors is the right one.

Run as `python -m tests.browser.engine_values < snippet.py` (it installs the engine as `torch`,
so it runs in its own process)."""

from __future__ import annotations

import builtins
import json
import math
import sys
from typing import Any

DUMP = "__backscope_engine_values__"


# Tensors larger than this are described by exact stats and their first values: a resnet's
# weights in full are hundreds of MB of JSON, and the page summarises them anyway.
WHOLE = 4096
HEAD = 64


def _plain(a: Any) -> list[Any]:
    """Flat values, non-finite ones as strings (JSON has no NaN)."""
    out: list[Any] = []
    for x in a.reshape(-1).tolist():
        if isinstance(x, float) and not math.isfinite(x):
            out.append("nan" if x != x else ("inf" if x > 0 else "-inf"))
        else:
            out.append(x)
    return out


def _values(a: Any) -> dict[str, Any]:
    """All values of a small tensor; a large one's NaN/Inf counts, min, max and mean of the
    finite values (in float64), and its first values."""
    import numpy as np

    flat = np.asarray(a).reshape(-1)
    if flat.size <= WHOLE:
        return {"values": _plain(flat)}
    x = flat.astype(np.float64)
    finite = x[np.isfinite(x)]
    stats = {
        "nan": int(np.isnan(x).sum()),
        "inf": int(np.isinf(x).sum()),
        "min": float(finite.min()) if finite.size else "nan",
        "max": float(finite.max()) if finite.size else "nan",
        "mean": float(finite.mean()) if finite.size else "nan",
    }
    return {"stats": stats, "head": _plain(flat[:HEAD])}


def described_names(events: list[dict[str, Any]]) -> dict[str, str]:
    """Tensor id -> name, folded as the page folds tensor descriptions (a later description
    without a name keeps the earlier name)."""
    names: dict[str, str] = {}
    for e in events:
        infos = (
            [e["tensor"]]
            if e["type"] == "tensor"
            else e["outputs"]
            if e["type"] in ("node", "untracked_op")
            else []
        )
        for info in infos:
            tid = str(info["id"])
            names[tid] = info.get("name") or names.get(tid, "")
    return names


def main() -> None:
    code = sys.stdin.read()
    from engine._tensor import Tensor
    from engine.autograd import observer
    from engine.nn import Module
    from engine.tracing.run import run_snippet

    final: dict[str, dict[str, Any]] = {}

    def dump(ns: dict[str, Any]) -> None:
        tr = observer.TRACER
        tr.flush()  # the last batch's descriptions (and names) before the ids are read
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
            final.setdefault(str(tid), {"name": name, "shape": list(t.shape)} | _values(t._d))

    events: list[dict[str, Any]] = []
    setattr(builtins, DUMP, dump)
    run_snippet(code + f"\n{DUMP}(globals())\n", events.extend)
    failed = [e for e in events if e["type"] == "error" and DUMP in str(e.get("traceback"))]
    if failed:
        raise RuntimeError(f"the dump of final values failed: {failed[-1].get('traceback')}")
    names = described_names(events)
    for tid, t in final.items():
        t["id"] = tid
        t["traced_name"] = names[tid]
    json.dump({"final": list(final.values())}, sys.stdout)


if __name__ == "__main__":
    main()
