# torch.func tutorial "Neural Tangent Kernels" (small CNN, tiny inputs).
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = x.mean((2, 3))
        x = self.fc(x)
        return x


x_train = torch.randn(4, 3, 6, 6)
x_test = torch.randn(3, 3, 6, 6)
net = CNN()
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    # Compute J(x1)
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]

    # Compute J(x2)
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]

    # Compute J(x1) @ J(x2).T
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape, result.dtype, result.requires_grad)


def empirical_ntk_jacobian_contraction_mode(fnet_single, params, x1, x2, compute='full'):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    else:
        assert False
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


trace = empirical_ntk_jacobian_contraction_mode(fnet_single, params, x_train, x_test, 'trace')
diag = empirical_ntk_jacobian_contraction_mode(fnet_single, params, x_train, x_test, 'diagonal')
print(trace.shape, diag.shape)
print(torch.allclose(trace, result.diagonal(dim1=-2, dim2=-1).sum(-1), atol=1e-4))
print(torch.allclose(diag, result.diagonal(dim1=-2, dim2=-1), atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            # This computes ``vec @ J(x2).T``
            # `vec` is some unit vector (a single slice of the Identity matrix)
            vjps = vjp_fn(vec)
            # This computes ``J(X1) @ vjps``
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        # Here's our identity matrix
        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    # ``get_ntk(x1, x2)`` computes the NTK for a single data point x1, x2
    # Since the x1, x2 inputs to ``empirical_ntk_ntk_vps`` are batched,
    # we actually wish to compute the NTK between every pair of data points
    # between {x1} and {x2}. That's what the ``vmaps`` here do.
    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)

    if compute == 'full':
        return result
    if compute == 'trace':
        return torch.einsum('NMKK->NM', result)
    if compute == 'diagonal':
        return torch.einsum('NMKK->NMK', result)


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result_from_ntk_vps.shape)
assert torch.allclose(result_from_ntk_vps, result_from_jacobian_contraction, atol=1e-5)
print(torch.allclose(empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, 'trace'), trace, atol=1e-5))
print(result[0, 0].round(decimals=2))
