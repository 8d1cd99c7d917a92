# Tensor.numpy() on a tensor that requires grad: refused only while grad mode is on.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    print(a.numpy(), (a * 2).numpy())
with torch.inference_mode():
    print(a.numpy())
    with torch.enable_grad():
        try:
            a.numpy()
        except RuntimeError as e:
            print("inference+enable_grad:", e)
with torch.set_grad_enabled(False):
    print(a.numpy().dtype)
print(a.numpy(force=True), a.detach().numpy())


@torch.no_grad()
def to_list(t):
    return t.numpy().tolist()


print(to_list(a * 3))


class NumpyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("forward sees", x.requires_grad, torch.is_grad_enabled())
        result = torch.from_numpy(x.numpy().copy()).exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        print("backward grad mode", torch.is_grad_enabled())
        return grad_output * result


y = NumpyExp.apply(a)
print(y)
y.sum().backward()
print(a.grad)
a.numpy()
