"""VGG (Simonyan & Zisserman 2014) as torchvision builds it (`features.0.weight`,
`classifier.6.bias`, ...)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine import nn
from engine._tensor import Tensor
from engine.nn.modules.conv import Conv2d
from engine.nn.modules.pooling import AdaptiveAvgPool2d, MaxPool2d
from engine.vision.models._api import refuse_weights, weights_enum

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


class VGG(nn.Module):
    def __init__(
        self,
        features: nn.Module,
        num_classes: int = 1000,
        init_weights: bool = True,
        dropout: float = 0.5,
    ) -> None:
        super().__init__()
        self.features = features
        self.avgpool = AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, num_classes),
        )
        if init_weights:
            for m in self.modules():
                if isinstance(m, Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                    if m.bias is not None:
                        nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.Linear):
                    nn.init.normal_(m.weight, 0, 0.01)
                    nn.init.constant_(m.bias, 0)

    def forward(self, x: Tensor) -> Tensor:
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.classifier(x)
        return x


def make_layers(cfg: list[str | int], batch_norm: bool = False) -> nn.Sequential:
    layers: list[nn.Module] = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers += [MaxPool2d(kernel_size=2, stride=2)]
        else:
            assert isinstance(v, int)
            conv2d = Conv2d(in_channels, v, kernel_size=3, padding=1)
            if batch_norm:
                layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
            else:
                layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


cfgs: dict[str, list[str | int]] = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [
        64,
        64,
        "M",
        128,
        128,
        "M",
        256,
        256,
        256,
        256,
        "M",
        512,
        512,
        512,
        512,
        "M",
        512,
        512,
        512,
        512,
        "M",
    ],
}

VGG11_Weights = weights_enum("VGG11_Weights", "IMAGENET1K_V1")
VGG11_BN_Weights = weights_enum("VGG11_BN_Weights", "IMAGENET1K_V1")
VGG16_Weights = weights_enum("VGG16_Weights", "IMAGENET1K_V1")
VGG16_BN_Weights = weights_enum("VGG16_BN_Weights", "IMAGENET1K_V1")


def _vgg(name: str, cfg: str, batch_norm: bool, weights: Any, **kwargs: Any) -> VGG:
    refuse_weights(name, weights, kwargs)
    return VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)


def vgg11(*, weights: Any = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-11 (configuration A), randomly initialised."""
    return _vgg("vgg11", "A", False, weights, **kwargs)


def vgg11_bn(*, weights: Any = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-11 with batch normalisation, randomly initialised."""
    return _vgg("vgg11_bn", "A", True, weights, **kwargs)


def vgg16(*, weights: Any = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-16 (configuration D), randomly initialised."""
    return _vgg("vgg16", "D", False, weights, **kwargs)


def vgg16_bn(*, weights: Any = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-16 with batch normalisation, randomly initialised."""
    return _vgg("vgg16_bn", "D", True, weights, **kwargs)


VGG.__module__ = "torchvision.models.vgg"
