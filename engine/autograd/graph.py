"""`torch.autograd.graph`: the graph's public module.

The graph itself (`Node`, `AccumulateGrad`, saved tensors, hook handles) is engine/autograd/
node.py, in the engine's bottom layer; this module sits above it and gathers what PyTorch
keeps under `torch.autograd.graph` (with the saved-tensor hook contexts and gradient edges,
which need the autograd engine). Engine modules above the bottom layer may import the graph's
names from here or from node.py alike.
"""

from __future__ import annotations

from engine.autograd.graph_edges import GradientEdge as GradientEdge
from engine.autograd.graph_edges import get_gradient_edge as get_gradient_edge
from engine.autograd.graph_edges import register_multi_grad_hook as register_multi_grad_hook
from engine.autograd.hooks import HookDict as HookDict
from engine.autograd.hooks import RemovableHandle as RemovableHandle
from engine.autograd.hooks import add_hook as add_hook
from engine.autograd.node import ACCUMULATE_SEQ as ACCUMULATE_SEQ
from engine.autograd.node import AccumulateGrad as AccumulateGrad
from engine.autograd.node import Edge as Edge
from engine.autograd.node import Grads as Grads
from engine.autograd.node import GraphRoot as GraphRoot
from engine.autograd.node import InputMetadata as InputMetadata
from engine.autograd.node import Node as Node
from engine.autograd.node import _next_seq as _next_seq
from engine.autograd.node import display_name as display_name
from engine.autograd.node_surface import as_shown as as_shown
from engine.autograd.saved_hooks import (
    allow_mutation_on_saved_tensors as allow_mutation_on_saved_tensors,
)
from engine.autograd.saved_hooks import disable_saved_tensors_hooks as disable_saved_tensors_hooks
from engine.autograd.saved_hooks import increment_version as increment_version
from engine.autograd.saved_hooks import save_on_cpu as save_on_cpu
from engine.autograd.saved_hooks import saved_tensors_hooks as saved_tensors_hooks
from engine.autograd.saved_tensor import FREED_MSG as FREED_MSG
from engine.autograd.saved_tensor import SavedTensor as SavedTensor
from engine.autograd.saved_tensor import forward_name as forward_name
from engine.autograd.saved_tensor import run_pack_hook as run_pack_hook
from engine.autograd.saved_tensor import wrapped_saved as wrapped_saved
