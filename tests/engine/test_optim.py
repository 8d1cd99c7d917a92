"""Optimizer trajectories and schedules against PyTorch (tests/fixtures/record_nn.py)."""

from __future__ import annotations

import pytest

import engine
from engine import optim
from tests.engine.test_nn import recorded, same
from tests.fixtures import record_nn


@pytest.mark.parametrize("name", sorted(record_nn.OPTIMIZERS))
def test_trajectory(name: str) -> None:
    got = record_nn.optim_run(engine, record_nn.OPTIMIZERS[name])
    # same float32 formulas in the same order: agreement to float32 rounding
    same(got, recorded("nn_optim")[name], name, rtol=1e-6, atol=1e-7)


def test_schedulers() -> None:
    same(record_nn.schedulers(engine), recorded("nn_optim")["schedulers"], "lr", rtol=1e-12)


def test_zero_grad_and_closure() -> None:
    p = engine.nn.Parameter(engine.tensor([1.0, 2.0]))
    opt = optim.SGD([p], lr=0.5)

    def closure() -> engine.Tensor:
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 5.0 and p.tolist() == [0.0, 0.0]
    opt.zero_grad(set_to_none=False)
    assert p.grad is not None and p.grad.tolist() == [0.0, 0.0]


def test_state_dict_round_trip() -> None:
    p = engine.nn.Parameter(engine.tensor([1.0, -1.0]))
    opt = optim.Adam([p], lr=0.1)
    p.grad = engine.tensor([0.5, 0.5])
    opt.step()
    sd = opt.state_dict()
    q = engine.nn.Parameter(engine.tensor([1.0, -1.0]))
    opt2 = optim.Adam([q], lr=0.5)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[0]["lr"] == 0.1
    assert opt2.state[q]["exp_avg"].tolist() == opt.state[p]["exp_avg"].tolist()


def test_add_param_group_and_errors() -> None:
    a = engine.nn.Parameter(engine.zeros(1))
    b = engine.nn.Parameter(engine.zeros(1))
    opt = optim.SGD([a], lr=0.1)
    opt.add_param_group({"params": [b], "lr": 0.2})
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.2]
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        optim.Adam([a], lr=-1)
