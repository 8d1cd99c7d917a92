"""Runs one op-table `Case` on a torch-like module and describes the result as plain JSON data.

The same code runs under real PyTorch (tests/fixtures/record.py) and on the engine
(tests/engine/test_ops.py), so the two descriptions can be compared field by field. It never
imports torch itself: the module is passed in.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import io
import pkgutil
import re
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tests.engine.cases import Case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GRAPH_DEPTH = 3
RECORD_HINT = "re-record with: /work/torchenv/bin/python tests/fixtures/record.py {module}"


# -- the table ---------------------------------------------------------------------------
def case_modules() -> list[str]:
    """Names of the modules under tests/engine/cases (discovered, so new families count)."""
    import tests.engine.cases as pkg

    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_"))


def load_cases(module: str) -> list[Case]:
    """The `CASES` list of one case module."""
    mod = importlib.import_module(f"tests.engine.cases.{module}")
    return list(mod.CASES)


def spec(case: Case) -> dict[str, Any]:
    """A case's definition as JSON data: a fixture is stale when this differs."""
    d = dataclasses.asdict(case)
    d["inputs"] = {k: list(v) for k, v in case.inputs.items()}
    d["domain"] = list(case.domain)
    return d


def fixture_path(module: str) -> Path:
    return FIXTURES / f"ops_{module}.json"


def _seed(name: str, salt: int) -> int:
    return zlib.crc32(name.encode()) + salt


# -- inputs ------------------------------------------------------------------------------
def input_arrays(case: Case) -> dict[str, np.ndarray[Any, Any]]:
    """The case's differentiable inputs: float64, uniform in `domain`, seeded by its name."""
    rng = np.random.default_rng(_seed(case.name, 0))
    lo, hi = case.domain
    return {k: rng.uniform(lo, hi, size=shape) for k, shape in case.inputs.items()}


def build(torch: Any, case: Case, arrays: dict[str, np.ndarray[Any, Any]]) -> dict[str, Any]:
    """The namespace an expression is evaluated in: `torch`, setup names, inputs."""
    ns: dict[str, Any] = {"torch": torch}
    if case.setup:
        exec(case.setup, ns)
    for k, a in arrays.items():
        ns[k] = torch.tensor(a.tolist(), dtype=torch.float64, requires_grad=True)
    return ns


def evaluate(torch: Any, case: Case, arrays: dict[str, np.ndarray[Any, Any]]) -> tuple[Any, Any]:
    """(namespace, output) of the case's expression."""
    ns = build(torch, case, arrays)
    return ns, eval(case.expr, ns)


