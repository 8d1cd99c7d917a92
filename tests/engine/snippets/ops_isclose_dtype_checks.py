# isclose and allclose compare tensors of one dtype (no promotion: a float64 against a float32 is an error) with non-negative tolerances, as PyTorch checks
import torch

def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

show(lambda: torch.isclose(torch.tensor([1.0], dtype=torch.float64), torch.tensor(1.0)))
show(lambda: torch.isclose(torch.tensor([1]), torch.tensor(1.0)))
show(lambda: torch.allclose(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)))
show(lambda: torch.tensor([1.0]).isclose(torch.tensor([1], dtype=torch.int32)))
show(lambda: torch.isclose(torch.tensor([True]), torch.tensor([1.0], dtype=torch.float16)))
show(lambda: torch.isclose(torch.tensor([1.0]), torch.tensor([1.0 + 0j])))
show(lambda: torch.isclose(torch.tensor([1.0]), torch.tensor([1.0]), rtol=-1))
show(lambda: torch.allclose(torch.tensor([1.0]), torch.tensor([1.0]), atol=-0.5))
print(torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1])), torch.allclose(torch.tensor([1, 2]), torch.tensor([1, 2])))
