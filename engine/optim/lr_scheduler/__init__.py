"""`torch.optim.lr_scheduler`: one module per kind of schedule."""

from engine.optim.lr_scheduler.base import LRScheduler, _LRScheduler
from engine.optim.lr_scheduler.composite import ChainedScheduler, SequentialLR
from engine.optim.lr_scheduler.cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts
from engine.optim.lr_scheduler.cyclic import CyclicLR
from engine.optim.lr_scheduler.one_cycle import OneCycleLR
from engine.optim.lr_scheduler.plateau import ReduceLROnPlateau
from engine.optim.lr_scheduler.step import (
    ConstantLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)

__all__ = [
    "ChainedScheduler",
    "ConstantLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "ExponentialLR",
    "LRScheduler",
    "LambdaLR",
    "LinearLR",
    "MultiStepLR",
    "MultiplicativeLR",
    "OneCycleLR",
    "PolynomialLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "StepLR",
    "_LRScheduler",
]
