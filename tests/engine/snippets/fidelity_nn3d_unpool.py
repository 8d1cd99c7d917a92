import torch
import torch.nn as nn

pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
print(unpool)
inp = torch.tensor(
    [
        [
            [
                [1.0, 2.0, 3.0, 4.0],
                [5.0, 6.0, 7.0, 8.0],
                [9.0, 10.0, 11.0, 12.0],
                [13.0, 14.0, 15.0, 16.0],
            ]
        ]
    ],
    requires_grad=True,
)
output, indices = pool(inp)
u = unpool(output, indices)
print(u, u.grad_fn.name(), u.grad_fn.next_functions[0][0].name())
print(unpool(output, indices, output_size=torch.Size([1, 1, 5, 5])))
(u * torch.arange(16.0).reshape(1, 1, 4, 4)).sum().backward()
print(inp.grad)
p1 = nn.MaxPool1d(2, stride=2, return_indices=True)
u1 = nn.MaxUnpool1d(2, stride=2)
print(u1)
o1, i1 = p1(torch.tensor([[[1.0, 2, 3, 4, 5, 6, 7, 8]]]))
print(u1(o1, i1), u1(o1, i1, output_size=[9]))
p3 = nn.MaxPool3d(2, return_indices=True)
x3 = torch.arange(64.0).reshape(1, 1, 4, 4, 4).sin()
o3, i3 = p3(x3)
print(nn.MaxUnpool3d(2)(o3, i3)[0, 0, 1], nn.MaxUnpool3d(3))
try:
    unpool(output, indices, output_size=(9, 9))
except ValueError as e:
    print(e)
try:
    unpool(output, torch.full((1, 1, 2, 2), 99))
except RuntimeError as e:
    print(e)
