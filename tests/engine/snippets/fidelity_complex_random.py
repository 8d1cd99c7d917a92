# Complex random numbers: real and imaginary parts each normal with variance 1/2.
import torch

torch.manual_seed(0)
print(torch.randn(3, dtype=torch.cfloat))
print(torch.rand(2, dtype=torch.cfloat))
torch.manual_seed(0)
print(torch.randn(6))
torch.manual_seed(1)
print(torch.randn(2, 10, dtype=torch.cfloat))
torch.manual_seed(2)
print(torch.randn(3, dtype=torch.complex128))
w = torch.randn(2, 2, dtype=torch.cfloat, requires_grad=True)
print(w.dtype, w.requires_grad, w.shape)
print(torch.randn_like(torch.zeros(2, dtype=torch.cfloat)).dtype)
torch.randn(2, dtype=torch.int64)
