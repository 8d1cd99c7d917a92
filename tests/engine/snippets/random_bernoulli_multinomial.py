# bernoulli and multinomial as functions and Tensor methods: the same draws as PyTorch for one
# seed, a zero gradient through bernoulli's probabilities, no derivative with a float p
import torch

torch.manual_seed(3)
p = torch.tensor([0.2, 0.9, 0.5, 0.5])
print(p.bernoulli(), torch.bernoulli(p), torch.bernoulli(p, 0.5), p.bernoulli(0.1))
print(p.multinomial(2), p.multinomial(6, replacement=True))
g = torch.Generator().manual_seed(5)
print(p.bernoulli(generator=g), torch.rand(2).bernoulli_(0.5))
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.bernoulli(w.sigmoid())
print(b, b.grad_fn.name(), b.grad_fn.next_functions[0][0].name())
b.sum().backward()
print(w.grad)
c = torch.bernoulli(w.sigmoid(), 0.3)
print(c.grad_fn.name(), w.sigmoid().multinomial(1).grad_fn)
