import torch
import torch.nn.functional as F

torch.manual_seed(0)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k = torch.randn(1, 2, 5, 4, requires_grad=True)
v = torch.randn(1, 2, 5, 4, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v)
print(out.grad_fn, len(out.grad_fn.next_functions))
print(out.detach().round(decimals=4))
(out * torch.arange(4.0)).sum().backward()
print(q.grad.round(decimals=3), v.grad[0, 1].round(decimals=3))
causal = F.scaled_dot_product_attention(q, q, q, is_causal=True)
print(causal[0, 0])
mask = torch.ones(3, 5, dtype=torch.bool).tril()
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3)[0, 0])
manual = torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1) @ v
print(torch.allclose(manual, out, atol=1e-6))
g, = torch.autograd.grad(F.scaled_dot_product_attention(q, k, v).sum(), q, create_graph=True)
print(g.grad_fn.name())
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)
