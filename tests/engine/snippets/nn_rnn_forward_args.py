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
]
for m, args in cases:
    try:
        out = m(*args)
        print("ok", type(out[0]).__name__)
    except Exception as e:
        print(type(m).__name__, type(e).__name__, e)
nn.GRU(2, 3)(x, torch.zeros(1, 4, 3))
