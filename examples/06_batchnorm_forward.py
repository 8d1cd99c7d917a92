# title: Batch normalization written by hand
# BN normalizes over the channel dimension; how well it works depends a lot on the batch size.
# It helps against overfitting, speeds up convergence and keeps gradients from vanishing.
# The note's function is applied to a fixed input and checked against F.batch_norm.
import torch


def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
    if mean_val is None:
        mean_val = x.mean([0, 2, 3])
    if var_val is None:
        # note: torch.var computes the unbiased estimate by default, so unbiased=False is needed
        var_val = x.var([0, 2, 3], unbiased=False)

    x = x - mean_val[None, ..., None, None]  # per channel: mean_val.shape == [channel]
    x = x / torch.sqrt(var_val[None, ..., None, None] + eps)
    x = x * bn_weight[..., None, None] + bn_bias[..., None, None]
    return mean_val, var_val, x


x = (torch.arange(24, dtype=torch.float64).reshape(2, 3, 2, 2) * 0.37).sin().requires_grad_()
weight = torch.tensor([1.0, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
bias = torch.tensor([0.0, 0.1, -0.2], dtype=torch.float64, requires_grad=True)

mean_val, var_val, out = dummy_bn_forward(x, weight, bias, 1e-5)
print(mean_val)
print(var_val)
reference = torch.nn.functional.batch_norm(x, None, None, weight, bias, training=True, eps=1e-5)
print(torch.allclose(out, reference))

(out * out).sum().backward()
print(weight.grad)
print(bias.grad)
