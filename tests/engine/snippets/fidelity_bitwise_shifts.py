import torch
a = torch.tensor([1, 2, 3], dtype=torch.uint8)
print(a << 2, a << 7, a << 8, a >> 1, a << torch.tensor([1, 2, 3], dtype=torch.uint8))
b = torch.tensor([-8, 5, 1], dtype=torch.int64)
print(b << 1, b >> 1, b >> 64, b >> 70, b << 63, b << 64, b << -1, b >> -1)
i = torch.tensor([-8, 5], dtype=torch.int8)
print(i << 4, i >> 2, i >> 9)
print(torch.bitwise_left_shift(b, 2), b.bitwise_right_shift(1), torch.bitwise_left_shift(3, b.abs()))
print(2 << torch.tensor([1, 2]), 256 >> torch.tensor([1, 2]))
print(torch.tensor([True]) << 1, a << -1)
print(torch.tensor([[1], [2]], dtype=torch.int32) << torch.tensor([0, 1, 2]))
c = b.clone()
c <<= 2
print(c)
c >>= 1
print(c)
c.bitwise_left_shift_(1)
print(c)
flags = torch.zeros(4, dtype=torch.uint8)
flags |= (torch.tensor([1, 0, 1, 1], dtype=torch.uint8) << 3)
print(flags, (flags >> 3) & 1)
f = torch.tensor([1.5, -3.0])
for e in ['f << 1', 'f >> 1', 'b << 1.5', 'torch.bitwise_left_shift(f, 1)',
          'b << torch.tensor([1., 2., 3.])', 'torch.tensor([1, 2], dtype=torch.uint16) << 3',
          'torch.tensor([1, 2], dtype=torch.uint32) >> 1', 'torch.tensor([1, 2], dtype=torch.uint64) << 1']:
    try:
        print(e, eval(e))
    except Exception as ex:
        print(e, type(ex).__name__, ex)
