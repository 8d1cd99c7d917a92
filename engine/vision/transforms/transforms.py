"""`torchvision.transforms`: the classic transform classes, on tensor images (and `ToTensor`
on PIL images or arrays). Random transforms draw from the engine's generator as torchvision
draws from torch's."""

from __future__ import annotations

import importlib
import math
import numbers
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engine import nn
from engine.vision.transforms import functional as F

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


class InterpolationMode:
    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"


def _size2(size: Any, what: str = "size") -> tuple[int, int]:
    if isinstance(size, numbers.Number):
        return int(size), int(size)  # type: ignore[call-overload]
    if isinstance(size, Sequence) and len(size) == 1:
        return int(size[0]), int(size[0])
    if len(size) != 2:
        raise ValueError(f"Please provide only two dimensions (h, w) for {what}.")
    return int(size[0]), int(size[1])


class Compose:
    """Apply transforms one after another.

    >>> t = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,), (0.5,))])
    """

    def __init__(self, transforms: Sequence[Callable[[Any], Any]]) -> None:
        self.transforms = list(transforms)

    def __call__(self, img: Any) -> Any:
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{self.__class__.__name__}({body}\n)"


class ToTensor:
    def __call__(self, pic: Any) -> Any:
        return F.to_tensor(pic)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class PILToTensor:
    def __call__(self, pic: Any) -> Any:
        return F.pil_to_tensor(pic)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class ConvertImageDtype(nn.Module):
    def __init__(self, dtype: Any) -> None:
        super().__init__()
        self.dtype = dtype

    def forward(self, image: Any) -> Any:
        return F.convert_image_dtype(image, self.dtype)


class Lambda:
    def __init__(self, lambd: Callable[[Any], Any]) -> None:
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {type(lambd).__name__!r}")
        self.lambd = lambd

    def __call__(self, img: Any) -> Any:
        return self.lambd(img)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Normalize(nn.Module):
    def __init__(self, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> None:
        super().__init__()
        self.mean, self.std, self.inplace = mean, std, inplace

    def forward(self, tensor: Any) -> Any:
        return F.normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


class Resize(nn.Module):
    def __init__(
        self,
        size: Any,
        interpolation: Any = InterpolationMode.BILINEAR,
        max_size: int | None = None,
        antialias: bool | None = True,
    ) -> None:
        super().__init__()
        self.size, self.interpolation, self.max_size, self.antialias = (
            size,
            interpolation,
            max_size,
            antialias,
        )

    def forward(self, img: Any) -> Any:
        return F.resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}(size={self.size}, interpolation={self.interpolation}, "
            f"max_size={self.max_size}, antialias={self.antialias})"
        )


class CenterCrop(nn.Module):
    def __init__(self, size: Any) -> None:
        super().__init__()
        self.size = _size2(size)

    def forward(self, img: Any) -> Any:
        return F.center_crop(img, self.size)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size})"


class Pad(nn.Module):
    def __init__(self, padding: Any, fill: float = 0, padding_mode: str = "constant") -> None:
        super().__init__()
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def forward(self, img: Any) -> Any:
        return F.pad(img, self.padding, self.fill, self.padding_mode)


class RandomCrop(nn.Module):
    @staticmethod
    def get_params(img: Any, output_size: tuple[int, int]) -> tuple[int, int, int, int]:
        _, h, w = F.get_dimensions(img)
        th, tw = output_size
        if h < th or w < tw:
            raise ValueError(
                f"Required crop size {(th, tw)} is larger than input image size {(h, w)}"
            )
        if w == tw and h == th:
            return 0, 0, h, w
        i = int(torch.randint(0, h - th + 1, size=(1,)).item())
        j = int(torch.randint(0, w - tw + 1, size=(1,)).item())
        return i, j, th, tw

    def __init__(
        self,
        size: Any,
        padding: Any = None,
        pad_if_needed: bool = False,
        fill: float = 0,
        padding_mode: str = "constant",
    ) -> None:
        super().__init__()
        self.size = _size2(size)
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = (
            padding,
            pad_if_needed,
            fill,
            padding_mode,
        )

    def forward(self, img: Any) -> Any:
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        _, height, width = F.get_dimensions(img)
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, [self.size[1] - width, 0], self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, [0, self.size[0] - height], self.fill, self.padding_mode)
        i, j, h, w = self.get_params(img, self.size)
        return F.crop(img, i, j, h, w)


class RandomHorizontalFlip(nn.Module):
    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = p

    def forward(self, img: Any) -> Any:
        if torch.rand(1) < self.p:
            return F.hflip(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomVerticalFlip(RandomHorizontalFlip):
    def forward(self, img: Any) -> Any:
        if torch.rand(1) < self.p:
            return F.vflip(img)
        return img


class RandomResizedCrop(nn.Module):
    @staticmethod
    def get_params(
        img: Any, scale: Sequence[float], ratio: Sequence[float]
    ) -> tuple[int, int, int, int]:
        _, height, width = F.get_dimensions(img)
        area = height * width
        log_ratio = torch.log(torch.tensor(ratio))
        for _ in range(10):
            target_area = area * torch.empty(1).uniform_(scale[0], scale[1]).item()
            lo, hi = float(log_ratio[0]), float(log_ratio[1])  # (uniform_ casts them alike)
            aspect_ratio = torch.exp(torch.empty(1).uniform_(lo, hi)).item()
            w = round(math.sqrt(target_area * aspect_ratio))
            h = round(math.sqrt(target_area / aspect_ratio))
            if 0 < w <= width and 0 < h <= height:
                i = int(torch.randint(0, height - h + 1, size=(1,)).item())
                j = int(torch.randint(0, width - w + 1, size=(1,)).item())
                return i, j, h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w = width
            h = round(w / min(ratio))
        elif in_ratio > max(ratio):
            h = height
            w = round(h * max(ratio))
        else:
            w, h = width, height
        i = (height - h) // 2
        j = (width - w) // 2
        return i, j, h, w

    def __init__(
        self,
        size: Any,
        scale: tuple[float, float] = (0.08, 1.0),
        ratio: tuple[float, float] = (3.0 / 4.0, 4.0 / 3.0),
        interpolation: Any = InterpolationMode.BILINEAR,
        antialias: bool | None = True,
    ) -> None:
        super().__init__()
        self.size = _size2(size)
        self.scale, self.ratio, self.interpolation, self.antialias = (
            scale,
            ratio,
            interpolation,
            antialias,
        )

    def forward(self, img: Any) -> Any:
        i, j, h, w = self.get_params(img, self.scale, self.ratio)
        return F.resized_crop(img, i, j, h, w, self.size, self.interpolation, self.antialias)


class Grayscale(nn.Module):
    def __init__(self, num_output_channels: int = 1) -> None:
        super().__init__()
        self.num_output_channels = num_output_channels

    def forward(self, img: Any) -> Any:
        return F.rgb_to_grayscale(img, self.num_output_channels)


for _cls in (
    Compose, ToTensor, PILToTensor, ConvertImageDtype, Lambda, Normalize, Resize, CenterCrop,
    Pad, RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, RandomResizedCrop, Grayscale,
):  # fmt: skip
    _cls.__module__ = "torchvision.transforms.transforms"
