"""Toolkit cases run identically on real PyTorch (by the recorder) and on the engine (tests).

Each `case_*` takes the torch-like module and returns plain JSON data. Recorded by
tests/fixtures/record_toolkit.py into tests/fixtures/toolkit.json.
"""

from __future__ import annotations

import importlib
import os
import re
import warnings
from typing import Any

CASES_FILE = os.path.basename(__file__)


def _val(t: Any) -> Any:
    """A tensor (or nested tuple of tensors) as JSON: values, shape, dtype."""
    if isinstance(t, (tuple, list)):
        return [_val(x) for x in t]
    return {
        "values": t.detach().reshape(-1).tolist(),
        "shape": list(t.shape),
        "dtype": str(t.dtype),
    }


def _bad_square(torch: Any) -> Any:
    class BadSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * x  # wrong: should be 2 * g * x

    return BadSquare


def _detached_backward(torch: Any) -> Any:
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * 3 * x.detach() * x.detach()  # right first derivative, no second

    return Cube


def case_gradcheck(torch: Any) -> Any:
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
    GradcheckError = importlib.import_module(f"{torch.__name__}.autograd.gradcheck").GradcheckError

    out: dict[str, Any] = {
        "sin": torch.autograd.gradcheck(torch.sin, (x,)),
        "mul": torch.autograd.gradcheck(lambda a, b: a * b, (x, y)),
        "bad_quiet": torch.autograd.gradcheck(
            _bad_square(torch).apply, (x,), raise_exception=False
        ),
        "gradgrad_exp": torch.autograd.gradgradcheck(lambda a: a.exp() * a, (x,)),
        "gradgrad_bad_first_ok": torch.autograd.gradcheck(_detached_backward(torch).apply, (x,)),
    }
    try:
        torch.autograd.gradcheck(_bad_square(torch).apply, (x,))
    except GradcheckError as e:
        out["bad_error"] = [type(e).__name__, isinstance(e, RuntimeError), str(e)]
    try:
        torch.autograd.gradcheck(_bad_square(torch).apply, (x,), fast_mode=True)
    except GradcheckError as e:
        # the first lines hold random projections (each library's own generator)
        lines = str(e).split("\n")
        out["fast_error"] = [lines[0], lines[1][:10], lines[2][:11], *lines[3:]]
    go = torch.tensor([1.0, -0.5], dtype=torch.float64, requires_grad=True)
    try:
        torch.autograd.gradgradcheck(_detached_backward(torch).apply, (x,), (go,))
    except GradcheckError as e:
        out["gradgrad_error"] = str(e)
    out["gradgrad_quiet"] = torch.autograd.gradgradcheck(
        _detached_backward(torch).apply, (x,), (go,), raise_exception=False
    )
    try:
        torch.autograd.gradcheck(torch.sin, (torch.tensor([1.0], dtype=torch.float64),))
    except ValueError as e:
        out["no_rg"] = str(e)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        xf = torch.tensor([1.0, 2.0], requires_grad=True)
        out["float32"] = torch.autograd.gradcheck(lambda a: a * 3, (xf,), raise_exception=False)
    out["float32_warnings"] = [str(w.message) for w in ws]
    return out


def _trace_lines(message: str) -> list[str]:
    """The anomaly warning with only this file's frames (paths reduced to the file name)."""
    lines = message.split("\n")
    if len(lines) == 1:
        return lines
    keep = [lines[0]]
    for i, line in enumerate(lines[1:-1], start=1):
        if line.startswith("  File ") and CASES_FILE in line:
            keep.append(re.sub(r'"[^"]*"', f'"{CASES_FILE}"', line))
            keep.append(lines[i + 1])
    keep.append(lines[-1])
    return keep


def _log_of(y: Any) -> Any:
    return y.log()


