import torch
import torch.nn.functional as F
import torch.autograd.graph as graph

torch.manual_seed(0)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
k = torch.randn(1, 2, 3, 4, requires_grad=True)
v = torch.randn(1, 2, 3, 4, requires_grad=True)
# the CPU flash kernel's node saves its output and the rows' log-sum-exp beside q, k, v
o = F.scaled_dot_product_attention(q, k, v)
g = o.grad_fn
print(g.name(), sorted(a for a in dir(g) if a.startswith("_saved")))
print(g._saved_logsumexp, g._saved_logsumexp.dtype, g._saved_logsumexp.requires_grad)
print(torch.equal(g._saved_output, o), g._saved_output.grad_fn.name())
# a fully masked row: its log-sum-exp is 0, as the kernel writes it
m = torch.tensor([[True, False, True], [False, False, False], [True, True, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=m).grad_fn._saved_logsumexp)
print(F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3).grad_fn._saved_logsumexp)
# half inputs: the log-sum-exp stays float32
qh, kh, vh = (t.detach().half().requires_grad_() for t in (q, k, v))
print(F.scaled_dot_product_attention(qh, kh, vh).grad_fn._saved_logsumexp.dtype)
# pack hooks see q, k, v, then the log-sum-exp, then the output
packed = []
with graph.saved_tensors_hooks(lambda t: packed.append(tuple(t.shape)) or t, lambda t: t):
    F.scaled_dot_product_attention(q, k, v)
print(packed)
