import collections

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(3, 2)
loss = model(torch.randn(4, 3)).pow(2).mean()
grads = torch.autograd.grad(loss, dict(model.named_parameters()), retain_graph=True)
print(type(grads).__name__, list(grads), grads["bias"])
try:
    torch.autograd.grad(loss, collections.OrderedDict(model.named_parameters()))
except TypeError as e:
    print("TypeError", e)
try:
    torch.autograd.grad(loss, [])
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.autograd.grad(loss, model.bias, only_inputs=False, retain_graph=True))
x = torch.ones(2, requires_grad=True)
unused = torch.ones(2, requires_grad=True)
g = torch.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True, create_graph=True)
print(g[1], g[1].requires_grad)
print(F.log_softmax(torch.ones(3)), F.softmin(torch.ones(3)))
print(nn.Softmin()(torch.ones(3)))
torch.testing.assert_allclose(torch.ones(1), torch.ones(1))
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.ones(1).dtype, torch.get_default_dtype())
torch.set_default_tensor_type("torch.FloatTensor")
print(torch.ones(1).dtype)
for bad in (torch.LongTensor, "torch.cuda.FloatTensor"):
    try:
        torch.set_default_tensor_type(bad)
    except TypeError as e:
        print("TypeError", e)
