import torch

# ATen names the C++ scalar types of a dtype mismatch: the unsigned ones too
for d in (torch.uint8, torch.uint16, torch.uint32, torch.uint64):
    try:
        torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=d))
    except RuntimeError as e:
        print(e)
