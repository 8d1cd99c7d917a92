"""`gradcheck` / `gradgradcheck`: analytical Jacobians (backward) against central differences.

Slow mode only, as PyTorch's default: the numerical Jacobian perturbs each input element by
±eps in place; the analytical one runs one vector-Jacobian product per output element.
`fast_mode=True` is accepted and runs the same (stricter) slow check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype, _tensor
from engine._warn import warn
from engine.autograd.run_backward import grad as autograd_grad

if TYPE_CHECKING:
    from engine._tensor import Tensor

Array = np.ndarray[Any, Any]

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Error raised by `gradcheck` and `gradgradcheck`."""


# tracebacks name the class as PyTorch's does: torch.autograd.gradcheck.GradcheckError
GradcheckError.__module__ = "torch.autograd.gradcheck"


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable_outputs(x: Any) -> tuple[Tensor, ...]:
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _check_inputs(inputs: tuple[Any, ...]) -> None:
    any_rg = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, _tensor.Tensor) and inp.requires_grad:
            if inp._d.dtype != np.float64 and _dtype.kind(inp._d.dtype) != "c":
                warn(
                    f"Input #{idx} requires gradient and is not a double precision floating "
                    "point or complex. This check will likely fail if all the inputs are not "
                    "of double precision floating point or complex. ",
                )
            any_rg = True
    if not any_rg:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them "
            "have requires_grad=True."
        )


def _wrap(a: Array) -> Tensor:
    # np.ascontiguousarray would turn a 0-dim array into shape (1,)
    return _tensor.make(np.asarray(a, order="C"), False, None, 0)


def _numerical(func: Callable[..., Any], inputs: tuple[Any, ...], eps: float) -> list[list[Array]]:
    """numerical[i][o]: Jacobian of output o w.r.t. input i, shape (input numel, output numel)."""
    out: list[list[Array]] = []
    for inp in inputs:
        if not (isinstance(inp, _tensor.Tensor) and inp.requires_grad):
            continue
        data = inp._d  # perturbed in place, as PyTorch's `entry.copy_(orig - v)`
        cols: list[list[Array]] = []
        for k in range(data.size):
            idx = np.unravel_index(k, data.shape)
            orig = data[idx].copy()
            data[idx] = orig - eps
            outa = [np.array(o._d) for o in _as_tuple(func(*inputs))]
            data[idx] = orig + eps
            outb = [np.array(o._d) for o in _as_tuple(func(*inputs))]
            data[idx] = orig
            cols.append([((b - a) / (2 * eps)).reshape(-1) for a, b in zip(outa, outb)])
        n_out = len(cols[0]) if cols else 0
        out.append(
            [np.stack([c[o] for c in cols]) if cols else np.zeros((0, 0)) for o in range(n_out)]
        )
    return out


def _analytical_rows(output: Tensor, diff_inputs: list[Tensor]) -> list[Array]:
    """Jacobian of `output` w.r.t. each input, one backward per output element."""
    jac = [np.zeros((t.numel(), output.numel()), dtype=t._d.dtype) for t in diff_inputs]
    flat_shape = output._d.shape
    for j in range(output.numel()):
        g = np.zeros(output.numel(), dtype=output._d.dtype)
        g[j] = 1
        grads = autograd_grad(
            output,
            diff_inputs,
            _wrap(g.reshape(flat_shape)),
            retain_graph=True,
            allow_unused=True,
        )
        for i, gi in enumerate(grads):
            if gi is not None:
                if gi._d.size != jac[i].shape[0]:
                    raise GradcheckError("Analytical gradient has incorrect size")
                jac[i][:, j] = gi._d.reshape(-1)
    return jac


def _analytical(output: Tensor, inputs: tuple[Any, ...], nondet_tol: float) -> list[Array]:
    diff_inputs = [t for t in inputs if isinstance(t, _tensor.Tensor) and t.requires_grad]
    first = _analytical_rows(output, diff_inputs)
    second = _analytical_rows(output, diff_inputs)
    for a, b in zip(first, second):
        if a.shape != b.shape or (np.abs(a - b) > nondet_tol).any():
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                f"gradient matches numerical gradient.The tolerance for nondeterminism was "
                f"{nondet_tol}.\n\nNOTE: If your op relies on non-deterministic operations "
                "i.e., it is listed here:\nhttps://pytorch.org/docs/stable/generated/"
                "torch.use_deterministic_algorithms.html\nthis failure might be expected.\n\n"
                "If you are adding a new operator, please file an issue and then use one of "
                "the workarounds. The workaround depends on how your test invokes gradcheck/"
                "gradgradcheck.\nIf the test\n- manually invokes gradcheck/gradgradcheck, then "
                "call gradcheck/gradgradcheck with `nondet_tol=<tol>` as a keyword argument.\n"
                "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo "
                "for the test to have `gradcheck_nondet_tol=<tol>`.\n- is a Module test (e.g., "
                "in common_nn.py), then modify the corresponding module_test entry to have "
                "`gradcheck_nondet_tol=<tol>`\n"
            )
    return first


def _mismatch(analytical: Array, numerical: Array, out_idx: int, in_idx: int) -> str:
    return (
        f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
        f"numerical:{_wrap(numerical)}\nanalytical:{_wrap(analytical)}\n"
    )


