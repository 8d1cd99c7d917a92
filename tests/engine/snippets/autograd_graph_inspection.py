import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -0.5], requires_grad=True)
y = torch.tanh(x * w + 1).sum()
node = y.grad_fn
while node is not None:
    print(
        node.name(), [type(f).__name__ if f is not None else None for f, _ in node.next_functions]
    )
    nxt = [f for f, _ in node.next_functions if f is not None and f.next_functions]
    node = nxt[0] if nxt else None
print(y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(x.grad_fn, type(y.grad_fn).__name__, y.grad_fn.metadata)
