import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def walk(fn, depth=0, limit=4):
    if fn is None or depth > limit:
        return
    print("  " * depth + fn.name())
    for f, _ in fn.next_functions:
        walk(f, depth + 1, limit)


torch.manual_seed(0)
x = torch.randn(3, 4, 2, requires_grad=True)

# the packed GRU graph: per-step outputs catted, h_n stacked and put back in batch order
gru = nn.GRU(2, 3, batch_first=True)
p = pack_padded_sequence(x, [2, 4, 1], batch_first=True, enforce_sorted=False)
o, h = gru(p)
print(p.sorted_indices, p.batch_sizes)
print(o.data.grad_fn, [f.name() for f, _ in o.data.grad_fn.next_functions])
print(h.grad_fn, h.grad_fn.next_functions[0][0].name())
walk(h.grad_fn, limit=6)
padded, lengths = pad_packed_sequence(o, batch_first=True)
print(padded, lengths)
walk(padded.grad_fn, limit=3)

models = [
    (nn.GRU, {}),
    (nn.LSTM, {"num_layers": 2, "bidirectional": True}),
    (nn.RNN, {"bidirectional": True, "nonlinearity": "relu"}),
    (nn.LSTM, {}),
]
for model, kw in models:
    for sort_it, lens in ((False, [2, 4, 1]), (True, [4, 2, 2])):
        torch.manual_seed(1)
        m = model(2, 3, batch_first=True, **kw)
        packed = pack_padded_sequence(x, lens, batch_first=True, enforce_sorted=sort_it)
        dirs = 2 if kw.get("bidirectional") else 1
        h0 = torch.randn(kw.get("num_layers", 1) * dirs, 3, 3, requires_grad=True)
        hx = (h0, h0 * 2) if model is nn.LSTM else h0
        out, hn = m(packed, hx)
        print(type(m).__name__, kw, sort_it)
        print(out)
        print(hn)
        first = hn[0] if isinstance(hn, tuple) else hn
        walk(first.grad_fn, limit=2)
        pp, _ = pad_packed_sequence(out, batch_first=True)
        ((pp**2).sum() + (first * torch.arange(3.0).view(1, 3, 1)).sum()).backward()
        print(x.grad, h0.grad)
        for name, w in m.named_parameters():
            print(name, w.grad)
        x.grad = None

# no hx: zeros; time-major input; a GRUCell's graph follows ATen's cell
lstm = nn.LSTM(2, 3)
seq = pack_padded_sequence(x.transpose(0, 1), [4, 2, 1])
out, (hn, cn) = lstm(seq)
print(out.data.shape, hn, cn, cn.grad_fn)
cell = nn.GRUCell(2, 3)
hc = cell(x[0], torch.zeros(4, 3))
walk(hc.grad_fn, limit=5)

# dropout between layers (training mode) acts on the packed data
torch.manual_seed(0)
m = nn.GRU(2, 3, num_layers=2, dropout=0.5)
xs = torch.randn(3, 2, 2)
o, h = m(pack_padded_sequence(xs, [3, 1]))
walk(o.data.grad_fn.next_functions[-1][0], limit=7)
print(o.data, h)
