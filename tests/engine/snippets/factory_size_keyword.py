# factories take their shape as size= too, and refuse no shape (or two) with PyTorch's TypeErrors
import torch

torch.manual_seed(0)
print(torch.ones(size=(2,)), torch.zeros(size=(2, 3)), torch.empty(size=(1, 2)).shape)
print(torch.rand(size=(2,)), torch.randn(size=()), torch.ones(()), torch.zeros([]))
print(torch.randn_like(torch.tensor(1.0)).shape, torch.rand_like(torch.tensor(1.0)).shape)
calls = [
    lambda: torch.ones(),
    lambda: torch.zeros(),
    lambda: torch.empty(),
    lambda: torch.rand(),
    lambda: torch.randn(),
    lambda: torch.ones((2,), size=(2,)),
    lambda: torch.empty(2, size=(2,)),
    lambda: torch.rand(2, size=(2,)),
]
for call in calls:
    try:
        call()
    except TypeError as e:
        print(e)
