import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
y = (x * w).sum() + x.mean() * 2 - torch.exp(w).prod()
print(y.grad_fn)
print(y.grad_fn.next_functions)
print(y.grad_fn.next_functions[0][0].next_functions)
node = y.grad_fn
seen = []
stack = [node]
while stack:
    n = stack.pop()
    if n is None or n in seen:
        continue
    seen.append(n)
    print(n.name(), [type(f).__name__ if f is not None else None for f, _ in n.next_functions])
    stack.extend(f for f, _ in n.next_functions)
acc = x.grad_fn
print(acc, x.is_leaf, y.is_leaf, (x * 2).is_leaf)
m = x * w
print(m.grad_fn._saved_self, m.grad_fn._saved_other)
print(torch.exp(w).grad_fn._saved_result)
print(x.pow(3).grad_fn._saved_exponent, x.sum(dim=0, keepdim=True).grad_fn._saved_dim)
print(y.grad_fn.metadata, y.requires_grad, y.dtype)
