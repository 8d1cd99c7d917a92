import torch

torch.random.manual_seed(0)
with torch.random.fork_rng():
    print(torch.rand(2))
    torch.manual_seed(5)
    print(torch.randn(2))
print(torch.rand(2), torch.random.initial_seed())
g = torch.manual_seed(11)
print(type(g), g.initial_seed(), torch.initial_seed())
s = torch.random.get_rng_state()
a = torch.randint(0, 100, (5,))
torch.random.set_rng_state(s)
print(a, torch.randint(0, 100, (5,)))
print(torch.randperm(4, generator=torch.Generator().manual_seed(0)))
torch.manual_seed(0)
print(torch.randint(high=10, size=(3,)), torch.randint(10, (3,)), torch.randint(2, 5, (2,)), torch.randint(3, size=(2,)))
print(torch.normal(torch.arange(5.0), 0.3), torch.normal(2.0, torch.arange(1.0, 4.0)))
print(torch.normal(torch.arange(20.0), 0.7)[-3:])
