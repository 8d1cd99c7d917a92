import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)
print(layer)
encoder = nn.TransformerEncoder(layer, num_layers=2)
print(encoder.layers[0].linear1.weight.equal(encoder.layers[1].linear1.weight), encoder.layers[0] is layer)
src = torch.randn(3, 2, 4)
out = encoder(src)
print(out.shape)
print(out)
(out * torch.arange(4.0)).sum().backward()
print(encoder.layers[0].linear2.bias.grad)
pre = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
x = torch.randn(2, 3, 4)
mask = torch.triu(torch.full((3, 3), float("-inf")), diagonal=1)
print(pre(x, src_mask=mask))
pre.eval()
with torch.no_grad():
    print(pre(x)[0])
print(type(encoder), type(layer))
