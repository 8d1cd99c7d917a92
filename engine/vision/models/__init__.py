"""`torchvision.models`: classic architectures with torchvision's module names, no weights."""

from __future__ import annotations

from engine.vision.models._api import WeightsEnum
from engine.vision.models.mobilenetv2 import MobileNet_V2_Weights, MobileNetV2, mobilenet_v2
from engine.vision.models.resnet import (
    ResNet,
    ResNet18_Weights,
    ResNet34_Weights,
    ResNet50_Weights,
    resnet18,
    resnet34,
    resnet50,
)
from engine.vision.models.vgg import (
    VGG,
    VGG11_BN_Weights,
    VGG11_Weights,
    VGG16_BN_Weights,
    VGG16_Weights,
    vgg11,
    vgg11_bn,
    vgg16,
    vgg16_bn,
)

__all__ = [
    "VGG",
    "MobileNetV2",
    "MobileNet_V2_Weights",
    "ResNet",
    "ResNet18_Weights",
    "ResNet34_Weights",
    "ResNet50_Weights",
    "VGG11_BN_Weights",
    "VGG11_Weights",
    "VGG16_BN_Weights",
    "VGG16_Weights",
    "WeightsEnum",
    "mobilenet_v2",
    "resnet18",
    "resnet34",
    "resnet50",
    "vgg11",
    "vgg11_bn",
    "vgg16",
    "vgg16_bn",
]
