"""`import torchvision` inside a snippet is the engine's vision package, as `import torch` is
the engine; it ships no pretrained weights and says so instead of trying to download."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNIPPET = """
import engine
engine.install_as_torch()
import torchvision
from torchvision.models import resnet18, ResNet18_Weights
import torchvision.transforms.functional as TF
print(torchvision.models.resnet18 is resnet18, TF.hflip.__module__)
for weights in ("IMAGENET1K_V1", ResNet18_Weights.DEFAULT):
    try:
        resnet18(weights=weights)
    except RuntimeError as e:
        print(e)
try:
    torchvision.models.vgg11(pretrained=True)
except RuntimeError as e:
    print(e)
print(type(resnet18(weights=None)).__name__)
"""


def test_torchvision_is_the_engine_and_refuses_weights() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SNIPPET], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "True engine.vision.transforms.functional"
    assert lines[1] == (
        "resnet18(weights='IMAGENET1K_V1'): backscope has no pretrained weights (nothing can be "
        "downloaded here); build the model with weights=None for a randomly initialised one"
    )
    assert lines[2].startswith("resnet18(weights=ResNet18_Weights.IMAGENET1K_V1): backscope has")
    assert lines[3].startswith("vgg11(weights='DEFAULT'): backscope has no pretrained weights")
    assert lines[4] == "ResNet"


def test_torchvision_is_not_importable_without_the_engine() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import engine, torchvision"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "No module named 'torchvision'" in proc.stderr
