"""A 2-layer MLP trained on the engine follows PyTorch's per-step losses (same start weights)."""

from __future__ import annotations

import engine
from tests.engine.test_nn import recorded, same
from tests.fixtures import record_nn


def test_mlp_losses_match_pytorch_step_by_step() -> None:
    got = record_nn.training(engine)
    want = recorded("nn_training")["mlp"]
    same(got["losses"], want["losses"], "losses", rtol=1e-5, atol=1e-6)
    same(got["final"], want["final"], "weights", rtol=1e-4, atol=1e-5)


def test_cnn_with_adam_matches_pytorch_step_by_step() -> None:
    got = record_nn.cnn_training(engine)
    want = recorded("nn_training")["cnn"]
    same(got["losses"], want["losses"], "losses", rtol=1e-5, atol=1e-6)
    same(got["final"], want["final"], "state", rtol=1e-4, atol=1e-5)
