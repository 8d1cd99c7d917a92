import torch
from torch.nn.utils.rnn import (
    PackedSequence,
    pack_padded_sequence,
    pack_sequence,
    pad_packed_sequence,
    pad_sequence,
    unpack_sequence,
    unpad_sequence,
)


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + fn.name())
    for f, _ in fn.next_functions:
        walk(f, depth + 1)


x = (torch.arange(24.0).view(3, 4, 2) / 10).requires_grad_()
p = pack_padded_sequence(x, [2, 4, 1], batch_first=True, enforce_sorted=False)
print(p)
print(type(p).__name__, isinstance(p, tuple), p._fields, len(p))
data, batch_sizes, sorted_indices, unsorted_indices = p
print(batch_sizes.dtype, sorted_indices, unsorted_indices)
walk(p.data.grad_fn)
node = p.data.grad_fn
print([a for a in dir(node) if a.startswith(("_saved", "_raw_saved"))])
print(node._saved_batch_first, node._saved_input_sym_sizes, node._saved_result1)
out, lengths = pad_packed_sequence(p, batch_first=True, padding_value=-1.0, total_length=5)
print(out, lengths, lengths.dtype)
walk(out.grad_fn)
(out * torch.arange(5.0).view(1, 5, 1)).sum().backward()
print(x.grad)

# sorted lengths, time-major, lengths as a tensor; ties keep their order
y = torch.arange(8.0).view(4, 2, 1).requires_grad_()
q = pack_padded_sequence(y, torch.tensor([4, 3]))
print(q, q.data.grad_fn.next_functions)
r = pack_padded_sequence(torch.arange(4.0).view(1, 4), [1, 1, 1, 1], enforce_sorted=False)
print(r.sorted_indices, r.unsorted_indices)
t = pack_padded_sequence(torch.zeros(3, 4), [2, 3, 2, 3], enforce_sorted=False)
print(t.sorted_indices, t.batch_sizes)
padded, lens = pad_packed_sequence(q)
print(padded.grad_fn, padded.grad_fn.next_functions, lens)

# the other helpers
a, b, c = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])
s = pack_sequence([a, b, c], enforce_sorted=False)
print(s)
print(unpack_sequence(s))
print(pack_sequence([a, c, b]).batch_sizes)
pd = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 0.0]]).t()
print(pd._version, unpad_sequence(pd, torch.tensor([3, 1])), pd.shape, pd._version)
# ATen fills its padded result in place (empty + fill_) before the copies
print(pad_packed_sequence(q)[0]._version, pad_packed_sequence(q, batch_first=True)[0]._version)
print(pad_packed_sequence(p)[0]._version, pad_sequence([a, b, c])._version)
print(p.float() is p, p.double().data.dtype, p.to(torch.float64).sorted_indices, p.is_cuda)
print(PackedSequence(p.data, p.batch_sizes).unsorted_indices, PackedSequence, type(p).__mro__[1])
print(PackedSequence((p.data, p.batch_sizes), None, torch.tensor([2, 0, 1])).unsorted_indices)

# lengths as a tuple, a list of tensors, a float tensor; beyond the padded length
for lens in ((3, 2), [torch.tensor(3), torch.tensor(2)], torch.tensor([3.0, 2.0])):
    print(pack_padded_sequence(torch.ones(3, 2, 1), lens).batch_sizes)
long = pack_padded_sequence(torch.arange(6.0).view(3, 2), torch.tensor([3, 5]), enforce_sorted=False)
print(long)
print(p.to("cpu") is p, p.cpu() is p, p.to(torch.float32) is p, p.is_pinned())
print(p._replace(sorted_indices=None).sorted_indices, p.data.device, p.batch_sizes.device)

# a second derivative through the packing: ATen's backward is made of copies (then transposed)
g = torch.linspace(-1, 1, 24, dtype=torch.float64).view(3, 4, 2).requires_grad_()
for packed in (pack_padded_sequence(g, [4, 2, 1], batch_first=True),
               pack_padded_sequence(g.transpose(0, 1), [4, 2, 1])):
    (gg,) = torch.autograd.grad((packed.data * packed.data).sum(), g, create_graph=True)
    walk(gg.grad_fn)
    gg.sum().backward()
    print(g.grad)
    g.grad = None

for bad in (
    lambda: pack_padded_sequence(torch.zeros(3, 2), [1, 2]),
    lambda: pack_padded_sequence(torch.zeros(3, 2), [3]),
    lambda: pack_padded_sequence(torch.zeros(3, 2), [2, 0]),
    lambda: pad_packed_sequence(q, total_length=2),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
pack_padded_sequence(torch.zeros(3, 2, 1), [1, 3], batch_first=False)
