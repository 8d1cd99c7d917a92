import torch

torch.set_printoptions(precision=3)

x = torch.tensor([-2.0, -0.25, 0.0, 0.5, 3.0, 12.0], requires_grad=True)
print(torch.special.i0(x), torch.i0(x).grad_fn.name())
print(torch.special.i0e(x), torch.special.i1(x), torch.special.i1e(x))
y = torch.special.i0e(x) + torch.special.i1(x) + torch.special.i1e(x) + torch.i0(x)
y.sum().backward()
print(x.grad)
fn = y.grad_fn
for _ in range(3):
    print(fn.name(), fn.next_functions[1][0].name())
    fn = fn.next_functions[0][0]
print(fn.name())
r = x.detach().abs() + 0.5
print(torch.special.bessel_j0(x), torch.special.bessel_j1(x).requires_grad)
print(torch.special.bessel_y0(r), torch.special.bessel_y1(r))
print(torch.special.modified_bessel_i0(x), torch.special.modified_bessel_k1(r))
print(torch.special.scaled_modified_bessel_k0(r), torch.special.spherical_bessel_j0(x))
print(torch.special.airy_ai(x))
