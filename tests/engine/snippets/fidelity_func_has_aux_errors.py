import torch
from torch.func import grad, jacfwd, jacrev, jvp, vjp

x = torch.tensor([0.5, 2.0])
calls = {
    "grad": lambda: grad(lambda x: x.sin().sum(), has_aux=True)(x),
    "vjp": lambda: vjp(lambda x: x.sin(), x, has_aux=True),
    "jvp": lambda: jvp(lambda x: x.sin(), (x,), (x,), has_aux=True),
    "jacrev": lambda: jacrev(lambda x: x.sin(), has_aux=True)(x),
    "jacfwd": lambda: jacfwd(lambda x: x.sin(), has_aux=True)(x),
}
for name, call in calls.items():
    try:
        call()
    except RuntimeError as e:
        print(name, e)
g, aux = grad(lambda x: (x.sin().sum(), x.cos()), has_aux=True)(x)
print(g, aux)
j, aux = jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(x)
print(j, aux)
