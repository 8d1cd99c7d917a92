import torch

p = torch.tensor([1.0, 2.0], requires_grad=True)


def hook(param):
    print("accumulated", param.grad)
    with torch.no_grad():
        param.add_(-0.1 * param.grad)


h = p.register_post_accumulate_grad_hook(hook)
(p * p).sum().backward()
print(p)
(p * 3).sum().backward()
print(p, p.grad)
h.remove()
(p * 3).sum().backward()
print(p.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc, acc.variable is x)
acc.register_hook(lambda gi, go: print("acc hook", gi, go))
acc.register_prehook(lambda go: print("acc prehook", go))
(x * 5).sum().backward()
print(x.grad)
