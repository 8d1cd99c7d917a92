"""Helpers for the real-torch tests: run a script through `backscope trace` (real torch with
`--torch`, else backscope's engine) in a fresh interpreter, and read what a stream says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/*.py"))

# The engine's side runs in an interpreter of its own (its runs make `import torch` mean the
# engine for the rest of the process), all scripts in one go; real torch runs in the test's
# process. Both are seeded alike and start in float32 before each script (the engine draws
# PyTorch's numbers).
_ENGINE_DRIVER = """
import sys
import engine
from server.cli import main
pairs = sys.argv[1:]
for src, out in zip(pairs[::2], pairs[1::2]):
    engine.manual_seed(0)
    engine.set_default_dtype(engine.float32)  # as a fresh process starts
    main(["trace", src, "-o", out])
"""


def engine_traces(scripts: dict[str, Path], out_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """The engine's event stream of each script (`backscope trace`), by name."""
    outs = {name: out_dir / f"{name}.engine.jsonl" for name in scripts}
    args = [str(a) for name in scripts for a in (scripts[name], outs[name])]
    done = subprocess.run(
        [sys.executable, "-c", _ENGINE_DRIVER, *args],
        cwd=ROOT,
        capture_output=True,
        timeout=1800,
        check=False,
    )
    missing = [name for name, out in outs.items() if not out.is_file()]
    assert not missing, (missing, done.stderr.decode()[-3000:])
    return {name: _read(out) for name, out in outs.items()}


def torch_trace(src: Path, out: Path) -> tuple[int, list[dict[str, Any]]]:
    """(exit status, events) of `backscope trace --torch src`, in this process."""
    import torch

    from server.cli import main

    torch.manual_seed(0)
    torch.set_default_dtype(torch.float32)  # as a fresh process starts
    try:
        rc = main(["trace", "--torch", str(src), "-o", str(out)])
    finally:
        torch.set_default_dtype(torch.float32)
    return rc, _read(out)


def _read(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def hook_order(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(kind, function name) of every hook as it fired."""
    names = {e["hook"]: e["fn"] for e in of(events, "hook_registered")}
    return [(e["kind"], names.get(e["hook"], "?")) for e in of(events, "hook_fired")]


def node_names(events: list[dict[str, Any]]) -> dict[int, str]:
    return {e["id"]: e["name"] for e in of(events, "node")}


def execution(events: list[dict[str, Any]]) -> list[list[str]]:
    """Per backward pass, the names of the nodes in the order they ran."""
    names = node_names(events)
    passes: dict[int, list[str]] = {}
    for e in of(events, "node_enter"):
        passes.setdefault(e["backward"], []).append(names[e["node"]])
    return [passes[k] for k in sorted(passes)]


def flat(value: Any) -> list[float]:
    """A wire value's numbers, flat (non-finite as floats)."""
    if value is None:
        return []
    v = value.get("values", value.get("sample")) if isinstance(value, dict) else value
    out: list[float] = []

    def walk(x: Any) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
        elif isinstance(x, str):
            out.append(float(x.replace("inf", "Infinity")) if "j" not in x else float("nan"))
        elif isinstance(x, bool | int | float):
            out.append(float(x))

    walk(v)
    return out


def exit_grads(events: list[dict[str, Any]]) -> list[tuple[str, list[list[float]]]]:
    """(node name, its outgoing gradients) for every node exit, in order."""
    names = node_names(events)
    return [
        (names[e["node"]], [flat(g) for g in e["grad_inputs"]]) for e in of(events, "node_exit")
    ]


def accumulated(events: list[dict[str, Any]]) -> list[list[float]]:
    """Every leaf's `.grad` after each accumulation, in order."""
    return [flat(e["total"]) for e in of(events, "grad_accumulated")]
