"""Short-time Fourier transform: `torch.stft` / `torch.istft`, composed from differentiable ops
in ATen's order (pad, strided frames, window, FFT over each frame, in-place transpose), so
gradients flow to the signal and the window.

>>> S = torch.stft(x, n_fft=16, hop_length=4, window=torch.hann_window(16), return_complex=True)
>>> torch.istft(S, n_fft=16, hop_length=4, window=torch.hann_window(16), length=x.shape[-1])
"""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.engine import WARNED
from engine.fft import fft, ifft, irfft, rfft
from engine.ops.nn_fold import fold
from engine.ops.nn_pad import pad as _pad
from engine.ops.table import Op

_NEED_RETURN_COMPLEX = (
    "stft requires the return_complex parameter be given for real inputs, and will further "
    "require that return_complex=True in a future PyTorch release."
)
_REAL_DEPRECATED = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
    "return complex tensors for all inputs, and return_complex=False will raise an error.\n"
    "Note: you can still call torch.view_as_real on the complex output to recover the old "
    "return format. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:874.)"
)
_STFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied,which is known to cause "
    "spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
    "recommended to reduce spectral leakage.To suppress this warning and use a rectangular "
    "window, explicitly set `window=torch.ones(n_fft, device=<device>)`. (Triggered internally "
    "at /__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:835.)"
)
_ISTFT_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied.Please provide the same "
    "window used by stft to make the inversion lossless.To suppress this warning and use a "
    "rectangular window, explicitly set `window=torch.ones(n_fft, device=<device>)`. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/SpectralOps.cpp:1035.)"
)


def _warn_once(message: str) -> None:
    """ATen's TORCH_WARN_ONCE: a message once per process (the engine's one warned set)."""
    if message not in WARNED:
        WARNED.add(message)
        warn(message, UserWarning)


def _full_window(window: Any, n_fft: int, win_length: int, like: Any) -> Any:
    """The window over all n_fft points: a given shorter window is centred with zeros."""
    from engine._creation import ones

    if window is None:
        return ones(win_length, dtype=like.dtype.to_real())
    if window.dim() != 1 or window.shape[0] != win_length:
        raise RuntimeError(
            f"stft: expected a 1D window tensor of size equal to win_length={win_length}, "
            f"but got window with size {list(window.shape)}"
        )
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = _pad(window, (left, n_fft - win_length - left))
    return window


def stft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    return_complex: bool | None = None,
) -> Tensor:
    """Fourier transforms of windowed frames: (n_fft // 2 + 1, n_frames) per signal."""
    x: Any = input
    if window is None:
        _warn_once(_STFT_NO_WINDOW)
    if return_complex is None:
        if not (x.is_complex() or (window is not None and window.is_complex())):
            raise RuntimeError(_NEED_RETURN_COMPLEX)
        return_complex = True
    if not return_complex:
        _warn_once(_REAL_DEPRECATED)
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    if x.dim() not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {x.dim()}D tensor")
    if center:  # torch.stft pads in Python (3-D for the pad kernels), then views back
        extended = [1] * (3 - x.dim()) + list(x.shape)
        pad = n_fft // 2
        x = _pad(x.view(extended), [pad, pad], pad_mode)
        x = x.view(x.shape[-input.dim() :])
    batched = x.dim() == 2
    if not batched:
        x = x.unsqueeze(0)
    length = x.shape[1]
    if not 0 < n_fft <= length:
        raise RuntimeError(
            f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}"
        )  # fmt: skip
    n_frames = 1 + (length - n_fft) // hop
    st = x.stride()
    frames = x.as_strided((x.shape[0], n_frames, n_fft), (st[0], hop * st[1], st[1]))
    w = _full_window(window, n_fft, win, x) if window is not None else None
    if w is not None:
        frames = frames.mul(w)
    norm = "ortho" if normalized else "backward"
    complex_in = frames.is_complex()
    one = (not complex_in) if onesided is None else bool(onesided)
    if complex_in or not one:
        out = fft(frames, dim=-1, norm=norm)
    else:
        out = rfft(frames, dim=-1, norm=norm)
    out.transpose_(1, 2)
    if not batched:
        out.squeeze_(0)
    result: Tensor = out
    if return_complex:
        return result
    from engine.ops.complex import view_as_real

    return view_as_real(result)


def istft(
    input: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool | None = None,
    length: int | None = None,
    return_complex: bool = False,
) -> Tensor:
    """The inverse of `stft`: inverse FFT of each frame, windowed, overlap-added and divided
    by the summed squared window."""
    S: Any = input
    if not S.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with "
            "return_complex=True."
        )
    if window is None:
        _warn_once(_ISTFT_NO_WINDOW)
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    batched = S.dim() == 3
    if not batched:
        S = S.unsqueeze(0)
    n_frames = S.shape[2]
    one = (S.shape[1] != n_fft) if onesided is None else bool(onesided)
    norm = "ortho" if normalized else "backward"
    frames = S.transpose(1, 2)
    if one:
        y = irfft(frames, n=n_fft, dim=-1, norm=norm)
    else:
        y = ifft(frames, n=n_fft, dim=-1, norm=norm)
        if not return_complex:
            y = y.real
    w = _full_window(window, n_fft, win, y)
    y = y * w.view(1, 1, n_fft)
    expected = n_fft + hop * (n_frames - 1)
    # overlap-add: frames as the columns of a 1 x expected "image"
    signal = fold(y.transpose(1, 2), (1, expected), (1, n_fft), stride=(1, hop))
    signal = signal.reshape(y.shape[0], expected)
    ww = (w * w).view(1, n_fft, 1).expand(1, n_fft, n_frames)
    envelope = fold(ww, (1, expected), (1, n_fft), stride=(1, hop)).reshape(1, expected)
    start = n_fft // 2 if center else 0
    end = expected - (n_fft // 2 if center else 0) if length is None else start + int(length)
    end = min(end, expected)
    signal = signal[:, start:end]
    envelope = envelope[:, start:end]
    low = float(envelope.abs().min())
    if low < 1e-11:
        raise RuntimeError(f"istft(...): window overlap add min: {low:g}")
    signal = signal / envelope
    if length is not None and signal.shape[1] < int(length):
        signal = _pad(signal, (0, int(length) - signal.shape[1]))
    result: Tensor = signal if batched else signal.squeeze(0)
    return result


OPS = [
    Op("stft", stft),
    Op("istft", istft),
]
