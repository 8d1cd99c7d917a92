import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(input_size=3, hidden_size=4, num_layers=1, batch_first=True)
x = torch.randn(2, 5, 3)
h0 = torch.zeros(1, 2, 4)
out, hn = rnn(x, h0)
print(out.shape, hn)
print(out.grad_fn)
loss = out.pow(2).mean()
loss.backward()
print(rnn.weight_ih_l0.grad)
lstm = nn.LSTM(3, 2, num_layers=2)
o, (h, c) = lstm(x.transpose(0, 1))
print(o[-1], h.shape, c)
gru = nn.GRU(3, 3, bidirectional=True, batch_first=True)
o2, h2 = gru(x)
print(o2.shape, h2)
