import torch
from torch.utils.checkpoint import checkpoint

calls = []


def f(x, scale=1.0):
    calls.append("start")
    print("run f, grad enabled:", torch.is_grad_enabled())
    y = x.sin() * scale
    z = y.exp()
    calls.append("end")
    print("end of f")
    return z


x = torch.tensor([0.5, 1.0], requires_grad=True)
out = checkpoint(f, x, use_reentrant=False, scale=2.0)
print(out, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
print(calls)
out.sum().backward()
print(calls)
print(x.grad)

# saved tensors read before backward
x.grad = None
calls.clear()
out = checkpoint(f, x, use_reentrant=False)
try:
    print(out.grad_fn._saved_result)
except Exception as e:
    print(type(e).__name__, e)
print(calls)


# dropout: RNG preserved in recompute
def g(x):
    return torch.nn.functional.dropout(x, 0.5, training=True) * x


torch.manual_seed(0)
x2 = torch.ones(8, requires_grad=True)
o = checkpoint(g, x2, use_reentrant=False)
o.sum().backward()
print(o, x2.grad)

# retain_graph twice
calls.clear()
out = checkpoint(f, x, use_reentrant=False)
out.sum().backward(retain_graph=True)
out.sum().backward()
print(calls)

# non-deterministic function
state = {"n": 0}


def h(x):
    state["n"] += 1
    return x * x if state["n"] == 1 else (x * x)[:1]


out = checkpoint(h, x, use_reentrant=False)
try:
    out.sum().backward()
except Exception as e:
    print(type(e).__name__, str(e)[:300])

# no grad needed
with torch.no_grad():
    print(checkpoint(f, x, use_reentrant=False))
# inputs not requiring grad
print(checkpoint(f, torch.ones(1), use_reentrant=False))
st = {"n": 0}


def mismatch(x):
    st["n"] += 1
    y = x if st["n"] == 1 else x[:1]
    return (y * y).exp()


out = checkpoint(mismatch, x, use_reentrant=False)
try:
    out.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
try:
    checkpoint(f, x, use_reentrant=True, scale=1.0)
except ValueError as e:
    print(e)
try:
    checkpoint(f, x, use_reentrant=False, determinism_check="strict")
except ValueError as e:
    print(e)
