import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

torch.manual_seed(0)
x = torch.randn(4, 3, 2)
packed = pack_padded_sequence(x, [4, 2, 1])
cases = [
    (nn.GRU(2, 3), (packed, torch.zeros(1, 2, 3))),
    (nn.GRU(2, 3), (pack_padded_sequence(torch.randn(4, 3, 5), [4, 2, 1]),)),
    (nn.RNN(2, 3), (packed, torch.zeros(2, 3, 3))),
    (nn.LSTM(2, 3), (packed, (torch.zeros(1, 2, 3), torch.zeros(1, 3, 3)))),
    (nn.LSTM(3, 3), (packed,)),
    (nn.GRU(2, 3), (pack_padded_sequence(x.double(), [4, 2, 1]),)),
    (nn.LSTM(2, 3), (x, (torch.zeros(1, 3, 3), torch.zeros(1, 2, 3)))),
    (nn.LSTM(2, 3), (x, (torch.zeros(1, 2, 3), torch.zeros(1, 3, 3)))),
    (nn.LSTM(2, 3), (x, (torch.zeros(3, 3), torch.zeros(3, 3)))),
    (nn.LSTM(2, 3), (x[0], (torch.zeros(1, 3, 3), torch.zeros(1, 3, 3)))),
    (nn.LSTM(2, 3, batch_first=True), (x, (torch.zeros(1, 3, 3), torch.zeros(1, 3, 3)))),
    (nn.LSTM(2, 3), (x.double(),)),
    (nn.LSTM(3, 3), (x,)),
    (nn.LSTM(2, 3), (x[None],)),
    (nn.GRU(2, 3), (x[0], torch.zeros(1, 3, 3))),
    (nn.GRU(2, 3), (x, torch.zeros(3, 3))),
    (nn.GRU(3, 3), (x,)),
    (nn.GRU(2, 3), (x[None],)),
    (nn.GRU(2, 3), (x.int(),)),
    (nn.GRU(2, 3, bidirectional=True), (x, torch.zeros(1, 3, 3))),
    (nn.RNN(2, 3), (x, torch.zeros(3, 3))),
    (nn.RNN(2, 3), (x[0, 0, 0],)),
    (nn.RNN(2, 3), (x.double(),)),
    (nn.GRU(2, 3), (x[0], torch.zeros(1, 3))),
    (nn.LSTM(2, 3), (x[0], (torch.zeros(1, 3), torch.zeros(1, 3)))),
    (nn.GRU(2, 3), (packed, torch.zeros(1, 3))),
    (nn.GRU(2, 3), (x[:, 0], torch.zeros(2, 3))),
]
for m, args in cases:
    try:
        out = m(*args)
        print("ok", type(out[0]).__name__)
    except Exception as e:
        print(type(m).__name__, type(e).__name__, e)

# unbatched input with batch_first: unsqueezed at dim 0, transposed in and out
seq = torch.randn(4, 2, requires_grad=True)
for m in (nn.LSTM(2, 3, batch_first=True), nn.GRU(2, 3, batch_first=True), nn.RNN(2, 3)):
    m.flatten_parameters()
    out, h = m(seq)
    h = h[0] if isinstance(h, tuple) else h
    print(out.shape, out.grad_fn, out.grad_fn.next_functions, h.grad_fn.next_functions)
    out.sum().backward()
    print(seq.grad)
    seq.grad = None
nn.GRU(2, 3)(x, torch.zeros(1, 4, 3))
