import torch
for f in [lambda: torch.tensor([torch.ones(2), torch.ones(2)]), lambda: torch.tensor([torch.ones(1), torch.ones(1)]),
          lambda: torch.tensor([[torch.tensor(1.)], [torch.tensor(2.)]]), lambda: torch.tensor([torch.ones(1, 1), 2.0])]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
a = torch.ones(2, requires_grad=True)
with torch.no_grad():
    print(torch.tensor([a[0], a[1]]))
print(torch.tensor([a[0].long(), 2]))
print(torch.tensor([a[0], a[1]]))
print(float(a[0]))
