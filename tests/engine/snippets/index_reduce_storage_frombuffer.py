import array
import torch
# Tensor.index_reduce_'s doc example, with gradients; storages; torch.frombuffer and
# torch.empty_strided's doc examples
x = torch.empty(5, 3).fill_(2)
t = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], dtype=torch.float)
index = torch.tensor([0, 4, 2, 0])
print(x.index_reduce_(0, index, t, 'prod'))
x = torch.empty(5, 3).fill_(2)
print(x.index_reduce_(0, index, t, 'prod', include_self=False))
torch.manual_seed(0)
s = torch.rand(5, 3, requires_grad=True)
src = torch.rand(4, 3, requires_grad=True)
for reduce in ("prod", "mean", "amax", "amin"):
    out = s.index_reduce(0, index, src, reduce)
    out.sum().backward()
    print(reduce, out.grad_fn, out.grad_fn._saved_reduce, s.grad, src.grad)
    s.grad = src.grad = None
try:
    x.index_reduce(0, index, t, "sum")
except RuntimeError as e:
    print(e)

v = torch.arange(6.)
print(v.storage())
print(v[2:].storage_offset(), v.untyped_storage().nbytes(), len(v.storage()), v.storage().dtype)
print(v[3:].storage().data_ptr() == v.storage().data_ptr(), v.storage().tolist())
st = v.storage()
st[0] = 10.0
print(v, st.type(), st.element_size())
print(torch.tensor([1, 2], dtype=torch.int16).untyped_storage())

a = array.array('i', [1, 2, 3])
t = torch.frombuffer(a, dtype=torch.int32)
print(t)
t[0] = -1
print(a)
a = b'\x01\x02\x03\x04'
print(torch.frombuffer(a, dtype=torch.int32))
print(torch.frombuffer(a, dtype=torch.int8, count=2, offset=1))
try:
    torch.frombuffer(bytearray(3), dtype=torch.int32)
except ValueError as e:
    print(e)

a = torch.empty_strided((2, 3), (1, 2))
print(a.stride(), a.size(), a.is_contiguous())
