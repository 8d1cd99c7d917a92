import numpy as np
import torch

for dt in (torch.uint16, torch.uint32, torch.uint64):
    t = torch.tensor([1, 2, 300], dtype=dt)
    print(
        t,
        t.dtype,
        t.is_signed() if hasattr(t, "is_signed") else "",
        dt.is_signed,
        dt.itemsize,
        t.element_size(),
    )
    print(torch.iinfo(dt))
    print(t.to(torch.float32), t.tolist(), t[0].item())
    for fn in (
        "torch.zeros(2, dtype=dt)",
        "torch.ones(2, dtype=dt)",
        "torch.arange(3, dtype=dt)",
        "torch.full((2,), 7, dtype=dt)",
        "torch.empty(2, dtype=dt).shape",
        "torch.tensor([-1], dtype=dt)",
        "torch.tensor([70000], dtype=dt)",
        "t + t",
        "t + 1",
        "t * 2",
        "t.sum()",
        "t.max()",
        "t == t",
        "t.float() + t",
        "t // 2",
        "t - t",
        "t.to(torch.int64)",
        "-t",
        "t.abs()",
        "t & t",
        "torch.tensor([1, 2]).to(dt)",
        "t.sort()",
        "t.cumsum(0)",
        "t.mean()",
        "t * 1.5",
        "t.argmax()",
        "t.clone()",
        "t[1:]",
        "t.view(3, 1)",
        "torch.cat([t, t])",
        "torch.promote_types(dt, torch.int64)",
        "torch.promote_types(dt, torch.uint8)",
        "torch.promote_types(dt, torch.float32)",
        "t.numpy()",
        "t.requires_grad_()",
        "t.prod()",
        "t.min()",
        "t.unique()",
        "t / 2",
        "t % 2",
        "t.pow(2)",
        "t > 1",
        "t.bitwise_not()",
        "(t + torch.tensor([1, 1, 1], dtype=torch.int32)).dtype",
    ):
        try:
            print(fn, "->", eval(fn))
        except Exception as e:
            print(fn, "!!", type(e).__name__, str(e).splitlines()[0][:200])

for fn in (
    "torch.promote_types(torch.uint16, torch.bool)",
    "torch.promote_types(torch.uint16, torch.uint32)",
    "torch.promote_types(torch.uint64, torch.float16)",
    "torch.promote_types(torch.uint16, torch.complex64)",
    "torch.tensor([1, 2], dtype=torch.uint16) + torch.tensor([1, 2], dtype=torch.int64)",
    "torch.tensor([1, 2], dtype=torch.uint32) * torch.tensor([1, 2])",
    "torch.tensor([1, 2], dtype=torch.uint64) * 3",
    "torch.tensor([2**64 - 1], dtype=torch.uint64)",
    "torch.tensor([2**63], dtype=torch.uint64)",
    "torch.tensor([2**64], dtype=torch.uint64)",
    "torch.tensor([1, 2], dtype=torch.uint32).sum().dtype",
    "torch.tensor(5, dtype=torch.uint32)",
    "torch.tensor([1.7, 2.2]).to(torch.uint32)",
    "torch.tensor([1, 2], dtype=torch.uint16) * torch.tensor(2)",
    "torch.tensor([1, 2], dtype=torch.uint16) * torch.tensor([2], dtype=torch.int16)",
    "torch.uint16.is_signed, torch.uint16.is_floating_point, torch.uint16.itemsize",
    "torch.iinfo(torch.uint64)",
    "torch.tensor([1, 2], dtype=torch.uint16).type()",
    "torch.tensor([1, 2], dtype=torch.uint16).to(torch.float16)",
    "torch.tensor([1, 2], dtype=torch.uint16).double()",
    "torch.tensor([[1, 2]], dtype=torch.uint32).t()",
    "torch.tensor([1, 2], dtype=torch.uint32).eq(1)",
    "torch.tensor([1, 2], dtype=torch.uint32) == 1",
    "torch.tensor([1, 2], dtype=torch.uint16).numpy().dtype",
    "torch.from_numpy(__import__('numpy').array([1, 2], dtype='uint16'))",
    "torch.from_numpy(__import__('numpy').array([1, 2], dtype='uint64'))",
    "torch.tensor([1, 2], dtype=torch.uint16).div(2, rounding_mode='floor')",
    "torch.tensor([3, 2], dtype=torch.uint16).max()",
    "torch.tensor([3, 2], dtype=torch.uint16).sort()",
    "torch.zeros(2, 2, dtype=torch.uint64)",
    "torch.tensor([1, 2], dtype=torch.uint16) - 1",
    "torch.tensor([1, 2], dtype=torch.uint16).add(1)",
    "torch.tensor([1, 2], dtype=torch.uint16) < 2",
    "torch.tensor([1, 2], dtype=torch.uint16).item()",
    "torch.tensor([1, 2], dtype=torch.uint16).float().mean()",
):
    try:
        print(fn, "->", eval(fn))
    except Exception as e:
        print(fn, "!!", type(e).__name__, str(e).splitlines()[0][:200])

for arr in (np.array(["a"]), np.array([1], dtype=np.longdouble), np.array([1], dtype=np.uint32)):
    try:
        print(torch.from_numpy(arr))
    except TypeError as e:
        print(e)
