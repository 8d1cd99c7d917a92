import torch
from torch import nn
torch.manual_seed(0)
class EncoderRNN(nn.Module):
    def __init__(self, hidden_size, embedding, n_layers=2, dropout=0.1):
        super().__init__()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.embedding = embedding
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, dropout=(0 if n_layers == 1 else dropout), bidirectional=True)
    def forward(self, input_seq, input_lengths, hidden=None):
        embedded = self.embedding(input_seq)
        packed = nn.utils.rnn.pack_padded_sequence(embedded, input_lengths.cpu())
        outputs, hidden = self.gru(packed, hidden)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs)
        outputs = outputs[:, :, :self.hidden_size] + outputs[:, :, self.hidden_size:]
        return outputs, hidden
enc = EncoderRNN(4, nn.Embedding(10, 4))
seq = torch.tensor([[1, 2], [3, 4], [5, 0]])
out, hid = enc(seq, torch.tensor([3, 2]))
print(out, hid)
out.sum().backward()
print(enc.gru.weight_hh_l1_reverse.grad, enc.embedding.weight.grad)
m = nn.GRU(2, 3, bias=False, num_layers=2)
p = nn.utils.rnn.pack_sequence([torch.randn(3, 2), torch.randn(1, 2)])
o, h = m(p)
print(o, h)
h.sum().backward()
print(m.weight_ih_l1.grad)
with torch.no_grad():
    o, h = m(p)
print(o.data.requires_grad, o.data.grad_fn)
