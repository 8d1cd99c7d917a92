import torch
for C in (torch.BFloat16Tensor, torch.HalfTensor, torch.ShortTensor, torch.CharTensor):
    print(C, C([1, 2]), C(2, 3).shape, C(2).dtype)
    print(isinstance(C([1]), C), isinstance(torch.ones(1, dtype=C([1]).dtype), C), C.__name__)
x = torch.HalfTensor([1.5, 2])
print(x.type(), x.type(torch.BFloat16Tensor), torch.ones(2).type('torch.HalfTensor'))
print(torch.ones(2, dtype=torch.bfloat16).type(), torch.ones(2, dtype=torch.int16).type(), torch.ones(2, dtype=torch.int8).type())
