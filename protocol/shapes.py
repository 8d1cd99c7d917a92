"""Shapes shared by several events: tensor values, tensor descriptions, edges, saved tensors."""

from typing import Any, NotRequired, TypedDict

from protocol.vocab import GradMode


class Stats(TypedDict):
    """Over the finite elements only (NaN and ±Inf are counted in `nan`/`inf` instead)."""

    min: float
    max: float
    mean: float
    std: float


class Histogram(TypedDict):
    edges: list[float]
    counts: list[int]


class TensorValue(TypedDict):
    """A tensor's values at one moment. Small tensors have `values` (nested lists; non-finite
    floats as "nan"/"inf"/"-inf"); large ones exact `stats` over the finite elements, the
    first 16 elements (`sample`) and a 16-bin histogram of an evenly strided sample of at most
    4096 elements, plus the full `values` while the run's value budget lasts (tensors of up
    to the server's per-tensor limit). `nan`/`inf` count the non-finite elements: present on
    every summary, and on inline values whenever one is non-finite (absent means none)."""

    shape: list[int]
    dtype: str
    values: NotRequired[Any]
    sample: NotRequired[Any]
    nan: NotRequired[int]
    inf: NotRequired[int]
    stats: NotRequired[Stats]
    hist: NotRequired[Histogram]


class TensorInfo(TypedDict):
    """A tensor as first seen: `grad_mode` is the mode it was made in (null when the tracer
    did not see it made: an op's output that needs no grad); `backward` the backward pass
    that made it (create_graph), else null; `name` the snippet's variable or the
    parameter's `named_parameters()` name."""

    id: int
    shape: list[int]
    dtype: str
    requires_grad: bool
    is_leaf: bool
    version: int
    grad_fn: int | None
    output_nr: int
    name: str | None
    line: int | None
    grad_mode: GradMode | None
    backward: int | None
    value: TensorValue


class EdgeRef(TypedDict):
    """One entry of `next_functions`: (node id or null, input number)."""

    node: int | None
    input_nr: int


class SavedInfo(TypedDict):
    """One of a node's saved values: a tensor (id and version at save) or a plain `repr`."""

    name: str
    tensor: NotRequired[int | None]
    version: NotRequired[int | None]
    hooked: NotRequired[bool]
    repr: NotRequired[str]


class DepCount(TypedDict):
    node: int | None
    count: int
