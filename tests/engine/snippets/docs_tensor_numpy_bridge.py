import numpy as np
import torch

t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
print(torch.tensor(np.array([1, 2], dtype=np.int32)))
print(torch.as_tensor([1.5, 2.5]), torch.as_tensor(np.arange(3)))
