import torch

for call in [
    "torch.kaiser_window(5, beta=3.0)",
    "torch.kaiser_window(5, True, 3.0)",
    "torch.kaiser_window(5, beta=3.0, periodic=False)",
    "torch.kaiser_window(5, False)",
    "torch.hann_window(5, alpha=1.0)",
    "torch.hamming_window(5, alpha=0.5)",
    "torch.hamming_window(5, False, 0.5)",
    "torch.hamming_window(5, False, beta=0.5)",
    "torch.hamming_window(5, alpha=0.5, beta=0.4)",
    "torch.kaiser_window(5, 3.0)",
    "torch.kaiser_window(5, False, beta=2)",
    "torch.hamming_window(5, alpha=2)",
    "torch.ones(3).select_scatter(2.0, 0, 0)",
    "torch.ones(3).slice_scatter(2.0)",
    "torch.ones(3,3).diagonal_scatter(2.0)",
    "torch.select_scatter(torch.ones(3), 2.0, 0, 0)",
    "torch.ones(3).select_scatter(torch.tensor(2.), 'a', 0)",
]:
    try:
        print(call, eval(call))
    except Exception as e:
        print(call, type(e).__name__, e)
