"""Real torch's process-wide switches put back around each test (scripts run in this process)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch

from tests.fixtures import torchvision_cpu

# example 05 imports torchvision: the wheel the test venv gets is built against a CUDA torch,
# and its compiled operators do not register with the CPU torch (the examples use none of them)
torchvision_cpu.load()


@pytest.fixture(autouse=True)
def _fresh_torch_state() -> Iterator[None]:
    yield
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    torch.set_default_dtype(torch.float32)
    torch.set_printoptions(profile="default")
