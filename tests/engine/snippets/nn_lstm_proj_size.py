import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.set_default_dtype(torch.float64)  # float32 sums over 2 layers x 2 directions round apart
torch.manual_seed(0)
x = torch.randn(4, 3, 2, requires_grad=True)
for bias in (True, False):
    torch.manual_seed(2)
    packed = pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
    m = nn.LSTM(2, 3, proj_size=2, num_layers=2, bidirectional=True, bias=bias)
    print(m, [(n, tuple(p.shape)) for n, p in m.named_parameters()])
    o, (h, c) = m(x)
    print(o, h, c)
    print(o.grad_fn, o.grad_fn.next_functions, h.grad_fn.next_functions[0][0].next_functions)
    po, (ph, pc) = m(packed, (torch.ones(4, 3, 2), torch.zeros(4, 3, 3)))
    print(po, ph, pc)
    (o.sum() + c.sum() + pad_packed_sequence(po)[0].pow(2).sum() + ph.sum()).backward()
    print(x.grad)
    for n, p in m.named_parameters():
        print(n, p.grad)
    x.grad = None
u, (uh, uc) = nn.LSTM(2, 3, proj_size=1)(x[:, 0])
# float32 warns (once) that oneDNN's fused layer cannot project; float64 never went there
for _ in range(2):
    o32, _ = nn.LSTM(2, 3, proj_size=1, dtype=torch.float32)(x.float())
    print(o32.grad_fn)
print(nn.LSTM(2, 3, dtype=torch.float32)(x.float())[0].grad_fn, u.grad_fn)
print(u.shape, uh.shape, uc.shape)
for kw in (dict(proj_size=-1), dict(proj_size=3)):
    try:
        nn.LSTM(2, 3, **kw)
    except ValueError as e:
        print(e)
try:
    nn.GRU(2, 3, proj_size=1)
except ValueError as e:
    print(e)
m = nn.LSTM(2, 3, num_layers=2, proj_size=1)
print(m._flat_weights_names, m._all_weights, len(m._flat_weights))
print([[tuple(w.shape) for w in ws] for ws in m.all_weights])
nn.LSTM(2, 3, proj_size=2)(x, (torch.zeros(1, 3, 3), torch.zeros(1, 3, 3)))