def case_anomaly(torch: Any) -> Any:
    out: dict[str, Any] = {"enabled_before": torch.is_anomaly_enabled()}
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            out["enabled_inside"] = torch.is_anomaly_enabled()
            y = x.sqrt()
            w = _log_of(y)
            try:
                (w * 0).sum().backward()
            except RuntimeError as e:
                out["error"] = str(e)
        out["enabled_after"] = torch.is_anomaly_enabled()
        w2 = x.log()  # made outside anomaly mode: no forward trace
        with torch.autograd.set_detect_anomaly(True, check_nan=True):
            try:
                (w2 * 0).sum().backward()
            except RuntimeError as e:
                out["error_no_trace"] = str(e)
    out["warnings"] = [[w.category.__name__, _trace_lines(str(w.message))] for w in ws]
    torch.autograd.set_detect_anomaly(True)
    out["set_fn"] = [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
    torch.autograd.set_detect_anomaly(False)
    out["set_fn_off"] = torch.is_anomaly_enabled()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:  # not a decorator in PyTorch 2.x
            torch.autograd.detect_anomaly(check_nan=False)(lambda: None)
            out["decorator"] = "callable"
        except TypeError as e:
            out["decorator"] = str(e)
    x3 = torch.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly(check_nan=False):
            (x3.sqrt().log() * 0).sum().backward()
    out["no_check_nan_grad"] = [str(v) for v in x3.grad.tolist()]
    return out


def case_functional(torch: Any) -> Any:
    fn = torch.autograd.functional
    hessian, hvp, jacobian, jvp, vhp, vjp = fn.hessian, fn.hvp, fn.jacobian, fn.jvp, fn.vhp, fn.vjp

    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    m = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)
    v3 = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)

    def f(a: Any) -> Any:
        return (a * a).exp() * 0.1

    def g(a: Any, b: Any) -> Any:
        return a * b.sum(), (b * b).sum() * a.sum()

    def s(a: Any) -> Any:
        return (a**3).sum() + (a * a.sum()).sum()

    return {
        "jacobian": _val(jacobian(f, x)),
        "jacobian_tuple": _val(jacobian(g, (x[:2], m))),
        "jacobian_create": [jacobian(f, x, create_graph=True).requires_grad],
        "jacobian_vectorize": _val(jacobian(f, x, vectorize=True)),
        "hessian": _val(hessian(s, x)),
        "hessian_tuple": _val(hessian(lambda a, b: (a * b).sum() * a.sum(), (x, v3))),
        "vjp": _val(vjp(f, x, v3)),
        "vjp_scalar": _val(vjp(s, x)),
        "jvp": _val(jvp(f, x, v3)),
        "jvp_tuple": _val(jvp(g, (x[:2], m), (x[:2], m))),
        "hvp": _val(hvp(s, x, v3)),
        "vhp": _val(vhp(s, x, v3)),
    }


def case_functional_errors(torch: Any) -> Any:
    jacobian, vjp = torch.autograd.functional.jacobian, torch.autograd.functional.vjp

    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    out: dict[str, Any] = {}
    for name, call in {
        "strict_independent": lambda: jacobian(lambda a: torch.ones(2), x, strict=True),
        "v_none": lambda: vjp(lambda a: a * 2, x),
        "v_size": lambda: vjp(lambda a: a * 2, x, torch.ones(3, dtype=torch.float64)),
        "not_tensor": lambda: jacobian(lambda a: a, [x]),
    }.items():
        try:
            call()
            out[name] = None
        except (RuntimeError, TypeError) as e:
            out[name] = [type(e).__name__, str(e)]
    return out


def case_saved_hooks(torch: Any) -> Any:
    log: list[Any] = []

    def pack(t: Any) -> Any:
        log.append(["pack", list(t.shape), t.requires_grad])
        return t

    def unpack(t: Any) -> Any:
        log.append(["unpack", list(t.shape)])
        return t

    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
        z = y.exp()
        w = (z * 2).sum()
    log.append(["forward done"])
    _ = y.grad_fn._saved_self
    log.append(["accessed"])
    w.backward()
    log.append(["backward done", x.grad.tolist()])

    # packing to a non-tensor and back
    def pack_list(t: Any) -> Any:
        return t.tolist()

    def unpack_list(p: Any) -> Any:
        return torch.tensor(p)

    a = torch.tensor([0.5, 1.5], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack_list, unpack_list):
        b = a.pow(2).sum()
    b.backward()
    with torch.autograd.graph.save_on_cpu():
        c = (a * a).sum()
    c.backward()
    node_is = isinstance(y.grad_fn, torch.autograd.graph.Node)
    return {"log": log, "list_grad": a.grad.tolist(), "node_isinstance": node_is}


def case_profiler_schedule(torch: Any) -> Any:
    """Which ops each `on_trace_ready` call sees under a wait/warmup/active schedule."""
    got: list[Any] = []
    keep = ("ProfilerStep*", "aten::mul", "aten::sum")

    def ready(p: Any) -> None:
        got.append(sorted({e.key for e in p.key_averages() if e.key in keep}))

    x = torch.ones(2, requires_grad=True)
    sched = torch.profiler.schedule(wait=1, warmup=1, active=2)
    with warnings.catch_warnings():  # PyTorch warns that events are cleared per cycle
        warnings.simplefilter("ignore")
        with torch.profiler.profile(schedule=sched, on_trace_ready=ready) as prof:
            for i in range(6):
                (x * i).sum()
                prof.step()
    return got
