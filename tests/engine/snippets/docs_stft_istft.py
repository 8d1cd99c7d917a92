import torch

torch.manual_seed(0)
x = torch.randn(64)
try:
    torch.stft(x, 16)
except RuntimeError as e:
    print(e)
w = torch.hann_window(16)
S = torch.stft(x, n_fft=16, hop_length=4, window=w, return_complex=True)
print(S.shape, S.dtype, S.grad_fn)
print(S.abs()[:3, :4])
print(round(S.abs().sum().item(), 2))
y = torch.istft(S, n_fft=16, hop_length=4, window=w, length=64)
print(y.shape, (y - x).abs().max() < 1e-5)
S2 = torch.stft(x, 16, return_complex=True)
print(S2.shape, round(S2.abs().sum().item(), 2))
S3 = torch.stft(
    x, 16, hop_length=8, window=torch.hamming_window(16), center=False, return_complex=True,
    onesided=False,
)  # fmt: skip
print(S3.shape, round(S3.abs().sum().item(), 2))
S5 = torch.stft(x, 16, hop_length=4, win_length=8, window=torch.hann_window(8), return_complex=True)
print(S5.shape, round(S5.abs().sum().item(), 2))
xr = torch.randn(2, 40, requires_grad=True)
S4 = torch.stft(
    xr, 8, hop_length=2, window=torch.hann_window(8), return_complex=True, normalized=True
)
print(S4.shape, S4.grad_fn, S4.is_contiguous())
S4.abs().sum().backward()
print(xr.grad[0, :6])
R = torch.stft(x, 16, return_complex=False)
print(R.shape, R.dtype)
spec = torch.stft(x, 16, window=torch.hann_window(16), return_complex=True, pad_mode="constant")
print(round(spec.abs().sum().item(), 2))
rec = torch.istft(S, 16, hop_length=4)
print(rec.shape)
batch = torch.stft(
    torch.randn(3, 50), 10, hop_length=5, window=torch.hann_window(10), return_complex=True
)
back = torch.istft(batch, 10, hop_length=5, window=torch.hann_window(10), length=50)
print(batch.shape, back.shape)
try:
    torch.istft(S.abs(), 16, hop_length=4, window=w)
except RuntimeError as e:
    print(e)
