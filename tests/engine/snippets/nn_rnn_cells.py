import torch
from torch import nn

torch.manual_seed(0)
for cell in [nn.RNNCell(2, 3), nn.LSTMCell(2, 3), nn.GRUCell(2, 3), nn.RNNCell(2, 3, bias=False, nonlinearity="relu")]:
    with torch.no_grad():
        for i, p in enumerate(cell.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 2)
    print(cell, [n for n, _ in cell.named_parameters()])
    x = torch.tensor([[0.5, -1.0], [1.0, 2.0]], requires_grad=True)
    h = None
    for t in range(3):
        h = cell(x * (t + 1), h)
    out = h[0] if isinstance(h, tuple) else h
    print(out)
    out.sum().backward()
    print(x.grad)
    print(cell(torch.tensor([0.5, -1.0])) if not isinstance(cell, nn.LSTMCell) else cell(torch.tensor([0.5, -1.0]))[1])
r = nn.RNN(4, 8)
print(all(p.abs().max().item() <= 8 ** -0.5 for p in r.parameters()))
