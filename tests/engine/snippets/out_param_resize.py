import torch

# out= of the wrong size: an op resizes it with one UserWarning per output that had elements
# (none for an empty one); factories resize silently, except arange, which warns in its own words
a = torch.tensor([1.0, -2.0, 3.0])
m = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 6.0]])
calls = {
    "sigmoid": lambda o: torch.sigmoid(a, out=o),
    "lerp": lambda o: torch.lerp(a, a * 2, 0.5, out=o),
    "std": lambda o: torch.std(m, 1, out=o),
    "logsumexp": lambda o: torch.logsumexp(m, 1, out=o),
    "outer": lambda o: torch.outer(a, a, out=o),
    "addmm": lambda o: torch.addmm(torch.zeros(2, 2), m, m.T, out=o),
    "gather": lambda o: torch.gather(m, 1, torch.tensor([[2], [0]]), out=o),
    "index_select": lambda o: torch.index_select(m, 0, torch.tensor([1]), out=o),
    "tensordot": lambda o: torch.tensordot(m, m, dims=([1], [1]), out=o),
    "softmax": lambda o: torch.softmax(a, 0, out=o),
    "clamp": lambda o: torch.clamp(a, 0, 2, out=o),
    "argmax": lambda o: torch.argmax(m, 1, out=o.long()),
    "zeros": lambda o: torch.zeros(3, out=o),
    "full": lambda o: torch.full((2,), 7.0, out=o),
    "arange": lambda o: torch.arange(3, out=o),
    "linspace": lambda o: torch.linspace(0, 1, 3, out=o),
}
for name, call in calls.items():
    for shape in [(5,), (0,), (2, 2, 2)]:
        o = torch.empty(shape)
        r = call(o)
        print(name, shape, r, tuple(r.shape))
values, indices = torch.empty(4), torch.empty(0, dtype=torch.long)
r = torch.max(m, 1, out=(values, indices))
print(r, r.values is values, r.indices is indices)
r = torch.sort(a, out=(torch.empty(1), torch.empty(5, dtype=torch.long)))
print(r)
print(torch.arange(4, out=torch.empty(2, 2)), torch.ones(2, 2, out=torch.empty(1, dtype=torch.long)))
torch.manual_seed(0)
print(torch.rand(3, out=torch.empty(1)), torch.randn(2, out=torch.empty(2, dtype=torch.float64)), torch.rand(2))
for attempt in (
    lambda: torch.zeros(2, dtype=torch.float64, out=torch.empty(2)),
    lambda: torch.sigmoid(a.requires_grad_(), out=torch.empty(3)),
):
    try:
        attempt()
    except RuntimeError as err:
        print(err)
