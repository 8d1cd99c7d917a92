"""Forward events: tensors, nodes, cut points, in-place writes, hooks, saved tensors, module
scopes, and the `.grad` changes made outside backward."""

from typing import Literal, NotRequired

from protocol.base import EventBase
from protocol.shapes import EdgeRef, SavedInfo, TensorInfo, TensorValue
from protocol.vocab import CutKind, GradChangedHow, GradMode, HookKind, HookTarget


class TensorEvent(EventBase):
    """A tensor seen for the first time (before any event that refers to its id)."""

    type: Literal["tensor"]
    tensor: TensorInfo


class NodeEvent(EventBase):
    """A grad_fn node, with its edges (`next`), input and output tensors, saved values, the
    snippet line and module scope that made it. `backward`: the backward pass that made it
    (create_graph=True), else null. `module_calls`: the call number of each module on
    `module_path` (two calls of one module are two scopes). `rank`: the torch.distributed
    rank whose thread made the node (absent outside a process group)."""

    type: Literal["node"]
    id: int
    name: str
    next: list[EdgeRef]
    inputs: list[int | None]
    outputs: list[TensorInfo]
    saved: list[SavedInfo]
    line: int | None
    grad_mode: GradMode
    module_path: str | None
    module_calls: list[int] | None
    variable: int | None
    backward: int | None
    rank: NotRequired[int]


class UntrackedOp(EventBase):
    """An op on tensors requiring grad run under no_grad/inference_mode: a cut point (its
    outputs do not require grad and no node records it). `module_path`/`module_calls`: the
    module calls it ran in, as a node's (a model's inference under no_grad is drawn in its
    modules)."""

    type: Literal["untracked_op"]
    name: str
    inputs: list[int | None]
    outputs: list[TensorInfo]
    line: int | None
    grad_mode: GradMode
    module_path: str | None
    module_calls: list[int] | None


class Cut(EventBase):
    """The snippet cut a tensor out of the graph: `t.detach()` or `t.data` (a new tensor
    `output` on the same storage) or `t.detach_()` (the tensor itself, `output` null)."""

    type: Literal["cut"]
    kind: CutKind
    tensor: int | None
    output: int | None
    line: int | None


class RequiresGradSet(EventBase):
    """The snippet set a tensor's requires_grad (`requires_grad_()`, `.requires_grad = `);
    to False on a tensor that required grad, this is a cut point."""

    type: Literal["requires_grad_set"]
    tensor: int | None
    requires_grad: bool
    line: int | None


class RetainGrad(EventBase):
    """`t.retain_grad()`: this non-leaf's `.grad` is kept by backward."""

    type: Literal["retain_grad"]
    tensor: int | None
    line: int | None


class VersionBump(EventBase):
    """An in-place write (an op ending in `_`, `x -= ...` under no_grad, an optimizer step):
    the tensor's new `version`, its values after the write, the snippet line. A write
    through a view reports the view's base too; a write through `p.data` reports `p`, and
    `apply_` its tensor, with the version unchanged (PyTorch counts neither write): the
    values change at the same version."""

    type: Literal["version_bump"]
    tensor: int | None
    version: int
    grad_fn: int | None
    line: int | None
    value: TensorValue


class GradChanged(EventBase):
    """A leaf's `.grad` changed outside backward's accumulation: reset by zero_grad()
    (`set_to_none`, or `zeroed` in place), assigned by the snippet (`assigned`), changed by a
    post-accumulate hook (`hook`, with its id), or written in place (`written`:
    clip_grad_norm_, `p.grad.mul_(...)`). `value` is the new `.grad` (null for None)."""

    type: Literal["grad_changed"]
    tensor: int | None
    how: GradChangedHow
    value: TensorValue | None
    line: int | None
    hook: NotRequired[int]


class HookRegistered(EventBase):
    """A hook was registered on a tensor, node or module (`target` is the tensor or node id;
    for a module, `module_type` its class and `module_path` its name if it has run)."""

    type: Literal["hook_registered"]
    hook: int
    kind: HookKind
    target_kind: HookTarget
    target: int | None
    fn: str
    line: int | None
    module_type: NotRequired[str]
    module_path: NotRequired[str | None]


class HookRemoved(EventBase):
    type: Literal["hook_removed"]
    hook: int
    line: int | None


class SavedPack(EventBase):
    """A saved_tensors_hooks pack hook ran for one of a node's saved tensors (follows the
    node's own event)."""

    type: Literal["saved_pack"]
    node: int | None
    name: str
    tensor: int | None
    packed_type: str


class SavedUnpack(EventBase):
    """A node's saved tensor was unpacked (`name` as in its `saved` list)."""

    type: Literal["saved_unpack"]
    node: int | None
    name: str | None


class ModuleEnter(EventBase):
    """An nn.Module's forward starts: `path` is its name under the outermost running module,
    as `named_modules()` names it, prefixed by that module's class."""

    type: Literal["module_enter"]
    path: str
    module_type: str
    line: int | None
    call: int


class ModuleExit(EventBase):
    """The module's forward returned (or raised): `output_shape` is the shape of what it
    returned, of its first tensor when it returned several (an LSTM's `output`, not `h_n`);
    null when it returned no tensor or raised."""

    type: Literal["module_exit"]
    path: str | None
    call: int | None
    output_shape: list[int] | None
