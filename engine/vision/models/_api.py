"""Weights enums: the names snippets import exist, but the engine ships no pretrained weights
(nothing may be downloaded inside the sandbox), so asking for any gives a clear error."""

from __future__ import annotations

import enum
from typing import Any

NO_WEIGHTS = (
    "{builder}(weights={weights!r}): backscope has no pretrained weights (nothing can be "
    "downloaded here); build the model with weights=None for a randomly initialised one"
)


class WeightsEnum(enum.Enum):
    """A model's pretrained weights, by name (`ResNet18_Weights.IMAGENET1K_V1`, `.DEFAULT`)."""

    @classmethod
    def verify(cls, obj: Any) -> Any:
        if obj is None or isinstance(obj, cls):
            return obj
        if isinstance(obj, str):
            return cls[obj.replace(cls.__name__ + ".", "")]
        raise TypeError(
            f"Invalid Weight class provided; expected {cls.__name__} but received "
            f"{obj.__class__.__name__}."
        )

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}.{self._name_}"


def weights_enum(name: str, *versions: str) -> Any:
    """An enum with torchvision's member names; DEFAULT aliases the newest version."""
    members = {v: v for v in versions}
    make: Any = WeightsEnum
    cls = make(name, members)
    cls.DEFAULT = cls[versions[-1]]
    cls.__module__ = "torchvision.models"
    return cls


def refuse_weights(builder: str, weights: Any, kwargs: dict[str, Any]) -> None:
    """Raise unless the model is asked for without weights (`pretrained=False` is accepted)."""
    pretrained = kwargs.pop("pretrained", False)
    kwargs.pop("progress", None)
    if pretrained:
        weights = "DEFAULT"
    if weights is not None:
        raise RuntimeError(NO_WEIGHTS.format(builder=builder, weights=weights))


def _ovewrite_named_param(kwargs: dict[str, Any], param: str, new_value: Any) -> None:
    if param in kwargs and kwargs[param] != new_value:
        raise ValueError(
            f"The parameter '{param}' expected value {new_value} but got {kwargs[param]} instead."
        )
    kwargs[param] = new_value
