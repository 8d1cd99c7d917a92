import torch

x = torch.ones(3)
for c in [
    'x.slice_scatter(x, start="a")',
    'x.select_scatter(x[0], 0, "a")',
    "torch.slice_scatter(x, x, 0, None, None, None)",
    "x.slice_scatter(x, 0, 0, 3, 1, 5)",
    "torch.select_scatter(x)",
    "x.select_scatter()",
    "x.select_scatter(x[0], 0, index=0, dim=1)",
    "x.diagonal_scatter(src=x, foo=1)",
    "x.select_scatter(x[0], dim=0, index=torch.tensor(0))",
    "x.select_scatter(x[0], 0, 0.0)",
    "torch.select_scatter(input=x, src=x[0], dim=0, index=1)",
    "x.select_scatter(torch.tensor(5), 0, 0)",
    "torch.slice_scatter(x, x[:1], start=-1)",
    "x.slice_scatter(x[:1], end=1).grad_fn",
    "torch.zeros(2,2).diagonal_scatter(torch.ones(2), 0, 1, 0)",
    "torch.hann_window(4, dtype=float)",
    "torch.kaiser_window(torch.tensor(4), True, torch.tensor(3.))",
]:
    try:
        print(c, eval(c))
    except Exception as e:
        print(c, type(e).__name__, e)
x = torch.zeros(3, requires_grad=True)
y = x.select_scatter(torch.tensor(2.0), 0, torch.tensor(1))
print(y, y.grad_fn._saved_index, type(y.grad_fn._saved_index))
