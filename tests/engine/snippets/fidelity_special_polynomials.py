import torch

x = torch.linspace(-1, 1, 5)
S = torch.special
print(S.chebyshev_polynomial_t(x, 3), S.chebyshev_polynomial_u(x, 2))
print(S.chebyshev_polynomial_v(x, 3), S.chebyshev_polynomial_w(x, 2))
print(S.hermite_polynomial_h(x, 4), S.hermite_polynomial_he(x, 3))
print(S.laguerre_polynomial_l(x, 3), S.legendre_polynomial_p(x, 4))
print(
    S.shifted_chebyshev_polynomial_t(x, 2),
    S.legendre_polynomial_p(x, torch.tensor([0, 1, 2, 3, 4])),
)
print(S.hermite_polynomial_h(x, -1), S.chebyshev_polynomial_t(x, 0))
print(S.softmax(torch.tensor([1.0, 2.0, 3.0]), 0), S.log_softmax(torch.tensor([1.0, 2.0]), 0))
print(
    S.logsumexp(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1),
    S.round(torch.tensor([1.25, 2.5])),
    S.exp2(torch.tensor([3.0])),
)
print(
    S.sinc(torch.tensor([0.0, 0.5])), S.expm1(torch.tensor([1e-5])), S.log1p(torch.tensor([1e-5]))
)
