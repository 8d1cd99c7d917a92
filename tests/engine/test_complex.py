"""Complex autograd checked against finite differences, plus the real path staying untouched.

PyTorch's gradient of a real loss L with respect to a complex z is dL/dre(z) + i dL/dim(z)
(twice the conjugate Wirtinger derivative); the central differences below compute exactly that,
independently of the engine's backward formulas.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import engine as torch
from engine.ops._core import op_nodes
from engine.tracing.values import plain

Fn = Callable[[Any], Any]
W = np.array([0.7 - 0.2j, -1.1 + 0.4j, 0.3 + 0.9j])

FUNCS: dict[str, Fn] = {
    "mul_conj": lambda z: z * z.conj(),
    "div": lambda z: (z + 2) / (z * (1 - 1j) + 3),
    "pow": lambda z: z**3 + z**0.5,
    "exp_log": lambda z: z.exp() + (z + 3).log(),
    "trig": lambda z: z.sin() * z.cos() + z.tanh(),
    "sigmoid_recip": lambda z: z.sigmoid() + (z + 2).reciprocal() + (z + 3).rsqrt(),
    "sqrt": lambda z: (z + 3).sqrt(),
    "abs_angle": lambda z: z.abs() * z.angle(),
    "sgn": lambda z: z.sgn() * 3,
    "polar": lambda z: torch.polar(z.abs(), z.angle() * 2),
    "views": lambda z: torch.view_as_complex(torch.view_as_real(z) * 2) + z.real * z.imag,
    "matmul": lambda z: torch.outer(z, z.conj()) @ z,
    "vdot": lambda z: torch.vdot(z, z * 1j) * z,
    "sum_mean": lambda z: z.sum() * z + z.mean(),
    "mixed_real": lambda z: z.real.to(torch.cdouble) * z + z.abs() * 1j,
}


def _loss(fn: Fn, z: Any) -> Any:
    out = fn(z)
    if out.is_complex():
        return torch.view_as_real(out * torch.tensor(W)).sum() + (out.abs() ** 2).sum()
    return (out * torch.tensor(W.real)).sum()


def _numeric(fn: Fn, z0: np.ndarray[Any, Any], eps: float = 1e-6) -> np.ndarray[Any, Any]:
    grad = np.zeros_like(z0)
    for i in range(z0.size):
        for step in (1.0, 1j):
            hi, lo = z0.copy(), z0.copy()
            hi[i] += eps * step
            lo[i] -= eps * step
            d = (_loss(fn, torch.tensor(hi)).item() - _loss(fn, torch.tensor(lo)).item()) / (
                2 * eps
            )
            grad[i] += d * step
    return grad


@pytest.mark.parametrize("name", FUNCS)
def test_gradient_is_conjugate_wirtinger(name: str) -> None:
    z0 = np.array([0.8 + 0.6j, -0.4 + 1.2j, 1.5 - 0.3j])
    z = torch.tensor(z0, requires_grad=True)
    _loss(FUNCS[name], z).backward()
    assert z.grad is not None and z.grad.dtype == torch.complex128
    np.testing.assert_allclose(z.grad.numpy(), _numeric(FUNCS[name], z0), rtol=1e-6, atol=1e-7)


def test_eig_gradient_matches_finite_differences() -> None:
    a0 = np.array([[0.8, -0.3, 0.5], [0.2, 1.1, -0.7], [-0.4, 0.6, 0.3]])
    w = np.array([[1.0, 0.5, -0.2], [0.3, -1.2, 0.8], [0.6, 0.1, 0.9]])

    def loss(a: Any) -> Any:
        lam, v = torch.linalg.eig(a)
        return (v.abs() * torch.tensor(w)).sum() + (torch.view_as_real(lam) ** 2).sum()

    a = torch.tensor(a0, requires_grad=True)
    loss(a).backward()
    eps, want = 1e-6, np.zeros_like(a0)
    for i in np.ndindex(a0.shape):
        hi, lo = a0.copy(), a0.copy()
        hi[i] += eps
        lo[i] -= eps
        want[i] = (loss(torch.tensor(hi)).item() - loss(torch.tensor(lo)).item()) / (2 * eps)
    assert a.grad is not None and a.grad.dtype == torch.float64
    np.testing.assert_allclose(a.grad.numpy(), want, rtol=1e-5, atol=1e-7)


def test_real_input_gets_real_gradient() -> None:
    x0 = np.array([0.5, -1.0, 2.0])
    x = torch.tensor(x0, requires_grad=True)
    loss = torch.view_as_real(x * (2 + 3j) + x.to(torch.cdouble).exp()).sum()
    loss.backward()
    assert x.grad is not None and x.grad.dtype == torch.float64
    # d/dx of sum(re + im) of (2+3j) x + e^x
    np.testing.assert_allclose(x.grad.numpy(), 5 + np.exp(x0), rtol=1e-12)


def test_real_ops_keep_their_node_classes() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    for out, name in (
        (a * a, "MulBackward0"),
        (a.exp(), "ExpBackward0"),
        (a.abs(), "AbsBackward0"),
    ):
        assert type(out.grad_fn) is op_nodes()[name]
    z = torch.tensor([1 + 1j], requires_grad=True)
    for out, name in (
        (z * z, "MulBackward0"),
        (z.exp(), "ExpBackward0"),
        (z.abs(), "AbsBackward0"),
    ):
        assert out.grad_fn.name() == name and type(out.grad_fn).__name__ == name
        assert type(out.grad_fn) is not op_nodes()[name]  # the complex-aware twin


def test_create_graph_through_complex_ops() -> None:
    # L = |z|^4: z.grad = 4 |z|^2 z; d/dz of sum(re+im) of that, by finite differences
    z0 = np.array([0.8 + 0.6j, -0.4 + 1.2j])
    z = torch.tensor(z0, requires_grad=True)
    (g,) = torch.autograd.grad((z.abs() ** 4).sum(), z, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 4 * np.abs(z0) ** 2 * z0, rtol=1e-12)
    (gg,) = torch.autograd.grad(torch.view_as_real(g).sum(), z)

    def first(v: np.ndarray[Any, Any]) -> float:
        r = 4 * np.abs(v) ** 2 * v
        return float((r.real + r.imag).sum())

    eps, want = 1e-6, np.zeros_like(z0)
    for i in range(z0.size):
        for step in (1.0, 1j):
            hi, lo = z0.copy(), z0.copy()
            hi[i] += eps * step
            lo[i] -= eps * step
            want[i] += (first(hi) - first(lo)) / (2 * eps) * step
    np.testing.assert_allclose(gg.numpy(), want, rtol=1e-6)


def test_gradcheck_complex_catches_a_wrong_gradient() -> None:
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, z: Any) -> Any:
            ctx.save_for_backward(z)
            return z * z

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (z,) = ctx.saved_tensors
            return g * 2 * z  # missing the conjugation

    z = torch.tensor([1 + 2j, 0.5 - 1j], dtype=torch.cdouble, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t * t, (z,))
    assert not torch.autograd.gradcheck(Bad.apply, (z,), raise_exception=False)


def test_traced_complex_values_are_json() -> None:
    a = np.array([[1 + 2j, -0.5j], [np.nan + 1j, 3]], np.complex64)
    got = json.loads(json.dumps(plain(a)))
    assert got == [["1+2j", "-0-0.5j"], ["nan+1j", "3+0j"]]


@pytest.mark.parametrize("name", ["svd", "svdvals", "qr", "eigh", "pinv", "cholesky"])
def test_linalg_not_yet_complex_says_so(name: str) -> None:
    """PyTorch takes complex matrices here; the engine does not yet, and says that plainly
    (it said "Expected a floating point or complex tensor ... Got Complex64")."""
    a = torch.eye(2, dtype=torch.complex64) * (1 + 1j)
    with pytest.raises(NotImplementedError, match="complex input is not supported by backscope"):
        getattr(torch.linalg, name)(a)
