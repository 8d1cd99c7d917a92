"""`torchvision.transforms`: tensor-image transforms and their functional forms."""

from __future__ import annotations

from engine.vision.transforms import functional
from engine.vision.transforms.transforms import (
    CenterCrop,
    Compose,
    ConvertImageDtype,
    Grayscale,
    InterpolationMode,
    Lambda,
    Normalize,
    Pad,
    PILToTensor,
    RandomCrop,
    RandomHorizontalFlip,
    RandomResizedCrop,
    RandomVerticalFlip,
    Resize,
    ToTensor,
)

__all__ = [
    "CenterCrop",
    "Compose",
    "ConvertImageDtype",
    "Grayscale",
    "InterpolationMode",
    "Lambda",
    "Normalize",
    "PILToTensor",
    "Pad",
    "RandomCrop",
    "RandomHorizontalFlip",
    "RandomResizedCrop",
    "RandomVerticalFlip",
    "Resize",
    "ToTensor",
    "functional",
]
