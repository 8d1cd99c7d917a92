import torch

x = torch.ones(2)
print(isinstance(x, torch.FloatTensor), isinstance(x.double(), torch.FloatTensor))
print(isinstance(x.double(), torch.DoubleTensor), isinstance(x.long(), torch.LongTensor))
print(isinstance(x.int(), torch.IntTensor), isinstance(x.bool(), torch.BoolTensor))
print(isinstance(x.byte(), torch.ByteTensor), isinstance(3.0, torch.FloatTensor))
print(isinstance(torch.nn.Parameter(x), torch.FloatTensor), isinstance(x, torch.Tensor))
print(torch.FloatTensor, torch.LongTensor.__name__, torch.FloatTensor.dtype)
y = torch.FloatTensor([1, 2, 3])
print(y, type(y), y.type(), isinstance(y, torch.FloatTensor))
print(torch.LongTensor(2, 3).shape, torch.DoubleTensor([[1.5]]))
print(y.type(torch.IntTensor), y.type("torch.DoubleTensor"))
if isinstance(y, torch.FloatTensor):
    print("float input")
