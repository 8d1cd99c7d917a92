"""`torchvision.ops`: the building blocks its models share."""

from __future__ import annotations

from engine.vision.ops.misc import Conv2dNormActivation, ConvNormActivation

__all__ = ["Conv2dNormActivation", "ConvNormActivation"]
