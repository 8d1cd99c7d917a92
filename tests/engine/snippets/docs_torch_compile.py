# torch.compile as PyTorch 2's docs use it: a compiled module and function give the eager
# values; the wrapper is an OptimizedModule around the model (state_dict keys, attributes)
import warnings

import torch

# (PyTorch's compiler, importing, raises DeprecationWarnings inside torch.jit that a script
# never shows: Python hides them outside __main__; the recording catches every warning)
warnings.filterwarnings("ignore", message=".*torch.jit.script_method", category=DeprecationWarning)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
opt_model = torch.compile(model)
print(type(opt_model).__name__, opt_model._orig_mod is model, opt_model.__len__())
print(opt_model)
print(list(opt_model.state_dict()))
x = torch.randn(3, 4, requires_grad=True)
y = opt_model(x)
print(y)
y.sum().backward()
print(x.grad)
print(model[0].bias.grad)
opt_model.eval()
print(model.training, opt_model.training)


@torch.compile
def f(a, b):
    return torch.sin(a) + torch.cos(b)


print(f(torch.ones(3), torch.zeros(3)), f.__name__)


@torch.compile(fullgraph=True, dynamic=False)
def g(t):
    return (t * 2).sum()


print(g(torch.arange(4.0)))
model.compile()
print(model(torch.ones(1, 4)))
try:
    torch.compile(model, mode="fast")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.compile(model, mode="default", options={"trace.enabled": True})
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.compiler.is_compiling())
