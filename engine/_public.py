"""Classes print under PyTorch's module paths: `type(x)` is `<class 'torch.Tensor'>`.

`install_as_torch` also registers those paths as modules (so pickling a model by class
reference finds `torch.nn.modules.batchnorm.BatchNorm1d` as PyTorch names it).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

# torch module -> the engine classes ("engine.module.Qualname") PyTorch defines there
PUBLIC: dict[str, tuple[str, ...]] = {
    "torch": (
        "engine._creation.BFloat16Tensor",
        "engine._creation.BoolTensor",
        "engine._creation.ByteTensor",
        "engine._creation.CharTensor",
        "engine._creation.DoubleTensor",
        "engine._creation.FloatTensor",
        "engine._creation.HalfTensor",
        "engine._creation.IntTensor",
        "engine._creation.LongTensor",
        "engine._creation.ShortTensor",
        "engine._device.device",
        "engine._dtype.dtype",
        "engine._finfo.finfo",
        "engine._finfo.iinfo",
        "engine._layout.layout",
        "engine._layout.memory_format",
        "engine._size.Size",
        "engine._tensor.Tensor",
    ),
    "torch._C": (
        "engine._generator.Generator",
        "engine.ops.linalg_solve._LinAlgError",
    ),
    "torch._C._profiler": ("engine.profiler.ProfilerActivity",),
    "torch.storage": ("engine.storage.TypedStorage", "engine.storage.UntypedStorage"),
    "torch.autograd.anomaly_mode": (
        "engine.autograd.anomaly_mode.detect_anomaly",
        "engine.autograd.anomaly_mode.set_detect_anomaly",
    ),
    "torch.autograd.function": (
        "engine.autograd.function.BackwardCFunction",
        "engine.autograd.function.Function",
        "engine.autograd.function.InplaceFunction",
        "engine.autograd.function.NestedIOFunction",
    ),
    "torch.autograd.grad_mode": (
        "engine.autograd.grad_mode.enable_grad",
        "engine.autograd.grad_mode.inference_mode",
        "engine.autograd.grad_mode.no_grad",
        "engine.autograd.grad_mode.set_grad_enabled",
        "engine.autograd.grad_mode.set_multithreading_enabled",
    ),
    "torch.autograd.graph": (
        "engine.autograd.graph.Node",
        "engine.autograd.saved_hooks.save_on_cpu",
        "engine.autograd.saved_hooks.saved_tensors_hooks",
    ),
    "torch.autograd.profiler": (
        "engine.autograd.profiler.profile",
        "engine.autograd.profiler.record_function",
    ),
    "torch._dynamo.eval_frame": ("engine.compiler.OptimizedModule",),
    "torch.autograd.profiler_util": (
        "engine.autograd.profiler_util.EventList",
        "engine.autograd.profiler_util.FunctionEvent",
    ),
    "torch.nn.modules.activation": (
        "engine.nn.modules.attention.MultiheadAttention",
        "engine.nn.modules.activation.CELU",
        "engine.nn.modules.activation.ELU",
        "engine.nn.modules.activation.GELU",
        "engine.nn.modules.activation.GLU",
        "engine.nn.modules.activation.Hardsigmoid",
        "engine.nn.modules.activation.Hardswish",
        "engine.nn.modules.activation.Hardtanh",
        "engine.nn.modules.activation.LeakyReLU",
        "engine.nn.modules.activation.LogSigmoid",
        "engine.nn.modules.activation.LogSoftmax",
        "engine.nn.modules.activation.Mish",
        "engine.nn.modules.activation.ReLU",
        "engine.nn.modules.activation.ReLU6",
        "engine.nn.modules.activation.SELU",
        "engine.nn.modules.activation.SiLU",
        "engine.nn.modules.activation.Sigmoid",
        "engine.nn.modules.activation.Softmax",
        "engine.nn.modules.activation.Softmin",
        "engine.nn.modules.activation.Softplus",
        "engine.nn.modules.activation.Softsign",
        "engine.nn.modules.activation.Tanh",
        "engine.nn.modules.activation.Tanhshrink",
        "engine.nn.modules.activation.Threshold",
        "engine.nn.modules.activation.Hardshrink",
        "engine.nn.modules.activation.PReLU",
        "engine.nn.modules.activation.Softmax2d",
        "engine.nn.modules.activation.Softshrink",
    ),
    "torch.nn.modules.batchnorm": (
        "engine.nn.modules.batchnorm.BatchNorm1d",
        "engine.nn.modules.batchnorm.BatchNorm2d",
        "engine.nn.modules.batchnorm.BatchNorm3d",
        "engine.nn.modules._functions.SyncBatchNorm",
    ),
    "torch.nn.modules.container": (
        "engine.nn.modules.container.ModuleDict",
        "engine.nn.modules.container.ModuleList",
        "engine.nn.modules.container.Sequential",
        "engine.nn.modules.param_containers.ParameterDict",
        "engine.nn.modules.param_containers.ParameterList",
    ),
    "torch.nn.modules.conv": (
        "engine.nn.modules.conv.ConvTranspose1d",
        "engine.nn.modules.conv.Conv1d",
        "engine.nn.modules.conv.Conv2d",
        "engine.nn.modules.conv.ConvTranspose2d",
    ),
    "torch.nn.modules.distance": (
        "engine.nn.modules.distance.CosineSimilarity",
        "engine.nn.modules.distance.PairwiseDistance",
    ),
    "torch.nn.modules.dropout": (
        "engine.nn.modules.dropout.Dropout",
        "engine.nn.modules.dropout.Dropout1d",
        "engine.nn.modules.dropout.Dropout2d",
    ),
    "torch.nn.modules.flatten": (
        "engine.nn.modules.flatten.Flatten",
        "engine.nn.modules.flatten.Unflatten",
    ),
    "torch.nn.modules.instancenorm": (
        "engine.nn.modules.instancenorm.InstanceNorm1d",
        "engine.nn.modules.instancenorm.InstanceNorm2d",
    ),
    "torch.nn.modules.linear": (
        "engine.nn.modules.linear.Bilinear",
        "engine.nn.modules.linear.Identity",
        "engine.nn.modules.linear.Linear",
        "engine.nn.modules.attention.NonDynamicallyQuantizableLinear",
    ),
    "torch.nn.modules.fold": (
        "engine.nn.modules.fold.Fold",
        "engine.nn.modules.fold.Unfold",
    ),
    "torch.nn.modules.loss": (
        "engine.nn.modules.loss.CosineEmbeddingLoss",
        "engine.nn.modules.loss.GaussianNLLLoss",
        "engine.nn.modules.loss.HingeEmbeddingLoss",
        "engine.nn.modules.loss.MultiLabelMarginLoss",
        "engine.nn.modules.loss.MultiLabelSoftMarginLoss",
        "engine.nn.modules.loss.MultiMarginLoss",
        "engine.nn.modules.loss.SoftMarginLoss",
        "engine.nn.modules.loss.TripletMarginWithDistanceLoss",
        "engine.nn.modules.loss.MarginRankingLoss",
        "engine.nn.modules.loss.PoissonNLLLoss",
        "engine.nn.modules.loss.TripletMarginLoss",
        "engine.nn.modules.loss.BCELoss",
        "engine.nn.modules.loss.BCEWithLogitsLoss",
        "engine.nn.modules.loss.CrossEntropyLoss",
        "engine.nn.modules.loss.HuberLoss",
        "engine.nn.modules.loss.KLDivLoss",
        "engine.nn.modules.loss.L1Loss",
        "engine.nn.modules.loss.MSELoss",
        "engine.nn.modules.loss.NLLLoss",
        "engine.nn.modules.loss.SmoothL1Loss",
    ),
    "torch.nn.modules.module": ("engine.nn.modules.module.Module",),
    "torch.nn.modules.normalization": (
        "engine.nn.modules.normalization.RMSNorm",
        "engine.nn.modules.normalization.GroupNorm",
        "engine.nn.modules.normalization.LayerNorm",
    ),
    "torch.nn.modules.padding": (
        "engine.nn.modules.padding.ReflectionPad1d",
        "engine.nn.modules.padding.ReflectionPad2d",
        "engine.nn.modules.padding.ReplicationPad1d",
        "engine.nn.modules.padding.ReplicationPad2d",
        "engine.nn.modules.padding.ConstantPad1d",
        "engine.nn.modules.padding.ConstantPad2d",
        "engine.nn.modules.padding.ConstantPad3d",
        "engine.nn.modules.padding.ZeroPad1d",
        "engine.nn.modules.padding.ZeroPad2d",
    ),
    "torch.nn.modules.pixelshuffle": (
        "engine.nn.modules.pixel.PixelShuffle",
        "engine.nn.modules.pixel.PixelUnshuffle",
    ),
    "torch.nn.modules.pooling": (
        "engine.nn.modules.pooling.AdaptiveAvgPool1d",
        "engine.nn.modules.pooling.AdaptiveAvgPool2d",
        "engine.nn.modules.pooling.AvgPool1d",
        "engine.nn.modules.pooling.AvgPool2d",
        "engine.nn.modules.pooling.MaxPool1d",
        "engine.nn.modules.pooling.MaxPool2d",
    ),
    "torch.nn.modules.rnn": (
        "engine.nn.modules.rnn.GRU",
        "engine.nn.modules.rnn.GRUCell",
        "engine.nn.modules.rnn.LSTM",
        "engine.nn.modules.rnn.LSTMCell",
        "engine.nn.modules.rnn.RNN",
        "engine.nn.modules.rnn.RNNBase",
        "engine.nn.modules.rnn.RNNCell",
    ),
    "torch.nn.utils.rnn": (
        "engine.nn.utils.rnn.PackedSequence",
        "engine.nn.utils.rnn.PackedSequence_",
    ),
    "torch.nn.modules.sparse": (
        "engine.nn.modules.sparse.EmbeddingBag",
        "engine.nn.modules.sparse.Embedding",
    ),
    "torch.nn.modules.transformer": (
        "engine.nn.modules.transformer_decoder.Transformer",
        "engine.nn.modules.transformer_decoder.TransformerDecoder",
        "engine.nn.modules.transformer_decoder.TransformerDecoderLayer",
        "engine.nn.modules.transformer.TransformerEncoder",
        "engine.nn.modules.transformer.TransformerEncoderLayer",
    ),
    "torch.nn.modules.upsampling": ("engine.nn.modules.upsampling.Upsample",),
    "torch.distributions.bernoulli": ("engine.distributions.kinds.Bernoulli",),
    "torch.distributions.beta": ("engine.distributions.beta.Beta",),
    "torch.distributions.binomial": ("engine.distributions.binomial.Binomial",),
    "torch.distributions.categorical": ("engine.distributions.kinds.Categorical",),
    "torch.distributions.cauchy": ("engine.distributions.cauchy.Cauchy",),
    "torch.distributions.chi2": ("engine.distributions.chi2.Chi2",),
    "torch.distributions.constraints": (
        "engine.distributions.constraints.base.Constraint",
        "engine.distributions.constraints.base.MixtureSameFamilyConstraint",
        "engine.distributions.constraints.sets._Boolean",
        "engine.distributions.constraints.base._Cat",
        "engine.distributions.constraints.matrix._CorrCholesky",
        "engine.distributions.constraints.base._Dependent",
        "engine.distributions.constraints.base._DependentProperty",
        "engine.distributions.constraints.sets._GreaterThan",
        "engine.distributions.constraints.sets._GreaterThanEq",
        "engine.distributions.constraints.sets._HalfOpenInterval",
        "engine.distributions.constraints.base._IndependentConstraint",
        "engine.distributions.constraints.sets._IntegerGreaterThan",
        "engine.distributions.constraints.sets._IntegerInterval",
        "engine.distributions.constraints.sets._Interval",
        "engine.distributions.constraints.sets._LessThan",
        "engine.distributions.constraints.matrix._LowerCholesky",
        "engine.distributions.constraints.matrix._LowerTriangular",
        "engine.distributions.constraints.sets._Multinomial",
        "engine.distributions.constraints.sets._OneHot",
        "engine.distributions.constraints.matrix._PositiveDefinite",
        "engine.distributions.constraints.matrix._PositiveSemidefinite",
        "engine.distributions.constraints.sets._Real",
        "engine.distributions.constraints.sets._Simplex",
        "engine.distributions.constraints.matrix._Square",
        "engine.distributions.constraints.base._Stack",
        "engine.distributions.constraints.matrix._Symmetric",
    ),
    "torch.distributions.continuous_bernoulli": (
        "engine.distributions.continuous_bernoulli.ContinuousBernoulli",
    ),
    "torch.distributions.dirichlet": ("engine.distributions.dirichlet.Dirichlet",),
    "torch.distributions.distribution": ("engine.distributions.distribution.Distribution",),
    "torch.distributions.exp_family": ("engine.distributions.exp_family.ExponentialFamily",),
    "torch.distributions.exponential": ("engine.distributions.exponential.Exponential",),
    "torch.distributions.fishersnedecor": ("engine.distributions.fishersnedecor.FisherSnedecor",),
    "torch.distributions.gamma": ("engine.distributions.gamma.Gamma",),
    "torch.distributions.generalized_pareto": (
        "engine.distributions.generalized_pareto.GeneralizedPareto",
    ),
    "torch.distributions.geometric": ("engine.distributions.geometric.Geometric",),
    "torch.distributions.gumbel": ("engine.distributions.gumbel.Gumbel",),
    "torch.distributions.lkj_cholesky": ("engine.distributions.lkj_cholesky.LKJCholesky",),
    "torch.distributions.von_mises": ("engine.distributions.von_mises.VonMises",),
    "torch.distributions.weibull": ("engine.distributions.weibull.Weibull",),
    "torch.distributions.wishart": ("engine.distributions.wishart.Wishart",),
    "torch.distributions.half_cauchy": ("engine.distributions.half_cauchy.HalfCauchy",),
    "torch.distributions.half_normal": ("engine.distributions.half_normal.HalfNormal",),
    "torch.distributions.independent": ("engine.distributions.independent.Independent",),
    "torch.distributions.inverse_gamma": ("engine.distributions.inverse_gamma.InverseGamma",),
    "torch.distributions.kumaraswamy": ("engine.distributions.kumaraswamy.Kumaraswamy",),
    "torch.distributions.laplace": ("engine.distributions.laplace.Laplace",),
    "torch.distributions.log_normal": ("engine.distributions.log_normal.LogNormal",),
    "torch.distributions.logistic_normal": ("engine.distributions.logistic_normal.LogisticNormal",),
    "torch.distributions.lowrank_multivariate_normal": (
        "engine.distributions.lowrank_multivariate_normal.LowRankMultivariateNormal",
    ),
    "torch.distributions.mixture_same_family": (
        "engine.distributions.mixture_same_family.MixtureSameFamily",
    ),
    "torch.distributions.multinomial": ("engine.distributions.multinomial.Multinomial",),
    "torch.distributions.multivariate_normal": (
        "engine.distributions.multivariate_normal.MultivariateNormal",
    ),
    "torch.distributions.normal": ("engine.distributions.kinds.Normal",),
    "torch.distributions.negative_binomial": (
        "engine.distributions.negative_binomial.NegativeBinomial",
    ),
    "torch.distributions.one_hot_categorical": (
        "engine.distributions.one_hot_categorical.OneHotCategorical",
        "engine.distributions.one_hot_categorical.OneHotCategoricalStraightThrough",
    ),
    "torch.distributions.pareto": ("engine.distributions.pareto.Pareto",),
    "torch.distributions.poisson": ("engine.distributions.poisson.Poisson",),
    "torch.distributions.relaxed_bernoulli": (
        "engine.distributions.relaxed_bernoulli.LogitRelaxedBernoulli",
        "engine.distributions.relaxed_bernoulli.RelaxedBernoulli",
    ),
    "torch.distributions.relaxed_categorical": (
        "engine.distributions.relaxed_categorical.ExpRelaxedCategorical",
        "engine.distributions.relaxed_categorical.RelaxedOneHotCategorical",
    ),
    "torch.distributions.studentT": ("engine.distributions.studentT.StudentT",),
    "torch.distributions.transformed_distribution": (
        "engine.distributions.transformed_distribution.TransformedDistribution",
    ),
    "torch.distributions.transforms": (
        "engine.distributions.transforms.elementwise.AbsTransform",
        "engine.distributions.transforms.elementwise.AffineTransform",
        "engine.distributions.transforms.functors.CatTransform",
        "engine.distributions.transforms.base.ComposeTransform",
        "engine.distributions.transforms.matrix.CorrCholeskyTransform",
        "engine.distributions.transforms.elementwise.CumulativeDistributionTransform",
        "engine.distributions.transforms.elementwise.ExpTransform",
        "engine.distributions.transforms.shape.IndependentTransform",
        "engine.distributions.transforms.matrix.LowerCholeskyTransform",
        "engine.distributions.transforms.matrix.PositiveDefiniteTransform",
        "engine.distributions.transforms.elementwise.PowerTransform",
        "engine.distributions.transforms.shape.ReshapeTransform",
        "engine.distributions.transforms.elementwise.SigmoidTransform",
        "engine.distributions.transforms.simplex.SoftmaxTransform",
        "engine.distributions.transforms.elementwise.SoftplusTransform",
        "engine.distributions.transforms.functors.StackTransform",
        "engine.distributions.transforms.simplex.StickBreakingTransform",
        "engine.distributions.transforms.elementwise.TanhTransform",
        "engine.distributions.transforms.base.Transform",
    ),
    "torch.distributions.uniform": ("engine.distributions.kinds.Uniform",),
    "torch.nn.parameter": (
        "engine.nn.parameter.Buffer",
        "engine.nn.parameter.Parameter",
    ),
    "torch.optim.adadelta": ("engine.optim.adadelta.Adadelta",),
    "torch.optim.adagrad": ("engine.optim.adagrad.Adagrad",),
    "torch.optim.adam": ("engine.optim.adam.Adam",),
    "torch.optim.adamw": ("engine.optim.adam.AdamW",),
    "torch.optim.lr_scheduler": (
        "engine.optim.lr_scheduler.step.ConstantLR",
        "engine.optim.lr_scheduler.cosine.CosineAnnealingWarmRestarts",
        "engine.optim.lr_scheduler.step.LinearLR",
        "engine.optim.lr_scheduler.step.MultiplicativeLR",
        "engine.optim.lr_scheduler.one_cycle.OneCycleLR",
        "engine.optim.lr_scheduler.step.PolynomialLR",
        "engine.optim.lr_scheduler.step.ExponentialLR",
        "engine.optim.lr_scheduler.step.LambdaLR",
        "engine.optim.lr_scheduler.step.MultiStepLR",
        "engine.optim.lr_scheduler.plateau.ReduceLROnPlateau",
        "engine.optim.lr_scheduler.cosine.CosineAnnealingLR",
        "engine.optim.lr_scheduler.base.LRScheduler",
        "engine.optim.lr_scheduler.step.StepLR",
    ),
    "torch.optim.lbfgs": ("engine.optim.lbfgs.LBFGS",),
    "torch.optim.adamax": ("engine.optim.adam_variants.Adamax",),
    "torch.optim.nadam": ("engine.optim.adam_variants.NAdam",),
    "torch.optim.radam": ("engine.optim.adam_variants.RAdam",),
    "torch.optim.optimizer": ("engine.optim.optimizer.Optimizer",),
    "torch.optim.rmsprop": ("engine.optim.rmsprop.RMSprop",),
    "torch.optim.sgd": ("engine.optim.sgd.SGD",),
    "torch.profiler.profiler": (
        "engine.profiler.ProfilerAction",
        "engine.profiler.profile",
    ),
    "torch.utils.checkpoint": (
        "engine.utils.checkpoint.CheckpointError",
        "engine.utils.checkpoint.CheckpointFunction",
    ),
    "torch.utils.data.dataloader": ("engine.utils.data.dataloader.DataLoader",),
    "torch.utils.data.dataset": (
        "engine.utils.data.dataset.ChainDataset",
        "engine.utils.data.dataset.ConcatDataset",
        "engine.utils.data.dataset.Dataset",
        "engine.utils.data.dataset.IterableDataset",
        "engine.utils.data.dataset.StackDataset",
        "engine.utils.data.dataset.Subset",
        "engine.utils.data.dataset.TensorDataset",
    ),
    "torch.utils.data.sampler": (
        "engine.utils.data.sampler.BatchSampler",
        "engine.utils.data.sampler.RandomSampler",
        "engine.utils.data.sampler.Sampler",
        "engine.utils.data.sampler.SequentialSampler",
        "engine.utils.data.sampler.SubsetRandomSampler",
        "engine.utils.data.sampler.WeightedRandomSampler",
    ),
}


def _resolve(path: str) -> type:
    module, _, name = path.rpartition(".")
    cls: type = getattr(importlib.import_module(module), name)
    return cls


def rename_classes() -> None:
    """Give every public engine class the `__module__` PyTorch gives it."""
    for tmod, paths in PUBLIC.items():
        for path in paths:
            _resolve(path).__module__ = tmod


def register_modules() -> None:
    """Make each PyTorch module path above importable, holding its classes (for pickle)."""
    for tmod, paths in PUBLIC.items():
        mod = sys.modules.get(tmod)
        if mod is None:
            mod = sys.modules[tmod] = ModuleType(tmod)
        for path in paths:
            cls = _resolve(path)
            if not hasattr(mod, cls.__qualname__):
                setattr(mod, cls.__qualname__, cls)


def find(module: str, name: str) -> object | None:
    """The engine object PyTorch keeps at `module.name` (a class above, or `torch.float32`)."""
    for path in PUBLIC.get(module, ()):
        if path.rpartition(".")[2] == name:
            return _resolve(path)
    if module == "torch":
        return getattr(importlib.import_module("engine"), name, None)
    return None


class _VisionLoader(importlib.abc.Loader):
    """Loads `torchvision[.x]` as the engine's `engine.vision[.x]` (the same module object)."""

    def __init__(self, real: str) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        from engine._torch_names import name_as_torch

        module = importlib.import_module(self.real)
        name_as_torch()  # its modules' messages say torchvision
        return module

    def exec_module(self, module: ModuleType) -> None:
        pass  # already executed under its engine name


class VisionFinder(importlib.abc.MetaPathFinder):
    """`import torchvision` (and its submodules) inside a snippet means `engine.vision`, as
    `import torch` means the engine."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "torchvision" and not fullname.startswith("torchvision."):
            return None
        real = "engine.vision" + fullname[len("torchvision") :]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(fullname, _VisionLoader(real))


def install_vision() -> None:
    """Put the torchvision finder first on `sys.meta_path` (once)."""
    if not any(isinstance(f, VisionFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, VisionFinder())
