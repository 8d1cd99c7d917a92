"""`torchvision` for snippets: the classic architectures (no pretrained weights) and the
transforms tutorials use, built on the engine. `engine.install_as_torch()` makes
`import torchvision` resolve here, as `import torch` resolves to the engine.

>>> from torchvision.models import resnet18
>>> model = resnet18()  # weights=None: random initialisation, as torchvision's default
"""

from __future__ import annotations

from engine.vision import models, ops, transforms

__version__ = "0.28.0+engine"

__all__ = ["models", "ops", "transforms"]
