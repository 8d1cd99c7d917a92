import torch
import torch.nn.functional as F

torch.manual_seed(0)
q = torch.randn(2, 3, 4, requires_grad=True)
k = torch.randn(2, 5, 4)
v = torch.randn(2, 5, 4)
mask = torch.tensor([[True, True, False, False, True]]).expand(3, 5)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
print(out.shape, out.grad_fn.name())
fmask = torch.zeros(3, 5)
fmask[:, 2] = float("-inf")
out2 = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.5)
print(out2[0, 0])
out3 = F.scaled_dot_product_attention(q, k[:, :3], v[:, :3], is_causal=True)
print(out3[0])
try:
    F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)
except Exception as e:
    print(type(e).__name__, e)
allmask = torch.zeros(3, 5, dtype=torch.bool)
print(F.scaled_dot_product_attention(q, k, v, attn_mask=allmask)[0, 0])
out.sum().backward()
print(q.grad.shape, q.grad[0, 0])
qg = torch.randn(1, 4, 2, 8)
kg = torch.randn(1, 2, 2, 8)
print(F.scaled_dot_product_attention(qg, kg, kg, enable_gqa=True).shape)
try:
    F.scaled_dot_product_attention(qg, kg, kg)
except Exception as e:
    print(type(e).__name__, e)
torch.manual_seed(0)
for shape in [(1, 2, 4), (1, 1, 2, 4)]:
    q = torch.randn(*shape, requires_grad=True)
    k = torch.randn(*shape[:-2], 3, 4, requires_grad=True)
    v = torch.randn(*shape[:-2], 3, 4, requires_grad=True)
    mask = torch.tensor([[True, False, True], [False, False, False]])
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    print(out, out.grad_fn.name())
    fn = out.grad_fn
    print([n.name() if n else None for n, _ in fn.next_functions])
    if fn.next_functions[0][0] is not None:
        print([n.name() if n else None for n, _ in fn.next_functions[0][0].next_functions])
    out.sum().backward()
    print(q.grad, k.grad, v.grad)
    fm = torch.tensor([[0.0, float("-inf"), 0.0], [float("-inf")] * 3])
    print(F.scaled_dot_product_attention(q, k, v, attn_mask=fm))
qg = torch.randn(1, 4, 2, 8, requires_grad=True)
kg = torch.randn(1, 2, 2, 8, requires_grad=True)
o = F.scaled_dot_product_attention(qg, kg, kg, enable_gqa=True)
print(o.shape, o.grad_fn.name(), o[0, :, 0, 0])
o.sum().backward()
print(kg.grad[0, :, 0, 0])
o = F.scaled_dot_product_attention(qg[0], kg[0], kg[0], enable_gqa=True)
print(o.shape, o.grad_fn.name())
for qs, ks in [((1, 4, 2, 8), (1, 2, 2, 8)), ((1, 4, 2, 8), (1, 3, 2, 8)), ((4, 2, 8), (2, 3, 8))]:
    try:
        F.scaled_dot_product_attention(torch.randn(qs), torch.randn(ks), torch.randn(ks))
    except Exception as e:
        print(type(e).__name__, e)
try:
    F.scaled_dot_product_attention(torch.randn(1, 4, 2, 8), torch.randn(1, 3, 2, 8), torch.randn(1, 3, 2, 8), enable_gqa=True)
except Exception as e:
    print(type(e).__name__, e)
q = torch.randn(2, 4, requires_grad=True)
out = F.scaled_dot_product_attention(q, q, q, attn_mask=torch.tensor([[True, False], [True, True]]))
fn = out.grad_fn
while fn is not None:
    print(fn.name(), [n.name() if n is not None else None for n, _ in fn.next_functions])
    fn = fn.next_functions[0][0] if fn.next_functions else None
