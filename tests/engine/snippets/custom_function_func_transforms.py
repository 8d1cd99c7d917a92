# "Extending torch.func with autograd.Function" (docs notes): setup_context, grad, vmap rules, jvp.
import numpy as np
import torch


def to_numpy(tensor):
    return tensor.cpu().numpy()


class NumpySort(torch.autograd.Function):
    # Note that forward does not take ctx
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (
            torch.tensor(result, device=device),
            torch.tensor(ind, device=device),
            torch.tensor(ind_inv, device=device),
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        # Handle negative dims correctly
        dim = dim if dim >= 0 else dim + x.dim() - 1
        result = NumpySort.apply(x, dim + 1)
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None

    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim

        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)

        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0


def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result


x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]])
out, ind, ind_inv = NumpySort.apply(x, 1)
print(out, ind, ind_inv, sep="\n")
print(out.requires_grad, ind.requires_grad, ind.dtype)
grad_x = torch.func.grad(lambda x: numpy_sort(x).sum())(x)
print(grad_x)
print(torch.allclose(grad_x, torch.ones_like(x)))
w = torch.tensor([1.0, 10.0, 100.0])
print(torch.func.grad(lambda x: (numpy_sort(x) * w).sum())(x))
xr = x.clone().requires_grad_()
y = numpy_sort(xr)
print(y.grad_fn.name(), type(y.grad_fn).__name__)
(y * w).sum().backward()
print(xr.grad)
batched = torch.vmap(numpy_sort)(x)
print(batched)
print(torch.vmap(numpy_sort, in_dims=1)(x.t().contiguous()))


class MyCube(torch.autograd.Function):
    # Set generate_vmap_rule to True to ask PyTorch to automatically generate
    # a vmap rule.
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, _ = MyCube.apply(x)
    return result


x = torch.tensor([1.0, -2.0, 0.5])
result = torch.vmap(my_cube)(x)
print(result, torch.allclose(result, x ** 3))
print(torch.func.grad(lambda x: my_cube(x).sum())(x))
print(torch.func.grad(torch.func.grad(lambda x: my_cube(x)))(torch.tensor(2.0)))
print(torch.vmap(torch.func.grad(my_cube))(x))


class MySin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, gO):
        x, = ctx.saved_tensors
        return gO * x.cos()

    @staticmethod
    def jvp(ctx, x_t):
        x, = ctx.saved_tensors
        return x_t * x.cos()


x = torch.tensor([0.0, 1.0, 2.0])
print(torch.func.jvp(MySin.apply, (x,), (torch.ones(3),)))
try:
    torch.func.jacfwd(MySin.apply)(x)
except RuntimeError as e:
    print(type(e).__name__, e)
MySin.generate_vmap_rule = True
print(torch.func.jacfwd(MySin.apply)(x))
print(torch.func.jacrev(MySin.apply)(x))


class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


print(OldStyle.apply(torch.ones(2, requires_grad=True)))
torch.func.grad(lambda x: OldStyle.apply(x).sum())(torch.ones(2))
