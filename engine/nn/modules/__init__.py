"""The layer classes of `torch.nn`."""

from engine.nn.modules.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from engine.nn.modules.adaptive import AdaptiveLogSoftmaxWithLoss
from engine.nn.modules.attention import MultiheadAttention, NonDynamicallyQuantizableLinear
from engine.nn.modules.container import ModuleDict, ModuleList, Sequential
from engine.nn.modules.conv import *  # noqa: F403
from engine.nn.modules.conv import __all__ as _conv_all
from engine.nn.modules.embedding_bag import EmbeddingBag
from engine.nn.modules.extra import *  # noqa: F403
from engine.nn.modules.extra import __all__ as _extra_all
from engine.nn.modules.fold import Fold, Unfold
from engine.nn.modules.layers_more import *  # noqa: F403
from engine.nn.modules.layers_more import __all__ as _layers_more_all
from engine.nn.modules.lazy_norm import *  # noqa: F403
from engine.nn.modules.lazy_norm import __all__ as _lazy_norm_all
from engine.nn.modules.linear import (
    Bilinear,
    Dropout,
    Dropout1d,
    Dropout2d,
    Embedding,
    Flatten,
    Identity,
    Linear,
    Unflatten,
)
from engine.nn.modules.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from engine.nn.modules.loss_more import *  # noqa: F403
from engine.nn.modules.loss_more import __all__ as _loss_more_all
from engine.nn.modules.module import Module
from engine.nn.modules.norm import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LayerNorm,
    SyncBatchNorm,
)
from engine.nn.modules.padding import *  # noqa: F403
from engine.nn.modules.padding import __all__ as _padding_all
from engine.nn.modules.param_containers import ParameterDict, ParameterList
from engine.nn.modules.pixel import PixelShuffle, PixelUnshuffle
from engine.nn.modules.pooling import *  # noqa: F403
from engine.nn.modules.pooling import __all__ as _pooling_all
from engine.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell
from engine.nn.modules.transformer import TransformerEncoder, TransformerEncoderLayer
from engine.nn.modules.transformer_decoder import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
)

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "BCELoss",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "BatchNorm2d",
    "Bilinear",
    "CrossEntropyLoss",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Embedding",
    "Flatten",
    "GroupNorm",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "HuberLoss",
    "Identity",
    "KLDivLoss",
    "L1Loss",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "LogSigmoid",
    "LogSoftmax",
    "MSELoss",
    "Mish",
    "Module",
    "ModuleDict",
    "ModuleList",
    "NLLLoss",
    "ParameterDict",
    "ParameterList",
    "ReLU",
    "ReLU6",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "SmoothL1Loss",
    "Softmax",
    "Softmin",
    "Softplus",
    "Softsign",
    "SyncBatchNorm",
    "Tanh",
    "Tanhshrink",
    "Threshold",
    "Unflatten",
    "GRU",
    "GRUCell",
    "LSTM",
    "LSTMCell",
    "RNN",
    "RNNBase",
    "RNNCell",
    *_extra_all,
    "AdaptiveLogSoftmaxWithLoss",
    *_conv_all,
    *_padding_all,
    *_layers_more_all,
    *_lazy_norm_all,
    *_pooling_all,
    *_loss_more_all,
    "BatchNorm3d",
    "EmbeddingBag",
    "Fold",
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "Unfold",
    "MultiheadAttention",
    "PixelShuffle",
    "PixelUnshuffle",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "NonDynamicallyQuantizableLinear",
]  # fmt: skip
