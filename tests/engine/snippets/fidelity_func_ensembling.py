# Model ensembling with stack_module_state + functional_call + vmap (the tutorial, small).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc2 = nn.Linear(8, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        return x


num_models = 3
data = torch.randn(5, 2, 1, 4, 4)
models = [SimpleMLP() for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]
params, buffers = stack_module_state(models)
print([p.size(0) for p in params.values()])
print({k: (tuple(v.shape), v.requires_grad) for k, v in params.items()})
base_model = SimpleMLP()


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


from torch import vmap

predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5))
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap.shape, predictions2_vmap.grad_fn is not None)
stack_module_state([])
