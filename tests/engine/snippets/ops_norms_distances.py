import torch

a = torch.tensor([[3.0, 4.0], [6.0, 8.0]])
print(a.norm(), a.norm(dim=1), a.norm(p=1, dim=0), a.norm(p=float("inf")), torch.norm(a, "fro"))
print((a[0] - a[1]).norm())
print(torch.nn.functional.normalize(a, dim=1))
print(torch.nn.functional.cosine_similarity(a[0], a[1], dim=0), torch.linalg.norm(a, dim=1))
