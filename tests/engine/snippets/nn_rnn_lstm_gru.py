import torch
from torch import nn


def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape) * (1 + 0.1 * i))


x = torch.arange(2 * 3 * 2, dtype=torch.float32).reshape(3, 2, 2) / 10
for m in [nn.RNN(2, 3), nn.LSTM(2, 3), nn.GRU(2, 3), nn.RNN(2, 3, nonlinearity="relu", bias=False),
          nn.LSTM(2, 3, num_layers=2), nn.GRU(2, 3, bidirectional=True)]:
    fill(m)
    print(m)
    print([(n, tuple(p.shape)) for n, p in m.named_parameters()])
    out, h = m(x)
    print(out.shape, out)
    if isinstance(h, tuple):
        print([t.shape for t in h], h[1])
    else:
        print(h.shape, h)
    out.sum().backward()
    print(m.weight_hh_l0.grad)
lstm = nn.LSTM(input_size=2, hidden_size=3, batch_first=True)
fill(lstm)
xb = x.transpose(0, 1).contiguous()
o, (hn, cn) = lstm(xb, (torch.ones(1, 2, 3) * 0.1, torch.zeros(1, 2, 3)))
print(o.shape, hn, cn)
o2, _ = lstm(xb[0])
print(o2.shape, o2)
