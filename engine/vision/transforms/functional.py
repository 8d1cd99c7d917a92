"""`torchvision.transforms.functional` on tensors shaped [..., C, H, W] (and, for `to_tensor`,
PIL images or HxWxC arrays)."""

from __future__ import annotations

import importlib
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine._tensor import Tensor

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


def _is_pil(img: Any) -> bool:
    return type(img).__module__.startswith("PIL.")


def get_dimensions(img: Any) -> list[int]:
    """[channels, height, width] of a tensor image (or a PIL image)."""
    if isinstance(img, Tensor):
        c = 1 if img.ndim == 2 else int(img.shape[-3])
        return [c, int(img.shape[-2]), int(img.shape[-1])]
    if _is_pil(img):
        w, h = img.size
        return [len(img.getbands()), h, w]
    raise TypeError(f"Unexpected type {type(img)}")


def get_image_size(img: Any) -> list[int]:
    _, h, w = get_dimensions(img)
    return [w, h]


def to_tensor(pic: Any) -> Tensor:
    """A PIL image or an HxWxC ndarray as a CxHxW float tensor (uint8 scaled to [0, 1])."""
    if not (_is_pil(pic) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if isinstance(pic, np.ndarray) and pic.ndim not in {2, 3}:
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    arr = np.array(pic, copy=True)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    img = torch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))
    if arr.dtype == np.uint8:
        return img.to(dtype=torch.get_default_dtype()).div(255)
    return img


def pil_to_tensor(pic: Any) -> Tensor:
    arr = np.array(pic, copy=True)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return torch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))


def convert_image_dtype(image: Tensor, dtype: Any = None) -> Tensor:
    dtype = torch.float32 if dtype is None else dtype
    if image.dtype == dtype:
        return image
    if image.is_floating_point():
        if dtype.is_floating_point:
            return image.to(dtype)
        top = float(torch.iinfo(dtype).max)
        return image.mul(top + 1.0 - 0.001).to(dtype)
    top = float(torch.iinfo(image.dtype).max)
    if dtype.is_floating_point:
        return image.to(dtype).div(top)
    raise NotImplementedError("convert_image_dtype between integer dtypes")


def normalize(
    tensor: Tensor, mean: Sequence[float], std: Sequence[float], inplace: bool = False
) -> Tensor:
    """(tensor - mean) / std per channel."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError(
            "Expected tensor to be a tensor image of size (..., C, H, W). Got "
            f"tensor.size() = {tensor.size()}"
        )
    if not inplace:
        tensor = tensor.clone()
    m = torch.as_tensor(mean, dtype=tensor.dtype)
    s = torch.as_tensor(std, dtype=tensor.dtype)
    if (s == 0).any():
        raise ValueError(
            f"std evaluated to zero after conversion to {tensor.dtype}, leading to division "
            "by zero."
        )
    if m.ndim == 1:
        m = m.view(-1, 1, 1)
    if s.ndim == 1:
        s = s.view(-1, 1, 1)
    return tensor.sub_(m).div_(s)


def _resized_size(h: int, w: int, size: Any, max_size: int | None) -> list[int]:
    if isinstance(size, int) or (isinstance(size, Sequence) and len(size) == 1):
        requested = size if isinstance(size, int) else size[0]
        short, long = (w, h) if w <= h else (h, w)
        new_short, new_long = requested, int(requested * long / short)
        if max_size is not None:
            if max_size <= requested:
                raise ValueError(
                    f"max_size = {max_size} must be strictly greater than the requested "
                    f"size for the smaller edge size = {size}"
                )
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
        return [new_h, new_w]
    return [int(size[0]), int(size[1])]


def resize(
    img: Tensor,
    size: Any,
    interpolation: Any = "bilinear",
    max_size: int | None = None,
    antialias: bool | None = True,
) -> Tensor:
    """Resize the last two dimensions (an int resizes the shorter edge, keeping the aspect)."""
    _, h, w = get_dimensions(img)
    new_h, new_w = _resized_size(h, w, size, max_size)
    if (new_h, new_w) == (h, w):
        return img
    mode = getattr(interpolation, "value", interpolation)
    batched = img.unsqueeze(0) if img.ndim == 3 else img
    dtype = img.dtype
    x = batched if img.is_floating_point() else batched.to(torch.float32)
    align = None if mode == "nearest" else False
    aa = bool(antialias) and mode in ("bilinear", "bicubic")
    out = torch.nn.functional.interpolate(
        x, size=[new_h, new_w], mode=mode, align_corners=align, antialias=aa
    )
    if not img.is_floating_point():
        out = out.round().clamp(0, 255).to(dtype)
    return out[0] if img.ndim == 3 else out


def crop(img: Tensor, top: int, left: int, height: int, width: int) -> Tensor:
    """The window [top, top + height) x [left, left + width), zero-padded where it leaves."""
    _, h, w = get_dimensions(img)
    right, bottom = left + width, top + height
    if left < 0 or top < 0 or right > w or bottom > h:
        pads = [max(-left, 0), max(-top, 0), max(right - w, 0), max(bottom - h, 0)]
        img = img[..., max(top, 0) : bottom, max(left, 0) : right]
        return torch.nn.functional.pad(img, pads)
    return img[..., top:bottom, left:right]


def center_crop(img: Tensor, output_size: Any) -> Tensor:
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))  # type: ignore[call-overload]
    elif isinstance(output_size, tuple | list) and len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [
            (crop_width - image_width) // 2 if crop_width > image_width else 0,
            (crop_height - image_height) // 2 if crop_height > image_height else 0,
            (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
            (crop_height - image_height + 1) // 2 if crop_height > image_height else 0,
        ]
        img = pad(img, padding_ltrb, fill=0)
        _, image_height, image_width = get_dimensions(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    crop_top = round((image_height - crop_height) / 2.0)
    crop_left = round((image_width - crop_width) / 2.0)
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def pad(img: Tensor, padding: Any, fill: float = 0, padding_mode: str = "constant") -> Tensor:
    """Pad the last two dimensions: an int, (left/right, top/bottom) or (l, t, r, b)."""
    if isinstance(padding, int):
        p = [padding] * 4
    elif len(padding) == 1:
        p = [padding[0]] * 4
    elif len(padding) == 2:
        p = [padding[0], padding[1], padding[0], padding[1]]
    else:
        p = list(padding)
    left, top, right, bottom = p
    mode = {"edge": "replicate", "symmetric": "reflect"}.get(padding_mode, padding_mode)
    args: dict[str, Any] = {"value": float(fill)} if mode == "constant" else {}
    return torch.nn.functional.pad(img, [left, right, top, bottom], mode=mode, **args)


def hflip(img: Tensor) -> Tensor:
    return img.flip(-1)


def vflip(img: Tensor) -> Tensor:
    return img.flip(-2)


def resized_crop(
    img: Tensor,
    top: int,
    left: int,
    height: int,
    width: int,
    size: Any,
    interpolation: Any = "bilinear",
    antialias: bool | None = True,
) -> Tensor:
    img = crop(img, top, left, height, width)
    return resize(img, size, interpolation, antialias=antialias)


def rgb_to_grayscale(img: Tensor, num_output_channels: int = 1) -> Tensor:
    r, g, b = img.unbind(dim=-3)
    l_img = (0.2989 * r + 0.587 * g + 0.114 * b).to(img.dtype).unsqueeze(dim=-3)
    if num_output_channels == 3:
        return l_img.expand(img.shape)
    return l_img
