"""Forward-mode AD and torch.func against independently derived values (no torch import)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import engine
from engine.autograd import forward_ad as fwAD
from engine.autograd.forward_ad import FW

torch: Any = engine
pytestmark = pytest.mark.filterwarnings(
    "ignore:`torch.jit.script` is deprecated:DeprecationWarning"
)


def test_tangent_matches_central_difference() -> None:
    x = torch.tensor([[0.3, -0.7, 1.1], [0.2, 0.9, -1.4]], dtype=torch.float64)
    v = torch.tensor([[1.0, 0.5, -1.0], [0.25, 2.0, 1.0]], dtype=torch.float64)

    def f(a: Any) -> Any:
        return (a.tanh() @ a.t()).softmax(-1).log() * a.sum()

    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent
    eps = 1e-6
    fd = (f(x + eps * v) - f(x - eps * v)) / (2 * eps)
    assert tangent is not None
    np.testing.assert_allclose(tangent.numpy(), fd.numpy(), rtol=1e-6, atol=1e-8)


def test_level_state_restored_and_tangents_deleted() -> None:
    with fwAD.dual_level():
        y = fwAD.make_dual(torch.ones(2), torch.ones(2)).exp()
        assert FW.on
    assert not FW.on and FW.level == -1
    assert fwAD.unpack_dual(y).tangent is None
    assert y.grad_fn is None and not y.requires_grad


def test_no_private_node_left_visible() -> None:
    with fwAD.dual_level():
        y = fwAD.make_dual(torch.ones(2), torch.ones(2)).sin()
        assert y.grad_fn is None and y.is_leaf


def test_hessian_matches_analytic() -> None:
    x = torch.tensor([0.5, 2.0])
    h = torch.func.hessian(lambda a: (a**3).sum() + a.prod())(x)
    np.testing.assert_allclose(h.numpy(), [[3.0, 1.0], [1.0, 12.0]], rtol=1e-6)


def test_linearize_and_jvp_agree() -> None:
    x = torch.tensor([0.1, 0.4])
    t = torch.tensor([1.0, -2.0])
    with pytest.warns(UserWarning, match="get_attr Node"):  # PyTorch 2.13's make_fx warns so
        out, fn = torch.func.linearize(lambda a: a.exp() * a, x)
    np.testing.assert_allclose(out.numpy(), (x.exp() * x).numpy())
    expected = ((x.exp() * x + x.exp()) * t).numpy()
    np.testing.assert_allclose(fn(t).numpy(), expected, rtol=1e-6)


def test_make_dual_outside_level() -> None:
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(torch.ones(1), torch.ones(1))


# -- every op of the table: <J v, u> (forward mode) == <v, J^T u> (reverse mode) --------------
def _table() -> list[Any]:
    from tests.engine import harness

    rows = []
    for module in harness.case_modules():
        for case in harness.load_cases(module):
            if case.inputs and case.gradcheck and not case.raises:
                rows.append(pytest.param(case, id=f"{module}-{case.name}"))
    return rows


def _adjoint_gap(case: Any) -> tuple[float, float]:
    from tests.engine import harness

    arrays = harness.input_arrays(case)
    ns, out = harness.evaluate(torch, case, arrays)
    outs = harness.differentiable(harness.tensors_of(out, torch))
    us = harness.upstream(case, outs, torch)
    ins = [ns[k] for k in case.inputs]
    rng = np.random.default_rng(7)
    vs = [rng.uniform(-1, 1, a.shape) for a in arrays.values()]
    grads = torch.autograd.grad(outs, ins, us, allow_unused=True)
    reverse = sum(
        float((g.numpy(force=True) * v).sum()) for g, v in zip(grads, vs) if g is not None
    )
    with fwAD.dual_level():
        ns = harness.build(torch, case, arrays)
        for k, v in zip(case.inputs, vs):
            ns[k] = fwAD.make_dual(ns[k], torch.tensor(v, dtype=torch.float64))
        fout = eval(case.expr, ns)
        tangents = [fwAD.unpack_dual(o).tangent for o in harness.tensors_of(fout, torch)]
        fouts = [t for t, o in zip(tangents, harness.tensors_of(fout, torch)) if o.requires_grad]
        forward = sum(
            float((t.numpy(force=True) * np.conj(u.numpy(force=True))).sum().real)
            for t, u in zip(fouts, us)
            if t is not None
        )
    return forward, reverse


@pytest.mark.parametrize("case", _table())
def test_op_table_tangents(case: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the ops' own warnings (checked by test_ops)
        forward, reverse = _adjoint_gap(case)
    assert forward == pytest.approx(reverse, rel=1e-6, abs=1e-8)


def test_forward_jacobian_of_an_output_no_input_reaches_is_zero() -> None:
    # the output's tangent is None (it does not depend on the duals): its columns are zeros
    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0])
    jac = torch.autograd.functional.jacobian(
        lambda a, b: (a * 2, torch.ones(2)), (x, y), strategy="forward-mode", vectorize=True
    )
    assert [[tuple(j.shape) for j in row] for row in jac] == [[(2, 2), (2, 1)], [(2, 2), (2, 1)]]
    np.testing.assert_array_equal(jac[0][0].numpy(), [[2.0, 0.0], [0.0, 2.0]])
    for j in (jac[0][1], jac[1][0], jac[1][1]):
        assert not j.numpy().any()
