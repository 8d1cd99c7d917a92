import torch
from torch import nn
for O, kw in [(torch.optim.ASGD, dict(lr=0.05, t0=3, lambd=1e-3)), (torch.optim.ASGD, dict(weight_decay=0.1)),
              (torch.optim.Rprop, dict(lr=0.05)), (torch.optim.Rprop, dict(etas=(0.3, 1.5), step_sizes=(1e-3, 0.1), maximize=True))]:
    torch.manual_seed(0)
    m = nn.Linear(3, 2)
    o = O(m.parameters(), **kw)
    for _ in range(8):
        o.zero_grad(); m(torch.randn(4, 3)).pow(2).mean().backward(); o.step()
    print(O.__name__, m.weight.data, m.bias.data)
    st = o.state_dict()['state'][0]
    print({k: (v if k == 'step' or v.dim() == 0 else v.shape) for k, v in st.items()})
print(torch.optim.Rprop(m.parameters()))
print(torch.optim.ASGD(m.parameters()))
torch.manual_seed(0)
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
o = torch.optim.Rprop([w])
for _ in range(5):
    o.zero_grad(); (w ** 3).sum().backward(); o.step()
print(w)
