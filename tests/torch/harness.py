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

# Each side in its own interpreter: the engine's run makes `import torch` mean the engine for
# the rest of its process. Both are seeded alike (the engine draws PyTorch's random numbers).
_DRIVER = """
import sys
if sys.argv[1] == "torch":
    import torch
else:
    import engine as torch
torch.manual_seed(0)
from server.cli import main
flags = ["--torch"] if sys.argv[1] == "torch" else []
sys.exit(main(["trace", *flags, *sys.argv[2:]]))
"""


def trace(
    path: Path, out: Path, real: bool, *flags: str, timeout: float = 600
) -> tuple[int, list[dict[str, Any]]]:
    """(exit status, events) of `backscope trace [--torch] path`."""
    side = "torch" if real else "engine"
    cmd = [sys.executable, "-c", _DRIVER, side, str(path), "-o", str(out), *flags]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=timeout, check=False)
    if not out.is_file():
        raise AssertionError(f"{side} trace wrote nothing: {done.stderr.decode()[-2000:]}")
    return done.returncode, [orjson.loads(line) for line in out.read_bytes().splitlines()]


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
