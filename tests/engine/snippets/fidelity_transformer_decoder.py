import torch
import torch.nn as nn

torch.manual_seed(0)
decoder_layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
print(decoder_layer)
decoder = nn.TransformerDecoder(decoder_layer, num_layers=2)
memory = torch.arange(3 * 2 * 8.0).reshape(3, 2, 8) / 40
tgt = torch.arange(4 * 2 * 8.0).reshape(4, 2, 8).cos()
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
out = decoder(tgt, memory, tgt_mask=mask)
print(out.shape, out.grad_fn.name())
print(out[0, 0])
out.sum().backward()
print(decoder.layers[0].multihead_attn.in_proj_weight.grad.abs().sum() > 0)

torch.manual_seed(1)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=16, dropout=0.0, batch_first=True)
src = torch.arange(2 * 5 * 8.0).reshape(2, 5, 8).sin()
tgt = torch.arange(2 * 3 * 8.0).reshape(2, 3, 8).cos()
y = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3))
print(y.shape)
print(y[1, 2])
print(sum(p.numel() for p in model.parameters()))
print([n for n, _ in model.named_parameters()][:6])
try:
    model(src, tgt[:1])
except RuntimeError as e:
    print("RuntimeError:", e)
bn = nn.BatchNorm3d(2)
x = torch.arange(2 * 2 * 2 * 2 * 2.0).reshape(2, 2, 2, 2, 2)
print(bn(x)[0, 0], bn)
try:
    bn(x[0])
except ValueError as e:
    print("ValueError:", e)
