import torch

a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(3, 2, requires_grad=True)
y = a.mm(b)
print([n for n in dir(y.grad_fn) if not n.startswith("__")])
z = (a * 2).sum()
print([n for n in dir(z.grad_fn) if not n.startswith("__")])
print(y.grad_fn._sequence_nr() < z.grad_fn._sequence_nr(), type(y.grad_fn._sequence_nr()))
print(z.grad_fn.requires_grad, len(z.grad_fn._input_metadata))
m = y.grad_fn._input_metadata[0]
print(m.shape, m.dtype, m.device, m.is_nested_tensor, m.is_cpp_nested_tensor)
acc = z.grad_fn.next_functions[0][0].next_functions[0][0]
print([n for n in dir(acc) if not n.startswith("__")])
print(acc._sequence_nr(), acc._input_metadata[0].shape)
s, t = a.unbind(0)
print([x.shape for x in s.grad_fn._input_metadata])
h = a.double().bfloat16()
print(h.grad_fn._input_metadata[0].dtype)


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


o = Double.apply(a)
names = set(dir(o.grad_fn))
for n in ("_sequence_nr", "_input_metadata", "_set_sequence_nr", "_forward_cls", "needs_input_grad"):
    print(n, n in names)
print(o.grad_fn._input_metadata[0].shape, o.grad_fn._sequence_nr() > z.grad_fn._sequence_nr())
