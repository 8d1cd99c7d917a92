"""backscope's autograd engine: NumPy underneath, PyTorch's surface on top.

>>> import engine as torch
>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> (x * x).sum().backward(); x.grad
tensor([2., 4.])
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine import (
    _dtype,
    _methods,
    _public,
    _random,
    _runtime,
    _windows,
    autograd,
    linalg,
    profiler,
    return_types,
    storage,
    version,
)
from engine._creation import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    arange,
    as_tensor,
    empty,
    empty_like,
    empty_strided,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    logspace,
    ones,
    ones_like,
    set_default_tensor_type,
    tensor,
    zeros,
    zeros_like,
)
from engine._device import device
from engine._dtype import dtype, get_default_dtype, promote_types, set_default_dtype
from engine._dtype import result_type_of as result_type
from engine._finfo import can_cast, finfo, iinfo
from engine._from_data import frombuffer
from engine._generator import Generator, default_generator
from engine._layout import (
    _mkldnn,
    channels_last,
    channels_last_3d,
    contiguous_format,
    jagged,
    layout,
    memory_format,
    preserve_format,
    sparse_bsc,
    sparse_bsr,
    sparse_coo,
    sparse_csc,
    sparse_csr,
    strided,
)
from engine._printing import set_printoptions
from engine._random import (
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from engine._runtime import (
    are_deterministic_algorithms_enabled,
    asarray,
    cartesian_prod,
    combinations,
    detach,
    e,
    get_default_device,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    inf,
    is_warn_always_enabled,
    nan,
    newaxis,
    pi,
    randint_like,
    scalar_tensor,
    set_default_device,
    set_float32_matmul_precision,
    set_num_interop_threads,
    set_num_threads,
    set_warn_always,
    typename,
    use_deterministic_algorithms,
)
from engine._size import Size
from engine._tensor import Tensor, is_tensor
from engine.autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from engine.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from engine.ops import as_strided as _as_strided_ops
from engine.ops import binning as _binning_ops
from engine.ops import binomial as _binomial_ops
from engine.ops import block_diag as _block_diag_ops
from engine.ops import complex as _complex_ops
from engine.ops import complex_polar as _complex_polar_ops
from engine.ops import (
    convert,
    index,
    pointwise,
    pointwise_binary,
    pointwise_unary,
    reduce,
    reduce_cum,
    reduce_minmax,
    reduce_stats,
    scatter,
    shape,
    shape_composite,
    sorting,
    tensor_protocol,
    tensor_shape,
    views,
)
from engine.ops import dirichlet as _dirichlet_ops
from engine.ops import einsum as _einsum_ops
from engine.ops import gamma as _gamma_ops
from engine.ops import gradient as _gradient_ops
from engine.ops import index_copy as _index_copy_ops
from engine.ops import integrate_dist as _integrate_dist_ops
from engine.ops import linalg as _linalg_ops
from engine.ops import linalg_decomp as _linalg_decomp_ops
from engine.ops import linalg_householder as _linalg_householder_ops
from engine.ops import linalg_lu as _linalg_lu_ops
from engine.ops import linalg_ormqr as _linalg_ormqr_ops
from engine.ops import linalg_pinv as _linalg_pinv_ops
from engine.ops import linalg_products as _linalg_products_ops
from engine.ops import linalg_solve as _linalg_solve_ops
from engine.ops import linalg_triangular as _linalg_triangular_ops
from engine.ops import masked as _masked_ops
from engine.ops import matmul as _matmul_ops
from engine.ops import matrix_exp as _matrix_exp_ops
from engine.ops import nn_pdist as _nn_pdist_ops
from engine.ops import nn_pixel as _nn_pixel_ops
from engine.ops import nn_weight_norm as _nn_weight_norm_ops
from engine.ops import poisson as _poisson_ops
from engine.ops import random_sampling as _random_sampling_ops
from engine.ops import remainder as _remainder_ops
from engine.ops import renorm as _renorm_ops
from engine.ops import scatter_reduce as _scatter_reduce_ops
from engine.ops import sign as _sign_ops
from engine.ops import softmax as _softmax_ops
from engine.ops import special_binary as _special_binary_ops
from engine.ops import special_ops as _special_ops
from engine.ops import stats_quantile as _stats_quantile_ops
from engine.ops import stft as _stft_ops
from engine.ops import table as _table
from engine.ops import transpose as _transpose_ops
from engine.ops import tri_indices as _tri_indices_ops
from engine.ops import unique as _unique_ops
from engine.ops import vander as _vander_ops
from engine.ops import view_scatter as _view_scatter_ops
from engine.storage import TypedStorage, UntypedStorage

__version__ = version.__version__  # PyTorch 2.13 CPU build: "2.13.0+cpu"

bool = _dtype.bool_
uint8 = _dtype.uint8
uint16 = _dtype.uint16
uint32 = _dtype.uint32
uint64 = _dtype.uint64
int8 = _dtype.int8
int16 = short = _dtype.int16
int32 = int = _dtype.int32
int64 = long = _dtype.int64
float16 = half = _dtype.float16
bfloat16 = _dtype.bfloat16
float32 = float = _dtype.float32
float64 = double = _dtype.float64
complex64 = cfloat = _dtype.complex64
complex128 = cdouble = _dtype.complex128
complex32 = chalf = _dtype.complex32

# The op table: each family module's rows (`OPS`), in binding order (a later row wins).
_OP_TABLE = _table.collect(
    [
        _random,
        pointwise,
        reduce,
        shape,
        reduce_minmax,
        reduce_stats,
        reduce_cum,
        sorting,
        _softmax_ops,
        _linalg_ops,
        _matmul_ops,
        _einsum_ops,
        _linalg_products_ops,
        _linalg_solve_ops,
        _linalg_decomp_ops,
        _linalg_householder_ops,
        _linalg_ormqr_ops,
        _linalg_lu_ops,
        _gradient_ops,
        _linalg_pinv_ops,
        _stats_quantile_ops,
        tensor_shape,
        shape_composite,
        _transpose_ops,
        index,
        scatter,
        _masked_ops,
        views,
        convert,
        _remainder_ops,
        pointwise_unary,
        pointwise_binary,
        _random_sampling_ops,
        tensor_protocol,
        _nn_pixel_ops,
        _nn_weight_norm_ops,
        _integrate_dist_ops,
        _linalg_triangular_ops,
        _block_diag_ops,
        _sign_ops,
        _unique_ops,
        _binning_ops,
        _tri_indices_ops,
        _special_ops,
        _special_binary_ops,
        _nn_pdist_ops,
        _index_copy_ops,
        _complex_ops,
        _complex_polar_ops,  # after pointwise_unary: its `sgn` handles complex input
        _matrix_exp_ops,
        _scatter_reduce_ops,
        _as_strided_ops,
        _vander_ops,
        _renorm_ops,
        _stft_ops,
        _view_scatter_ops,
        _windows,
        _poisson_ops,
        _gamma_ops,
        _dirichlet_ops,
        _binomial_ops,
    ]
)
_methods.bind(_OP_TABLE, globals())
if TYPE_CHECKING:  # what bind() just added, as mypy should read it (a generated stub)
    from engine._torch_surface import *  # noqa: F403

# `torch.nn`, `torch.optim`, ... need the ops bound first
from engine import (  # noqa: E402
    _profiled_ops,
    accelerator,
    amp,
    backends,
    compiler,
    cpu,
    cuda,
    distributed,
    distributions,
    fft,
    func,
    multiprocessing,
    nn,
    optim,
    random,
    serialization,
    special,
    testing,
    utils,
)
from engine.compiler import compile  # noqa: E402
from engine.serialization import load, save  # noqa: E402

autograd._bind_all()
_public.rename_classes()

# torch.* aliases of nn.functional where PyTorch's argument order is the same
for _name in (
    "conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
    "avg_pool1d", "adaptive_avg_pool1d", "dropout", "layer_norm", "group_norm", "bilinear",
    "celu", "selu", "threshold", "cosine_similarity", "pairwise_distance", "embedding", "pdist",
    "cdist", "conv3d", "conv_transpose3d", "hardshrink", "prelu", "rrelu", "celu_", "selu_",
    "threshold_", "rrelu_",
):  # fmt: skip
    if hasattr(nn.functional, _name):
        globals().setdefault(_name, getattr(nn.functional, _name))
del _name

# legacy constructors (`torch.LongTensor([1, 2])`) live in engine/_creation.py


def is_floating_point(t: Tensor) -> Any:
    return t.is_floating_point()


def numel(t: Tensor) -> Any:  # `int` here is torch.int32, the dtype
    return t.numel()


def install_as_torch() -> None:
    """Make `import torch` (and `torch.nn`, `torch.autograd`, ...) resolve to this engine."""
    me = sys.modules[__name__]
    sys.modules["torch"] = me
    for name, mod in list(sys.modules.items()):
        if name.startswith("engine.") and isinstance(mod, ModuleType):
            alias = "torch." + name[len("engine.") :]
            sys.modules.setdefault(alias, mod)
    _public.register_modules()
    _public.install_vision()
    from engine._torch_names import name_as_torch

    name_as_torch()  # `module 'torch.nn' has no attribute 'x'`, as PyTorch words it


vmap = func.vmap
autocast = amp.autocast
is_autocast_enabled = amp.is_autocast_enabled
get_autocast_dtype = amp.get_autocast_dtype
is_autocast_cpu_enabled = amp.is_autocast_cpu_enabled
get_autocast_cpu_dtype = amp.get_autocast_cpu_dtype
# `torch.range`, bound last: the name would hide the builtin from this module's own code above
from engine._creation import deprecated_range as _deprecated_range  # noqa: E402

globals()["range"] = _deprecated_range
