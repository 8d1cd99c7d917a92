# In-place ops on and with dual tensors: tangents written in place, through views.
import torch
import torch.autograd.forward_ad as fwAD
p = torch.tensor([1.0, 2.0, 3.0])
with fwAD.dual_level():
    d = fwAD.make_dual(p, torch.tensor([1.0, 1.0, 1.0]))
    q = torch.zeros(2, 3)
    q[0] = d * 2
    q[1, 1:] = d[:2]
    print(q)
    r = torch.zeros(3)
    r.copy_(d)
    print(r)
    s = d.clone()
    s[0] = 5.0
    print(s)
    s.fill_(1.0)
    print(s)
    t = d.clone()
    t += d
    print(t)
    u = torch.ones(3)
    u *= d
    print(u)
    print(fwAD.unpack_dual(p))
