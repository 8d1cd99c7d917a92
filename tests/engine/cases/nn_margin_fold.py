"""Rows for the rarer nn ops: engine/ops/nn_loss_margin.py, nn_fold.py, nn_weight_norm.py,
nn_embedding_bag.py and the composite losses of engine/nn/functional/margin_loss.py."""

from tests.engine.cases import Case

F = "F = torch.nn.functional\n"
T2 = F + "y = torch.tensor([3, 1])\n"
ML = F + "y = torch.tensor([[3, 0, -1, 1], [1, 2, -1, 0]])\n"
PM = F + "t = torch.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, -1.0, 1.0, 1.0]], dtype=torch.float64)\n"
W = T2 + "w = torch.tensor([1.0, 2.0, 0.5, 1.0], dtype=torch.float64)\n"

CASES = [
    Case("soft_margin", "F.soft_margin_loss(a, t)", {"a": (2, 4)}, setup=PM),
    Case("soft_margin_none", "F.soft_margin_loss(a, t, reduction='none')", {"a": (2, 4)}, setup=PM),
    Case("multi_margin", "F.multi_margin_loss(a, y)", {"a": (2, 4)}, setup=T2, gradcheck=False),
    Case(
        "multi_margin_p2_weight_none",
        "F.multi_margin_loss(a, y, p=2, margin=0.5, weight=w, reduction='none')",
        {"a": (2, 4)},
        setup=W,
        gradcheck=False,
    ),
    Case(
        "multilabel_margin",
        "F.multilabel_margin_loss(a, y, reduction='sum')",
        {"a": (2, 4)},
        setup=ML,
        gradcheck=False,
    ),
    Case(  # deep enough to show C++'s `cos - margin` (SubBackward1)
        "cosine_embedding_none",
        "F.cosine_embedding_loss(a, b, torch.tensor([-1, 1]), margin=0.1, reduction='none')",
        {"a": (2, 3), "b": (2, 3)},
        setup=F,
    ),
    Case(
        "cosine_embedding",
        "F.cosine_embedding_loss(a, b, torch.tensor([1, -1]), margin=0.1)",
        {"a": (2, 3), "b": (2, 3)},
        setup=F,
    ),
    Case(
        "hinge_embedding",
        "F.hinge_embedding_loss(a, torch.tensor([1.0, -1.0, -1.0, 1.0], dtype=torch.float64))",
        {"a": (4,)},
        setup=F,
    ),
    Case(
        "multilabel_soft_margin",
        "F.multilabel_soft_margin_loss(a, (t > 0).double())",
        {"a": (2, 4)},
        setup=PM,
    ),
    Case(
        "gaussian_nll",
        "F.gaussian_nll_loss(a, b, v.abs() + 0.1)",
        {"a": (2, 3), "b": (2, 3), "v": (2, 3)},
        setup=F,
    ),
    Case(
        "multi_margin_bad_target",
        "F.multi_margin_loss(a, torch.tensor([4, 0]))",
        {"a": (2, 4)},
        setup=F,
        raises=True,
    ),
]

FOLD = "F = torch.nn.functional\n"
CASES += [
    Case(
        "unfold", "F.unfold(x, (2, 3), padding=1, stride=(1, 2))", {"x": (2, 2, 4, 5)}, setup=FOLD
    ),
    Case("unfold_unbatched", "F.unfold(x, 2, dilation=2)", {"x": (2, 5, 5)}, setup=FOLD),
    Case("fold", "F.fold(x, (4, 4), 2, stride=1)", {"x": (2, 8, 9)}, setup=FOLD),
    Case(
        "fold_padded", "F.fold(x, (3, 4), (2, 2), padding=1, stride=2)", {"x": (4, 6)}, setup=FOLD
    ),
    Case("fold_bad_blocks", "F.fold(x, (4, 4), 2)", {"x": (1, 8, 8)}, setup=FOLD, raises=True),
]

CASES += [
    Case("weight_norm_dim0", "torch._weight_norm(v, g, 0)", {"v": (2, 3), "g": (2, 1)}),
    Case("weight_norm_dim1", "torch._weight_norm(v, g, 1)", {"v": (2, 3, 2), "g": (1, 3, 1)}),
    Case("weight_norm_all", "torch._weight_norm(v, g, -1)", {"v": (2, 3), "g": ()}),
    Case("norm_except_dim", "torch.norm_except_dim(v, 2, 1)", {"v": (2, 3)}),
]

BAG = (
    "F = torch.nn.functional\n"
    "i = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0])\n"
    "o = torch.tensor([0, 4, 4])\n"
)
CASES += [
    Case("embedding_bag_mean", "F.embedding_bag(i, w, o)", {"w": (6, 3)}, setup=BAG),
    Case(
        "embedding_bag_sum_last_offset",
        "F.embedding_bag(i, w, o, mode='sum', include_last_offset=True)",
        {"w": (6, 3)},
        setup=BAG,
    ),
    Case(
        "embedding_bag_max_2d",
        "F.embedding_bag(i.view(2, 4), w, mode='max', padding_idx=4)",
        {"w": (6, 3)},
        setup=BAG,
    ),
]