def tensors_of(out: Any, torch: Any) -> list[Any]:
    """The tensors in an output (a tensor, or a tuple / namedtuple / list of them)."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, tuple | list):
        return [o for o in out if isinstance(o, torch.Tensor)]
    return []


def differentiable(outs: list[Any]) -> list[Any]:
    return [o for o in outs if o.requires_grad and o.dtype.is_floating_point]


def upstream(case: Case, outs: list[Any], torch: Any) -> list[Any]:
    """A fixed seeded gradient for each differentiable output."""
    rng = np.random.default_rng(_seed(case.name, 1))
    return [torch.tensor(rng.standard_normal(tuple(o.shape)).tolist(), dtype=o.dtype) for o in outs]


# -- description -------------------------------------------------------------------------
def error(e: BaseException) -> dict[str, str]:
    return {"type": type(e).__name__, "message": str(e)}


def graph(fn: Any, depth: int = GRAPH_DEPTH) -> Any:
    """A grad_fn as {name, next: [[child, input_nr], ...]} down to `depth` levels."""
    if fn is None:
        return None
    d: dict[str, Any] = {"name": fn.name()}
    if depth > 0:
        d["next"] = [[graph(f, depth - 1), nr] for f, nr in fn.next_functions]
    return d


def saved_names(fn: Any) -> list[str] | None:
    if fn is None:
        return None
    return sorted(a[7:] for a in dir(fn) if a.startswith("_saved_"))


def _values(t: Any) -> Any:
    if getattr(t, "_is_zerotensor", lambda: False)():
        # torch hands out storage-less "zero tensors" for some second derivatives
        return np.zeros(tuple(t.shape)).tolist()
    return t.detach().tolist()


def describe_tensor(t: Any) -> dict[str, Any]:
    return {
        "kind": "tensor",
        "shape": list(t.shape),
        "dtype": str(t.dtype),
        "values": _values(t),
        "requires_grad": bool(t.requires_grad),
        "grad_fn": graph(t.grad_fn),
        "saved": saved_names(t.grad_fn),
    }


def describe(out: Any, torch: Any) -> dict[str, Any]:
    """An output as JSON data: tensor, tuple / namedtuple of outputs, or Python scalar."""
    if isinstance(out, torch.Tensor):
        return describe_tensor(out)
    if isinstance(out, tuple | list):
        fields = getattr(out, "_fields", None)
        return {
            "kind": "tuple",
            "type": type(out).__name__,  # `max` for torch.return_types.max
            "fields": list(fields) if fields is not None else None,
            "items": [describe(o, torch) for o in out],
        }
    if isinstance(out, bool | int | float | type(None)):
        return {"kind": "scalar", "type": type(out).__name__, "value": out}
    if isinstance(out, torch.dtype):
        return {"kind": "scalar", "type": "dtype", "value": str(out)}
    return {"kind": "other", "type": type(out).__name__, "value": repr(out)}


def _grads_list(gs: Any) -> list[Any]:
    return [None if g is None else _values(g) for g in gs]


def run_case(torch: Any, case: Case) -> dict[str, Any]:
    """Evaluate a case and describe output, graph, gradients and second derivatives."""
    arrays = input_arrays(case)
    try:
        ns, out = evaluate(torch, case, arrays)
    except Exception as e:
        return {"error": error(e)}
    res: dict[str, Any] = {"output": describe(out, torch)}
    inputs = [ns[k] for k in case.inputs]
    outs = differentiable(tensors_of(out, torch))
    if not outs or not inputs:
        return res
    gs = upstream(case, outs, torch)
    try:
        res["grads"] = _grads_list(
            torch.autograd.grad(outs, inputs, gs, allow_unused=True, retain_graph=True)
        )
    except Exception as e:
        res["grads_error"] = error(e)
        return res
    if case.gradcheck:
        res.update(_second(torch, case, inputs, outs, gs))
    return res


def _second(
    torch: Any, case: Case, inputs: list[Any], outs: list[Any], gs: list[Any]
) -> dict[str, Any]:
    """Gradients of sum(first_grad * w): double backward with a seeded `w`."""
    try:
        first = torch.autograd.grad(outs, inputs, gs, allow_unused=True, create_graph=True)
    except Exception as e:
        return {"grads2_error": error(e)}
    rng = np.random.default_rng(_seed(case.name, 2))
    total = None
    for g in first:
        if g is None or not g.requires_grad:
            continue
        w = torch.tensor(rng.standard_normal(tuple(g.shape)).tolist(), dtype=g.dtype)
        term = (g * w).sum()
        total = term if total is None else total + term
    if total is None:
        return {"grads2": [None] * len(inputs)}
    try:
        second = torch.autograd.grad(total, inputs, allow_unused=True)
    except Exception as e:
        return {"grads2_error": error(e)}
    return {"grads2": _grads_list(second)}


# -- numerical gradients (engine side only) ----------------------------------------------
def numerical_grads(
    torch: Any, case: Case, eps: float = 1e-6
) -> tuple[list[Any], list[np.ndarray[Any, Any]]]:
    """(analytic, numeric) gradients of sum(out * upstream) by central differences."""
    arrays = input_arrays(case)
    ns, out = evaluate(torch, case, arrays)
    outs = differentiable(tensors_of(out, torch))
    gs = upstream(case, outs, torch)
    inputs = [ns[k] for k in case.inputs]
    analytic = torch.autograd.grad(outs, inputs, gs, allow_unused=True)
    g_np = [np.asarray(g.tolist(), dtype=np.float64) for g in gs]

    def loss(arrs: dict[str, np.ndarray[Any, Any]]) -> float:
        # recorded, not under no_grad: an expression may itself call autograd.grad
        _, o = evaluate(torch, case, arrs)
        os_ = [t for t in tensors_of(o, torch) if t.dtype.is_floating_point]
        os_ = os_[: len(g_np)]
        return float(sum((np.asarray(t.tolist()) * g).sum() for t, g in zip(os_, g_np)))

    numeric = [_central(loss, arrays, k, eps) for k in case.inputs]
    return list(analytic), numeric


def _central(
    loss: Callable[[dict[str, np.ndarray[Any, Any]]], float],
    arrays: dict[str, np.ndarray[Any, Any]],
    key: str,
    eps: float,
) -> np.ndarray[Any, Any]:
    base = arrays[key]
    out = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        plus = base.copy()
        plus[idx] += eps
        minus = base.copy()
        minus[idx] -= eps
        out[idx] = (loss({**arrays, key: plus}) - loss({**arrays, key: minus})) / (2 * eps)
    return out


# -- global state ------------------------------------------------------------------------
def reset_engine() -> None:
    """Put the engine's process-wide switches back to PyTorch's defaults."""
    from engine import _dtype, _printing
    from engine.autograd import engine as autograd_engine
    from engine.autograd import observer
    from engine.autograd.grad_mode import ANOMALY, STATE
    from engine.nn.modules import _module_hooks as module_hooks

    STATE.enabled = True
    STATE.inference = False
    STATE.grad = True
    ANOMALY.anomaly = False
    ANOMALY.anomaly_nan = True
    _dtype.set_default_dtype(_dtype.float32)
    _printing.set_printoptions(profile="default")
    observer.SAVED_HOOKS.clear()
    autograd_engine.WARNED.clear()
    # a fresh process has not chosen between full and legacy global backward hooks yet
    if not module_hooks.GLOBAL.backward:
        module_hooks.GLOBAL.backward_is_full = None


# -- snippets ----------------------------------------------------------------------------
SNIPPETS = Path(__file__).resolve().parent / "snippets"
SNIPPETS_JSON = FIXTURES / "snippets.json"
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def snippet_names() -> list[str]:
    return sorted(p.stem for p in SNIPPETS.glob("*.py"))


# a traceback frame of the runner (not of the snippet), with its source line when it has one
# (code run from a string, as pytest-xdist's workers are, has none)
_RUNNER_FRAME = re.compile(r'  File "(?![\w]+\.py")[^"]*", line \d+, in .*\n(?:    .*\n)?')


def normalise(text: str) -> str:
    """Hide object addresses and the runner's own traceback frames (they differ per run)."""
    return _RUNNER_FRAME.sub("", _ADDRESS.sub("0x?", text))


def run_snippet(name: str) -> dict[str, Any]:
    """Run a snippet as `__main__`, capturing stdout, warnings and a final exception."""
    code = (SNIPPETS / f"{name}.py").read_text()
    buf = io.StringIO()
    err: dict[str, str] | None = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(buf):
        warnings.simplefilter("always")
        try:
            exec(compile(code, f"{name}.py", "exec"), {"__name__": "__main__"})
        except Exception as e:
            err = {"type": type(e).__name__, "message": normalise(str(e))}
    return {
        "stdout": normalise(buf.getvalue()),
        "warnings": [normalise(f"{w.category.__name__}: {w.message}") for w in caught],
        "error": err,
    }
