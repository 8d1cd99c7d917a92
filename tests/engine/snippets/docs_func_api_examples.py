# The examples in the torch.func API docs (vmap, grad, vjp, jvp, jacrev, jacfwd, hessian).
import torch
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.manual_seed(0)
batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))

batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)


def model(feature_vec):
    # Very simple linear model with activation
    return feature_vec.dot(weights).relu()


examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)
print(result.shape)

x = torch.randn(2, 3, 5)
y = torch.randn(2, 3, 5)
batched_dot = torch.vmap(torch.vmap(torch.dot))  # [N1, N0, D], [N1, N0, D] -> [N1, N0]
print(batched_dot(x, y).shape)
x, y = torch.randn(2, 5), torch.randn(2, 5)
batched_dot = torch.vmap(torch.dot, in_dims=1)  # [D, N], [D, N] -> [N]
print(batched_dot(x, y).shape)
f = lambda dict: torch.dot(dict['x'], dict['y'])
x, y = torch.randn(2, 5), torch.randn(5)
input = {'x': x, 'y': y}
batched_dot = torch.vmap(f, in_dims=({'x': 0, 'y': None},))
print(batched_dot(input))
f = lambda x: x ** 2
x = torch.randn(2, 5)
batched_pow = torch.vmap(f, out_dims=1)
print(batched_pow(x).shape)  # [5, 2]
x = torch.randn([2, 5])


def fn(x, scale=4.):
    return x * scale


batched_pow = torch.vmap(fn)
assert torch.allclose(batched_pow(x), x * 4)
print(batched_pow(x, scale=x).shape)  # scale is not batched, output has shape [2, 2, 5]

x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
assert torch.allclose(neg_sin_x, -x.sin())
print(cos_x, neg_sin_x)


def compute_loss(weights, example, target):
    y = example @ weights
    return ((y - target) ** 2).mean()  # MSELoss


weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(*inputs)
print(grad_weight_per_example.shape, grad_weight_per_example.requires_grad)


def my_loss_func(y, y_pred):
    loss_per_sample = (0.5 * y_pred - y) ** 2
    loss = loss_per_sample.mean()
    return loss, (y_pred, loss_per_sample)


fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
y_true = torch.rand(4)
y_preds = torch.rand(4, requires_grad=True)
out = fn(y_true, y_preds)
print(out)


def f(x):
    with torch.no_grad():
        c = x ** 2
    return x - c


print(grad(f)(torch.randn([])))


def f(x, y):
    return x**2 + y**2


x, y = torch.randn([]), torch.randn([])
print(grad(f, argnums=(0, 1))(x, y))

x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
assert torch.allclose(vjps[0], x.cos() + -x.sin())
print(vjps)
f = lambda x: {'first': x.sin(), 'second': x.cos()}
(_, vjpfunc) = torch.func.vjp(f, x)
cotangents = {'first': torch.ones([5]), 'second': torch.ones([5])}
vjps = vjpfunc(cotangents)
print(len(vjps), torch.allclose(vjps[0], x.cos() + -x.sin()))
x = torch.randn([5], requires_grad=True)


def f(x):
    with torch.no_grad():
        c = x ** 2
    return x - c


_, vjp_fn = vjp(f, x)
print(vjp_fn(torch.ones_like(x)))

x = torch.randn([])
f = lambda x: x * torch.tensor([1., 2., 3])
value, grad_ = jvp(f, (x,), (torch.tensor(1.),))
assert torch.allclose(value, f(x))
assert torch.allclose(grad_, torch.tensor([1., 2, 3]))
print(value, grad_)


def f(x, y):
    return x * y


x, y = torch.randn(5), torch.randn(5)
value, grad_ = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
print(torch.allclose(grad_, x + y))

x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)
x = torch.randn(6, 5)
jacobian = vmap(jacrev(torch.sin))(x)
assert jacobian.shape == (6, 5, 5)
x = torch.randn(5)


def f(x):
    x_sin = x.sin()
    return x_sin, x_sin


jacobian, aux = jacrev(f, has_aux=True)(x)
print(type(jacobian), len(jacobian), aux.shape)
jacobian = jacrev(torch.sin, chunk_size=2)(x)
print(torch.allclose(jacobian, torch.diag(x.cos())))
hess = jacrev(jacrev(torch.sin))(x)
print(hess.shape)


def f(x, y):
    return x + y ** 2


x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=1)(x, y)
expected = torch.diag(2 * y)
assert torch.allclose(jacobian, expected)
jac_x, jac_y = jacfwd(f, argnums=(0, 1))(x, y)
print(jac_x.shape, torch.allclose(jac_y, expected))
jacobian = jacfwd(torch.sin, randomness='same')(x)
print(torch.allclose(jacobian, torch.diag(x.cos())))


def f(x):
    return x.sin().sum()


x = torch.randn(5)
hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
assert torch.allclose(hess, torch.diag(-x.sin()))
print(hess.diagonal())
for make in [
    lambda: torch.vmap(torch.sin, randomness='x'),
    lambda: torch.vmap(torch.sin, chunk_size=-2),
    lambda: jacrev(torch.sin, chunk_size=-1),
]:
    try:
        make()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
print(torch.vmap(torch.sin, chunk_size=2)(torch.zeros(5)))
jacrev(torch.sin, chunk_size=0)
