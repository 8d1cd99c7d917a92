import torch
from torch import nn

torch.manual_seed(0)
m = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)
print(m)
print(list(m.state_dict().keys()))
print(m.bias_k, m.bias_v.shape, m.add_zero_attn)
q = torch.randn(3, 2, 4)
kv = torch.randn(5, 2, 4)
mask = torch.tensor([[False, False, True, False, False]] * 3)
kpm = torch.tensor([[False] * 4 + [True], [False] * 5])
o, w = m(q, kv, kv, key_padding_mask=kpm, attn_mask=mask)
print(o, o.grad_fn.name())
print(w.shape, w)
o.pow(2).sum().backward()
print(m.bias_k.grad, m.bias_v.grad)
o2, w2 = m(q, kv, kv, need_weights=False, attn_mask=mask)
print(o2, w2)
o3, w3 = m(q[:, 0], kv[:, 0], kv[:, 0], average_attn_weights=False)
print(o3.shape, w3.shape, w3.sum(-1))

torch.manual_seed(1)
z = nn.MultiheadAttention(6, 3, add_zero_attn=True, kdim=2, vdim=3, batch_first=True)
print([n for n, _ in z.named_parameters()], z.bias_k)
o, w = z(torch.randn(2, 3, 6), torch.randn(2, 4, 2), torch.randn(2, 4, 3))
print(o, w)

b = nn.MultiheadAttention(4, 1, add_bias_kv=True, bias=False)
print([n for n, _ in b.named_parameters()])
try:
    b(q, kv, kv, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))
except AssertionError as e:
    print(e)
try:
    b(q, kv, kv, attn_mask=torch.zeros(3, 6))
except RuntimeError as e:
    print(e)
