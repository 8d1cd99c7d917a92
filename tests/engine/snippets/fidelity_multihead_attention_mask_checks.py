import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2, batch_first=True)
q = torch.randn(2, 4, 8)
k = torch.randn(2, 5, 8)
mask = torch.triu(torch.ones(4, 5, dtype=torch.bool), diagonal=1)
kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
out, w = mha(q, k, k, attn_mask=mask, key_padding_mask=kpm)
print(out.shape, w.shape, out.grad_fn)
print(w[1])
out, w = mha(q, k, k, need_weights=True, average_attn_weights=False)
print(w.shape)
try:
    mha(q, k, k, attn_mask=torch.ones(3, 5, dtype=torch.bool))
except RuntimeError as e:
    print(e)
mha.eval()
with torch.no_grad():
    o2, w2 = mha(q, k, k, key_padding_mask=kpm.float())
print(o2.shape)
t = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32)
src = torch.rand((10, 3, 16))
tgt = torch.rand((7, 3, 16))
out = t(src, tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(7))
print(out.shape, out.grad_fn)
print(nn.Transformer.generate_square_subsequent_mask(3))
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=8, nhead=2, batch_first=True), num_layers=2)
print(enc(torch.randn(2, 3, 8), src_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]])).shape)
for m in [torch.ones(2, 4, 5, dtype=torch.bool), torch.zeros(4, 4, 5, dtype=torch.bool)]:
    try:
        print(mha(q, k, k, attn_mask=m)[0].shape)
    except RuntimeError as e:
        print(e)
def tryit(*a, **k):
    try:
        print(mha(*a, **k)[0].shape)
    except (RuntimeError, AssertionError) as e:
        print(type(e).__name__, e)
tryit(q, k[0], k)
tryit(q, k, k, key_padding_mask=torch.zeros(2, 1, 5, dtype=torch.bool))
tryit(q[0], k[0], k[0])
tryit(q[0], k[0], k[0], attn_mask=torch.zeros(3, 4, 5, dtype=torch.bool))
tryit(q[0], k[0], k[0], attn_mask=torch.zeros(2, 4, 5, dtype=torch.bool))
tryit(q[0], k[0], k[0], key_padding_mask=torch.zeros(2, 5, dtype=torch.bool))
tryit(q[0, 0], k[0, 0], k[0, 0])
tryit(q, k, k, attn_mask=torch.ones(1, 1, 4, 5, dtype=torch.bool))
