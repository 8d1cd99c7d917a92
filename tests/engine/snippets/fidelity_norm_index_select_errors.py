import torch
import torch.nn as nn
import torch.nn.functional as F
def t(f):
    try:
        r = f()
        print(getattr(r, "shape", r))
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
t(lambda: nn.BatchNorm2d(3)(torch.randn(2, 4, 5, 5)))
t(lambda: nn.BatchNorm2d(3).eval()(torch.randn(2, 4, 5, 5)))
t(lambda: nn.BatchNorm2d(3, track_running_stats=False).eval()(torch.randn(2, 4, 5, 5)))
t(lambda: nn.BatchNorm2d(4, track_running_stats=False).eval()(torch.randn(2, 4, 5, 5)))
t(lambda: F.batch_norm(torch.randn(2, 4), None, None))
t(lambda: F.batch_norm(torch.randn(2, 4), torch.zeros(4), None))
t(lambda: F.batch_norm(torch.randn(2, 4), None, None, training=True))
t(lambda: F.batch_norm(torch.randn(2, 4), None, None, weight=torch.ones(3), training=True))
t(lambda: F.batch_norm(torch.randn(2, 4), None, None, bias=torch.ones(5), training=True))
t(lambda: nn.GroupNorm(3, 4))
t(lambda: F.group_norm(torch.randn(2, 4, 3), 3))
t(lambda: nn.InstanceNorm1d(3)(torch.randn(2, 4, 5)))
t(lambda: torch.zeros(3).index_select(0, torch.tensor([1.0])))
t(lambda: torch.zeros(3).index_select(0, torch.tensor([1], dtype=torch.int32)))
t(lambda: torch.zeros(3).index_select(0, torch.tensor([1], dtype=torch.int16)))
t(lambda: torch.zeros(3).index_select(0, torch.tensor([True])))
t(lambda: torch.zeros(3, 2).index_select(1, torch.tensor([[1]])))
