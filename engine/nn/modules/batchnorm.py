"""Batch normalization: BatchNorm1d/2d/3d, SyncBatchNorm and their lazy forms."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _creation
from engine._tensor import Tensor, make
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.linear import empty_param
from engine.nn.modules.module import Module
from engine.ops._core import overwrite


class _BatchNorm(Module):
    """Batch norm with running statistics; subclasses check the input's rank."""

    _version = 2  # PyTorch's _NormBase: num_batches_tracked joined the state dict in version 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self._bias_flag = bias and affine
        if affine:
            self.weight = empty_param(num_features, dtype=dtype)
            if bias:
                self.bias = empty_param(num_features, dtype=dtype)
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", _creation.ones(num_features, dtype=dtype))
            self.register_buffer(
                "num_batches_tracked", make(np.asarray(0, np.int64), False, None, 0)
            )
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean._d[...] = 0
            self.running_var._d[...] = 1
            self.num_batches_tracked._d[...] = 0

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        *args: Any,
    ) -> None:
        """A state dict from before version 2 (or a plain dict, without versions) loads as
        PyTorch's does: its missing `num_batches_tracked` is this module's own."""
        version = local_metadata.get("version")
        if (version is None or version < 2) and self.track_running_stats:
            state_dict.setdefault(prefix + "num_batches_tracked", self.num_batches_tracked)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        raise NotImplementedError

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        eaf = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            overwrite(self.num_batches_tracked, self.num_batches_tracked._d + 1)
            # momentum=None: a cumulative moving average
            eaf = (
                1.0 / float(self.num_batches_tracked._d) if self.momentum is None else self.momentum
            )
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if use_stats else None,
            self.running_var if use_stats else None,
            self.weight,
            self.bias,
            bn_training,
            eaf,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self._bias_flag}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim != 4:
            raise ValueError(f"expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim != 5:
            raise ValueError(f"expected 5D input (got {input.ndim}D input)")


class SyncBatchNorm(_BatchNorm):
    """Batch norm synchronised across processes; with no process group it is plain batch norm."""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any = None,
        device: Any = None,
        dtype: Any = None,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias
        )
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim < 2:
            raise ValueError(f"expected at least 2D input (got {input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:
        """Plain batch norm unless training inside a process group of more than one rank;
        then the statistics are the whole batch's across the ranks. (PyTorch refuses CPU
        input here; the engine's ranks all live on the CPU, so it synchronises them.)"""
        from engine import distributed

        need_sync = self.training and distributed.is_initialized()
        if not need_sync or distributed.get_world_size() == 1:
            return super().forward(input)
        self._check_input_dim(input)
        eaf = 0.0 if self.momentum is None else self.momentum
        if self.track_running_stats and self.num_batches_tracked is not None:
            overwrite(self.num_batches_tracked, self.num_batches_tracked._d + 1)
            if self.momentum is None:
                eaf = 1.0 / float(self.num_batches_tracked._d)
        from engine.nn.modules._functions import SyncBatchNorm as SyncBatchNormFunction

        stats = self.track_running_stats
        out: Tensor = SyncBatchNormFunction.apply(
            input,
            self.weight,
            self.bias,
            self.running_mean if stats else None,
            self.running_var if stats else None,
            self.eps,
            eaf,
            self.process_group,
            distributed.get_world_size(),
        )
        return out

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """Replace every BatchNorm*d below `module` by a SyncBatchNorm with the same state."""
        out = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            out = SyncBatchNorm(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
                bias=module._bias_flag,
            )
            if module.affine:
                out._parameters["weight"] = module.weight
                out._parameters["bias"] = module.bias
            out._buffers["running_mean"] = module.running_mean
            out._buffers["running_var"] = module.running_var
            out._buffers["num_batches_tracked"] = module.num_batches_tracked
            out.training = module.training
        for name, child in module.named_children():
            out.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return out


def _lazy_norm_init(
    self: _BatchNorm,
    eps: float = 1e-5,
    momentum: float | None = 0.1,
    affine: bool = True,
    track_running_stats: bool = True,
    device: Any = None,
    dtype: Any = None,
) -> None:
    """The lazy constructor: empty parameters and buffers of 0 features."""
    _BatchNorm.__init__(self, 0, eps, momentum, affine, track_running_stats, device, dtype)


def _lazy_norm_forward(self: _BatchNorm, input: Tensor) -> Tensor:
    if self.num_features == 0:
        n = int(input.shape[1])
        names = ("weight", "bias", "running_mean", "running_var")
        lazy = [t for t in (getattr(self, name) for name in names) if t is not None]
        if lazy:  # with nothing to fill, PyTorch leaves num_features at 0
            self.num_features = n
            for t in lazy:
                t.data = _creation.empty(n, dtype=t.dtype)
            self.reset_parameters()
        self.__class__ = self._becomes  # PyTorch's cls_to_become
    return self.forward(input)


class LazyBatchNorm1d(BatchNorm1d):
    _becomes = BatchNorm1d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyBatchNorm2d(BatchNorm2d):
    _becomes = BatchNorm2d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


class LazyBatchNorm3d(BatchNorm3d):
    _becomes = BatchNorm3d
    __init__ = _lazy_norm_init
    forward = _lazy_norm_forward


__all__ = [
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]
