import torch
x = torch.tensor([1., 2., 3.])
print(x.clone().eq_(2), x.clone().gt_(torch.tensor([0., 5., 1.])), x.clone().lt_(2), x.clone().ne_(1), x.clone().le_(2), x.clone().ge_(2))
i = torch.tensor([1, 0, 3])
print(i.clone().eq_(0), i.clone().bitwise_and_(2), i.clone().bitwise_or_(4), i.clone().bitwise_xor_(1), i.clone().bitwise_not_())
print(x.clone().logical_and_(torch.tensor([0., 1., 1.])), x.clone().logical_not_(), x.clone().logical_or_(torch.zeros(3)), x.clone().logical_xor_(torch.ones(3)))
b = torch.tensor([True, False])
print(b.clone().logical_not_(), b.clone().eq_(True))
m = torch.ones(2, 2)
print(m.clone().addmm_(m, m), torch.ones(2).addmv_(m, torch.ones(2)), m.clone().addr_(torch.ones(2), torch.ones(2)))
print(torch.ones(1, 2, 2).baddbmm_(torch.ones(1, 2, 2), torch.ones(1, 2, 2), beta=0.5))
a = torch.ones(3, requires_grad=True)
y = a * 2
y.addmm_ if False else None
y.cumprod_(0)
print(y, y.grad_fn)
z = a * 1
print(torch.ones(2, requires_grad=True).to_dense().grad_fn, torch.ones(2).is_cpu, torch.ones(2).is_sparse)
