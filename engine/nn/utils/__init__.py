"""`torch.nn.utils`: PyTorch's submodules and what it re-exports from them (nothing else,
so `dir()` lists what PyTorch's does)."""

from engine.nn.utils import clip_grad as clip_grad
from engine.nn.utils import convert_parameters as convert_parameters
from engine.nn.utils import fusion as fusion
from engine.nn.utils import init as init
from engine.nn.utils import memory_format as memory_format
from engine.nn.utils import parametrizations as parametrizations
from engine.nn.utils import parametrize as parametrize
from engine.nn.utils import rnn as rnn
from engine.nn.utils import stateless as stateless
from engine.nn.utils.clip_grad import _clip_grads_with_norm_ as clip_grads_with_norm_
from engine.nn.utils.clip_grad import _get_total_norm as get_total_norm
from engine.nn.utils.clip_grad import clip_grad_norm as clip_grad_norm
from engine.nn.utils.clip_grad import clip_grad_norm_ as clip_grad_norm_
from engine.nn.utils.clip_grad import clip_grad_value_ as clip_grad_value_
from engine.nn.utils.convert_parameters import parameters_to_vector as parameters_to_vector
from engine.nn.utils.convert_parameters import vector_to_parameters as vector_to_parameters
from engine.nn.utils.fusion import fuse_conv_bn_eval as fuse_conv_bn_eval
from engine.nn.utils.fusion import fuse_conv_bn_weights as fuse_conv_bn_weights
from engine.nn.utils.fusion import fuse_linear_bn_eval as fuse_linear_bn_eval
from engine.nn.utils.fusion import fuse_linear_bn_weights as fuse_linear_bn_weights
from engine.nn.utils.init import skip_init as skip_init
from engine.nn.utils.memory_format import (
    convert_conv2d_weight_memory_format as convert_conv2d_weight_memory_format,
)
from engine.nn.utils.memory_format import (
    convert_conv3d_weight_memory_format as convert_conv3d_weight_memory_format,
)
from engine.nn.utils.spectral_norm import remove_spectral_norm as remove_spectral_norm
from engine.nn.utils.spectral_norm import spectral_norm as spectral_norm
from engine.nn.utils.weight_norm import remove_weight_norm as remove_weight_norm
from engine.nn.utils.weight_norm import weight_norm as weight_norm

__all__ = [  # noqa: RUF022 (PyTorch's order)
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grads_with_norm_",
    "clip_grad_value_",
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
    "get_total_norm",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "skip_init",
    "spectral_norm",
    "stateless",
    "vector_to_parameters",
    "weight_norm",
]
