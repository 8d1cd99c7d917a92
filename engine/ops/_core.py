"""What every op shares, in one import (its parts are modules of their own):

- engine/ops/op_node.py: `OpNode`, `variant`, `op_nodes` (a built-in op's node class);
- engine/ops/record.py: `record`, `record_multi`, `new_node`, `save` (the one path that makes
  graph nodes);
- engine/ops/broadcasting.py: `unbroadcast` (the one place broadcasting is undone), the input
  shapes a node keeps, PyTorch's broadcast error;
- engine/ops/operands.py: operand promotion, floats, reduced precision (`opmath`);
- engine/ops/inplace.py: `check_inplace`, `rebase`, `overwrite` (in-place bookkeeping).
"""

from __future__ import annotations

from engine._tensor import writing as writing
from engine.ops.broadcasting import broadcast_error as broadcast_error
from engine.ops.broadcasting import bshapes as bshapes
from engine.ops.broadcasting import in_shape as in_shape
from engine.ops.broadcasting import unbroadcast as unbroadcast
from engine.ops.inplace import INFERENCE_INPLACE as INFERENCE_INPLACE
from engine.ops.inplace import check_inplace as check_inplace
from engine.ops.inplace import custom_view_error as custom_view_error
from engine.ops.inplace import overwrite as overwrite
from engine.ops.inplace import rebase as rebase
from engine.ops.op_node import OpNode as OpNode
from engine.ops.op_node import op_nodes as op_nodes
from engine.ops.op_node import variant as variant
from engine.ops.operands import acc_dtype as acc_dtype
from engine.ops.operands import as_tensor as as_tensor
from engine.ops.operands import binary_arrays as binary_arrays
from engine.ops.operands import float_array as float_array
from engine.ops.operands import float_kernel as float_kernel
from engine.ops.operands import matmul_np as matmul_np
from engine.ops.operands import opmath as opmath
from engine.ops.record import NONE_EDGE as NONE_EDGE
from engine.ops.record import edge as edge
from engine.ops.record import keep_on as keep_on
from engine.ops.record import new_node as new_node
from engine.ops.record import packing_order as packing_order
from engine.ops.record import record as record
from engine.ops.record import record_multi as record_multi
from engine.ops.record import save as save
from engine.ops.record import wants_grad as wants_grad
from engine.ops.record import zeros_for as zeros_for
