"""torch.nn on the engine against scenarios recorded from PyTorch (tests/fixtures/record_nn.py),
plus module behaviour checked directly (init distributions, hooks, modes, imports)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import cache
from typing import Any

import numpy as np
import pytest

import engine
from engine import nn
from engine.nn import functional as F
from tests.fixtures import record_nn

MODULES = record_nn.FIXTURES / "nn_modules.json"


@cache
def recorded(name: str) -> Any:
    return json.loads((record_nn.FIXTURES / f"{name}.json").read_text())["data"]


def same(got: Any, want: Any, where: str = "", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Nested JSON data equal: floats within tolerance, everything else exactly."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{where}: keys"
        for k in want:
            same(got[k], want[k], f"{where}.{k}", rtol, atol)
    elif isinstance(want, list) and want and isinstance(want[0], float | list):
        try:
            w = np.asarray(want, dtype=float)
        except ValueError:  # ragged: compare item by item
            assert isinstance(got, list) and len(got) == len(want), f"{where}: length"
            for i, (g_, w_) in enumerate(zip(got, want)):
                same(g_, w_, f"{where}[{i}]", rtol, atol)
            return
        g = np.asarray(got, dtype=float)
        assert g.shape == w.shape, f"{where}: shape {g.shape} != {w.shape}"
        assert np.allclose(g, w, rtol=rtol, atol=atol), f"{where}: {got} != {want}"
    elif isinstance(want, float):
        assert math.isclose(got, want, rel_tol=rtol, abs_tol=atol), f"{where}: {got} != {want}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(record_nn.MODULE_SCENARIOS))
def test_module_scenario(name: str) -> None:
    got = record_nn.MODULE_SCENARIOS[name](engine)
    same(got, recorded("nn_modules")[name], name)


def test_repr_strings_are_exact() -> None:
    for src, want in recorded("nn_modules")["reprs"].items():
        assert repr(eval(src, {"nn": nn})) == want


# -- module behaviour -----------------------------------------------------------------------
def test_parameter_is_a_leaf_tensor() -> None:
    p = nn.Parameter(engine.zeros(2))
    assert isinstance(p, engine.Tensor) and p.is_leaf and p.requires_grad
    assert repr(p) == "Parameter containing:\ntensor([0., 0.], requires_grad=True)"
    assert not nn.Parameter(engine.zeros(1), requires_grad=False).requires_grad


def test_setattr_registers_and_delattr_forgets() -> None:
    m = nn.Module()
    m.w = nn.Parameter(engine.ones(2))
    m.sub = nn.Linear(2, 2)
    m.register_buffer("b", engine.zeros(1))
    m.register_buffer("tmp", engine.zeros(1), persistent=False)
    assert [n for n, _ in m.named_parameters()] == ["w", "sub.weight", "sub.bias"]
    assert list(m.state_dict()) == ["w", "b", "sub.weight", "sub.bias"]
    del m.w
    assert "w" not in dict(m.named_parameters())
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nope'"):
        _ = m.nope


def test_train_eval_and_dropout() -> None:
    m = nn.Sequential(nn.Dropout(0.5))
    x = engine.ones(100)
    assert m.training and m[0].training
    m.eval()
    assert not m[0].training and m(x) is x
    m.train()
    y = m(x)
    assert set(np.unique(y.numpy())) <= {0.0, 2.0}


def test_zero_grad_and_requires_grad() -> None:
    m = nn.Linear(2, 1)
    m(engine.ones(1, 2)).sum().backward()
    assert m.weight.grad is not None
    m.zero_grad()
    assert m.weight.grad is None
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())


def test_sequential_indexing() -> None:
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    assert len(s) == 3 and isinstance(s[-1], nn.Sigmoid)
    assert isinstance(s[1:], nn.Sequential) and len(s[1:]) == 2
    s.append(nn.Identity())
    assert len(s) == 4
    md = nn.ModuleDict({"a": nn.ReLU()})
    assert "a" in md and list(md.keys()) == ["a"]


def test_module_to_dtype() -> None:
    m = nn.Linear(2, 2).to(engine.float64)
    assert m.weight.dtype == engine.float64
    assert m(engine.ones(1, 2, dtype=engine.float64)).dtype == engine.float64


def test_apply_visits_children_first() -> None:
    seen: list[str] = []
    nn.Sequential(nn.ReLU(), nn.Tanh()).apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["ReLU", "Tanh", "Sequential"]


def test_hook_handles_remove() -> None:
    m = nn.Linear(2, 2)
    calls: list[int] = []
    h = m.register_forward_hook(lambda *a: calls.append(1))
    m(engine.ones(1, 2))
    h.remove()
    m(engine.ones(1, 2))
    assert calls == [1]


# -- init ----------------------------------------------------------------------------------
def test_default_init_bounds() -> None:
    # Linear / Conv: kaiming_uniform_(a=sqrt(5)) = U(-1/sqrt(fan_in), 1/sqrt(fan_in))
    m = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    w = m.weight.detach().numpy()
    assert w.min() >= -bound and w.max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    c = nn.Conv2d(4, 8, 3)
    assert abs(c.bias.detach().numpy()).max() <= 1 / math.sqrt(36)


def test_init_distributions() -> None:
    t = engine.empty(200, 300)
    nn.init.xavier_normal_(t)
    assert abs(t.numpy().std() - math.sqrt(2 / 500)) < 0.003
    nn.init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu")
    assert abs(t.numpy().std() - math.sqrt(2 / 200)) < 0.003
    nn.init.trunc_normal_(t, std=1.0, a=-0.5, b=0.5)
    assert t.numpy().min() >= -0.5 and t.numpy().max() <= 0.5
    nn.init.eye_(t)
    assert t.numpy()[:200, :200].trace() == 200
    assert nn.init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2 / 1.04)
    assert nn.init.calculate_gain("tanh") == 5 / 3


def test_init_runs_without_recording() -> None:
    p = nn.Parameter(engine.zeros(3))
    nn.init.uniform_(p)
    assert p.grad_fn is None and p.is_leaf


def test_install_as_torch_submodules() -> None:
    code = (
        "import engine; engine.install_as_torch()\n"
        "import torch\n"
        "import torch.nn.functional as F\n"
        "from torch import nn\n"
        "from torch.nn import functional as F2\n"
        "import torch.optim as optim\n"
        "from torch.optim.lr_scheduler import StepLR\n"
        "from torch.nn.utils import clip_grad_norm_\n"
        "import torch.nn.init as init\n"
        "from torch.nn.parameter import Parameter\n"
        "assert clip_grad_norm_ and init.kaiming_uniform_ and Parameter is nn.Parameter\n"
        "assert F is F2 and nn is torch.nn and optim is torch.optim and StepLR\n"
        "print(nn.Linear(1, 1))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "Linear(in_features=1, out_features=1, bias=True)\n"


def test_relu_inplace_returns_input() -> None:
    x = engine.tensor([-1.0, 2.0])
    assert F.relu(x, inplace=True) is x and x.tolist() == [0.0, 2.0]


def test_hessian_vector_product_through_conv_pool_pad() -> None:
    """create_graph through conv, pools, padding and embedding: H v equals finite differences."""
    rng = np.random.default_rng(0)
    w = engine.tensor(rng.standard_normal((2, 2, 3, 3)))

    def f(x: engine.Tensor) -> engine.Tensor:
        y = F.conv2d(x, w, padding=1)
        y = F.max_pool2d(y, 2) + F.avg_pool2d(y, 2) + F.adaptive_avg_pool2d(y, (2, 3)).sum()
        y = F.pad(F.pad(y, (1, 1, 0, 0), mode="reflect"), (0, 1))
        return (F.conv2d(y, w) ** 2).sum()

    def grad_at(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        x = engine.tensor(a, requires_grad=True)
        return np.asarray(engine.autograd.grad(f(x), x)[0].tolist())

    x0 = rng.standard_normal((1, 2, 6, 6))
    v = rng.standard_normal(x0.shape)
    x = engine.tensor(x0, requires_grad=True)
    (g,) = engine.autograd.grad(f(x), x, create_graph=True)
    (hv,) = engine.autograd.grad((g * engine.tensor(v)).sum(), x)
    eps = 1e-6
    numeric = (grad_at(x0 + eps * v) - grad_at(x0 - eps * v)) / (2 * eps)
    assert np.allclose(np.asarray(hv.tolist()), numeric, rtol=1e-5, atol=1e-5)
