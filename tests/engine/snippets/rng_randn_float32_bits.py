import torch

# float32 randn of 16+ values runs ATen's AVX2 Box-Muller (Cephes log/sincos, fused adds):
# its last bits show in full-precision values and once scaled
torch.manual_seed(0)
x = torch.randn(4, 4)
print(x.tolist())
print(x * 1000)
torch.manual_seed(1)
print(torch.randn(35).tolist())  # a ragged tail redraws the last 16
print(torch.empty(20).normal_(mean=2.0, std=0.5).tolist())
print(torch.normal(3.0, 2.0, size=(17,)).tolist())
w = torch.empty(3, 8)
torch.nn.init.normal_(w, std=0.02)
print(w.tolist())
print(torch.randn(16, dtype=torch.float64).tolist())
print(torch.randn(16, dtype=torch.float16).tolist())
print(torch.randn(16, dtype=torch.bfloat16).tolist())
g = torch.Generator().manual_seed(123)
print(torch.randn(2, 3, 4, generator=g).sum(dim=(1, 2)).tolist())
