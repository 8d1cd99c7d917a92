import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(2 in x, 5 in x, torch.tensor(3.0) in x, x.get_device(), x.is_signed(), x.itemsize, x.nbytes)
print(list(reversed(torch.tensor([1, 2, 3]))), reversed(x), x.element_size(), x.is_floating_point())
print(
    x.sum_to_size(1, 2), x.sum_to_size(2, 1), x.is_contiguous(), x.device, x.is_cuda, x.cpu() is x
)
print(x.unfold(1, 1, 1).shape, torch.arange(7.0).unfold(0, 3, 2), x.ndimension())
print(x * 10)
