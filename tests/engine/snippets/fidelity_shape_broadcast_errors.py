import torch

a = torch.ones(2, 3, requires_grad=True)
b = torch.ones(3, 1, requires_grad=True)
for fn in [lambda: a + b, lambda: a * torch.ones(2), lambda: torch.add(a, torch.ones(4, 3)), lambda: a.expand(2, 2, 3) + 1,
           lambda: torch.broadcast_tensors(a, torch.ones(5)), lambda: torch.broadcast_to(a, (3, 3)), lambda: a.expand_as(torch.ones(4)),
           lambda: a.add_(torch.ones(4, 2, 3)), lambda: torch.where(torch.ones(2, dtype=torch.bool), a, 0.0),
           lambda: a.masked_fill(torch.ones(3, 3, dtype=torch.bool), 0.0), lambda: torch.maximum(a, torch.ones(2)),
           lambda: torch.cat([a, torch.ones(2, 3, dtype=torch.int64)]), lambda: torch.cat([a, torch.ones(2)]),
           lambda: torch.stack([]), lambda: torch.cat([]), lambda: a.sum(dim=(0, 0)), lambda: a.unsqueeze(3), lambda: a.flatten(2),
           lambda: a.unflatten(1, (2, 2)), lambda: a.view(-1, -1), lambda: a.reshape(-1, 4), lambda: torch.zeros(-1),
           lambda: a.repeat(2), lambda: a.split(0), lambda: a.chunk(0), lambda: a.movedim(0, 2), lambda: a.squeeze((0, 5))]:
    try:
        r = fn()
        print("ok", tuple(r.shape) if isinstance(r, torch.Tensor) else type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)
for f in [lambda: torch.cat([]), lambda: torch.cat(()), lambda: torch.stack([]), lambda: torch.hstack([]), lambda: torch.vstack([]),
          lambda: torch.concat([]), lambda: torch.split(torch.ones(2), -1), lambda: torch.ones(0).split(0), lambda: torch.ones(3).unflatten(0, (2, -1)),
          lambda: torch.ones(-1), lambda: torch.empty(2, -3), lambda: torch.randn(-1), lambda: torch.full((-1,), 2.0), lambda: torch.ones(3).new_zeros(-2),
          lambda: torch.zeros(2, -1), lambda: torch.ones(6).unflatten(0, (2, 3)).shape, lambda: torch.ones(6).unflatten(-1, (-1, 2)).shape,
          lambda: torch.where(torch.tensor([True, False]), torch.ones(3), 0.0), lambda: torch.where(torch.ones(3, dtype=torch.bool), torch.ones(2, 1), torch.ones(4, 1, 1)).shape,
          lambda: torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3), torch.ones(4, 1, 1))[0].shape, lambda: torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3), torch.ones(2, 2))]:
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, e)
