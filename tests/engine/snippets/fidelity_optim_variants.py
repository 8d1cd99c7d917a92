import torch
import torch.nn as nn

X = torch.linspace(-1, 1, 8).view(4, 2)
T = torch.tensor([[1.0], [0.0], [0.5], [-1.0]])
for opt_cls, kw in [(torch.optim.Adamax, {}), (torch.optim.NAdam, dict(lr=0.01)),
                    (torch.optim.RAdam, dict(lr=0.01)), (torch.optim.NAdam, dict(weight_decay=0.1)),
                    (torch.optim.RAdam, dict(weight_decay=0.1, decoupled_weight_decay=True)),
                    (torch.optim.Adamax, dict(weight_decay=0.01, maximize=True))]:
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = opt_cls(model.parameters(), **kw)
    for _ in range(8):
        opt.zero_grad()
        loss = ((model(X) - T) ** 2).mean()
        loss.backward()
        opt.step()
    print(opt_cls.__name__, f"{loss.item():.5f}", model.weight.data, model.bias.data)
print(opt)
print(sorted(opt.state[model.weight].keys()))