def _fast_mismatch(analytical: Array, numerical: Array, out_idx: int, in_idx: int) -> str:
    """PyTorch's fast-mode report: u^T J v for random unit u, v, then the slow Jacobians.

    The engine checks slow-mode Jacobians always; the projections use its own random vectors,
    so the two leading numbers differ from PyTorch's (its generator is not ours).
    """
    rng = np.random.default_rng(42)
    u = rng.random(analytical.shape[0])
    v = rng.random(analytical.shape[1])
    u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
    diff = float(np.abs(numerical - analytical).max())
    return (
        f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
        f"numerical:{float(u @ numerical @ v)}\nanalytical:{float(u @ analytical @ v)}\n"
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background "
        "\nabout fast mode. Below, we recompute numerical and analytical jacobians in slow "
        f"mode:\n\nNumerical:\n {_wrap(numerical)}\nAnalytical:\n{_wrap(analytical)}\n\n"
        f"The max per-element difference (slow mode) is: {diff}.\n"
    )


def _slow_gradcheck(
    func: Callable[..., Any],
    func_out: Any,
    inputs: tuple[Any, ...],
    outputs: tuple[Tensor, ...],
    eps: float,
    rtol: float,
    atol: float,
    nondet_tol: float,
    fast_mode: bool = False,
) -> None:
    outs = _as_tuple(func_out)
    numerical = _numerical(func, inputs, eps)
    if not outputs:
        for per_input in numerical:
            for jac in per_input:
                if (jac != 0).any():
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    # transpose to [output][input], keeping only the outputs that require grad
    by_out = [[numerical[i][o] for i in range(len(numerical))] for o in range(len(outs))]
    by_out = [nj for o, nj in zip(outs, by_out) if o.requires_grad]
    for i, o in enumerate(outputs):
        analytical = _analytical(o, inputs, nondet_tol)
        for j, (a, n) in enumerate(zip(analytical, by_out[i])):
            if not np.allclose(a, n.astype(np.result_type(a, n)), rtol=rtol, atol=atol):
                msg = _fast_mismatch(a, n, i, j) if fast_mode else _mismatch(a, n, i, j)
                raise GradcheckError(msg)


def _test_backward_mul_by_grad_output(outputs: tuple[Tensor, ...], inputs: tuple[Any, ...]) -> None:
    diff_inputs = [t for t in inputs if isinstance(t, _tensor.Tensor) and t.requires_grad]
    zeros = [_wrap(np.zeros_like(o._d)) for o in outputs]
    grads = autograd_grad(outputs, diff_inputs, zeros, allow_unused=True)
    for gi, di in zip(grads, diff_inputs):
        if gi is None:
            continue
        if gi._d.dtype != di._d.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi._d.shape != di._d.shape:
            raise GradcheckError("grad is incorrect size")
        if (gi._d != 0).any():
            raise GradcheckError("backward not multiplied by grad_output")


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """Check backward's gradients against finite differences (float64 inputs).

    >>> x = torch.randn(3, dtype=torch.double, requires_grad=True)
    >>> torch.autograd.gradcheck(torch.sin, (x,))
    True
    """
    tupled = _as_tuple(inputs)
    from engine.autograd.gradcheck_complex import realify

    func, tupled = realify(func, tupled)  # complex: the same check on real (re, im) pairs
    try:
        _check_inputs(tupled)
        func_out = func(*tupled)
        outputs = _differentiable_outputs(func_out)
        if check_backward_ad:
            _slow_gradcheck(func, func_out, tupled, outputs, eps, rtol, atol, nondet_tol, fast_mode)
            if outputs:
                _test_backward_mul_by_grad_output(outputs, tupled)
        if check_forward_ad:
            from engine.autograd.forward_check import check_forward_ad as check_fw

            check_fw(func, tupled, eps, rtol, atol)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """Check second derivatives: gradcheck of the function `inputs, v -> vJ`."""
    tupled = _as_tuple(inputs)
    if grad_outputs is None:
        # random grad outputs in [-1, 1), as torch.testing.make_tensor draws them
        outs = _differentiable_outputs(func(*tupled))
        rng = np.random.default_rng(0)
        tupled_go: tuple[Any, ...] = tuple(
            _tensor.make(rng.uniform(-1, 1, o._d.shape).astype(_go_dtype(o)), True, None, 0)
            for o in outs
        )
    else:
        tupled_go = _as_tuple(grad_outputs)
    n_out = len(tupled_go)
    diff_in = {i for i, x in enumerate(tupled) if isinstance(x, _tensor.Tensor) and x.requires_grad}
    diff_go = {i for i, x in enumerate(tupled_go) if x.requires_grad}

    def new_func(*args: Any) -> tuple[Tensor, ...]:
        input_args = tuple(
            x.requires_grad_() if i in diff_in else x for i, x in enumerate(args[:-n_out])
        )
        outputs = _differentiable_outputs(func(*input_args))
        gos = tuple(x.requires_grad_() if i in diff_go else x for i, x in enumerate(args[-n_out:]))
        diff_args = [x for i, x in enumerate(input_args) if i in diff_in]
        grads = autograd_grad(outputs, diff_args, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        new_func,
        tupled + tupled_go,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        fast_mode=fast_mode,
    )


def _go_dtype(o: Tensor) -> Any:
    return o._d.dtype if _dtype.kind(o._d.dtype) in "fc" else np.float64


def get_numerical_jacobian(
    fn: Callable[..., Any], inputs: Sequence[Any], eps: float = 1e-3
) -> tuple[Tensor, ...]:
    """Numerical Jacobians of a single-output `fn` w.r.t. each input that requires grad."""
    return tuple(_wrap(j[0]) for j in _numerical(fn, _as_tuple(inputs), eps))
