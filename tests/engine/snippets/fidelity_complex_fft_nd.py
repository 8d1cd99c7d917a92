# Multi-dimensional transforms, normalization modes, frequencies and shifts.
import torch

img = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
F2 = torch.fft.fft2(img)
print(F2, F2.grad_fn.name(), F2.grad_fn.next_functions[0][0].name())
R2 = torch.fft.rfft2(img)
print(R2, R2.grad_fn.name(), R2.grad_fn._saved_dim)
back = torch.fft.irfft2(R2, s=img.shape)
print(back, back.grad_fn.name())
loss = (back * torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])).sum() + R2.abs().sum()
loss.backward()
print(img.grad)
for norm in ("backward", "forward", "ortho"):
    out = torch.fft.fftn(img.detach(), norm=norm)
    print(norm, out[0], torch.fft.ifftn(out, norm=norm).real)
print(torch.fft.rfftn(img.detach(), s=(3, 4)))
print(torch.fft.fftn(img.detach(), s=(1, 2), dim=(0, 1)))
print(torch.fft.fftfreq(5), torch.fft.rfftfreq(6, d=0.5))
print(torch.fft.fftshift(torch.arange(5)), torch.fft.ifftshift(torch.arange(6).reshape(2, 3)))
print(torch.fft.fftshift(torch.fft.fftfreq(4)))
for bad in ({"norm": "bad"}, {"n": 0}):
    try:
        torch.fft.fft(img, **bad)
    except RuntimeError as e:
        print(e)
torch.fft.fftn(img, s=(2, 3), dim=(0,))
