import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except RuntimeError as err:
        print(label, err)


w = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
y = w * w
with torch.no_grad():
    w.add_(1)
attempt("leaf", lambda: y.sum().backward())
a = torch.ones(3, requires_grad=True)
b = a.tanh()
c = b * 2
b.zero_()
attempt("tanh result", lambda: c.sum().backward())
p = torch.ones(3, requires_grad=True)
q = p.sigmoid()
r = q.sigmoid()
q.mul_(3)
q.add_(1)
attempt("two bumps", lambda: r.sum().backward())
m = torch.ones(2, 2, requires_grad=True)
n = m.t() * 1
k = n.exp()
n.t_()
attempt("after t_", lambda: k.sum().backward())
