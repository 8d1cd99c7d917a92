"""Validation of the vocabulary with msgspec, for the server and the tests (the worker never
imports this module).

The TypedDicts of `protocol` are turned into msgspec Structs once, at import: tagged on
`type`, unknown fields refused, `Range` and `Default` markers applied. A union of tagged
Structs decodes straight from JSON bytes in C, so checking a worker batch costs about as much
as parsing it once (~100k events per run).

>>> parse_command('{"type": "resume", "run_id": "r1"}')
{'type': 'resume', 'run_id': 'r1', 'after_seq': -1}
>>> validate_event({"type": "stdout", "t": 0, "run_id": "r", "seq": 0, "text": "hi"})
"""

import gc
import types
import typing
from typing import Any, NotRequired, Required, Union, get_args, get_origin, is_typeddict

import msgspec

import protocol
from protocol.vocab import Default, Range

_STAMPS = ("t", "run_id", "seq")


def _convert(tp: Any, cache: dict[Any, Any], loose: bool) -> tuple[Any, Any]:
    """(msgspec type, default or NODEFAULT) for one annotation."""
    default: Any = msgspec.NODEFAULT
    origin = get_origin(tp)
    if origin in (NotRequired, Required):
        return _convert(get_args(tp)[0], cache, loose)
    if origin is typing.Annotated:
        inner, *metas = get_args(tp)
        conv, default = _convert(inner, cache, loose)
        for meta in metas:
            if isinstance(meta, Range):
                conv = typing.Annotated[conv, msgspec.Meta(ge=meta.ge, le=meta.le)]
            elif isinstance(meta, Default):
                default = meta.value
        return conv, default
    if is_typeddict(tp):
        return struct_of(tp, cache, loose), default
    if origin is list:
        (item,) = get_args(tp)
        return list[_convert(item, cache, loose)[0]], default  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        parts = [_convert(a, cache, loose)[0] for a in get_args(tp)]
        return Union[tuple(parts)], default  # noqa: UP007
    if tp is Any and loose:
        # (values, samples: any JSON, checked as JSON but never built into Python objects)
        return msgspec.Raw, default
    return tp, default


def _copier(value: list[Any] | dict[str, Any]) -> Any:
    return lambda: type(value)(value)


def struct_of(td: Any, cache: dict[Any, Any] | None = None, loose: bool = False) -> Any:
    """The msgspec Struct checking TypedDict `td` (`loose`: the server-stamped fields t,
    run_id and seq may be anything or missing, as the server overrides them)."""
    cache = {} if cache is None else cache
    if td in cache:
        return cache[td]
    hints = typing.get_type_hints(td, include_extras=True)
    required = td.__required_keys__
    fields: list[Any] = []
    for name, hint in hints.items():
        if name == "type":
            continue
        conv, default = _convert(hint, cache, loose)
        if loose and name in _STAMPS:
            conv, default = msgspec.Raw, msgspec.UNSET
        elif name not in required and default is msgspec.NODEFAULT:
            if type(None) in get_args(conv):
                default = None  # an optional field that may be null is null when left out
            else:
                conv, default = Union[conv, msgspec.UnsetType], msgspec.UNSET  # noqa: UP007
        if (
            isinstance(default, dict)
            and isinstance(conv, type)
            and issubclass(conv, msgspec.Struct)
        ):
            default = msgspec.field(default_factory=conv)  # a nested options object
        elif isinstance(default, list | dict):
            default = msgspec.field(default_factory=_copier(default))
        fields.append((name, conv) if default is msgspec.NODEFAULT else (name, conv, default))
    tag = protocol.type_of(td) if "type" in hints else None
    struct = msgspec.defstruct(
        td.__name__,
        fields,
        kw_only=True,
        forbid_unknown_fields=True,
        gc=False,  # decoded JSON has no cycles: a batch of 100k events must not wake the GC
        tag_field="type" if tag else None,
        tag=tag,
    )
    struct.__doc__ = td.__doc__
    cache[td] = struct
    return struct


def _union(classes: tuple[type[Any], ...], cache: dict[Any, Any], loose: bool = False) -> Any:
    return Union[tuple(struct_of(c, cache, loose) for c in classes)]  # noqa: UP007


_STRICT: dict[Any, Any] = {}
_LOOSE: dict[Any, Any] = {}


EVENT = _union(protocol.EVENTS, _STRICT)
COMMAND = _union(protocol.COMMANDS, _STRICT)
WORKER_COMMAND = _union(protocol.WORKER_COMMANDS, _STRICT)
WORKER_EVENT = _union(protocol.WORKER_EVENTS, _LOOSE, loose=True)

_BATCH = msgspec.json.Decoder(list[WORKER_EVENT])  # type: ignore[valid-type]
_COMMAND = msgspec.json.Decoder(COMMAND)


class ProtocolError(ValueError):
    """Something on the wire does not fit the vocabulary; the message says where."""


def check_worker_batch(body: bytes) -> None:
    """Refuse a worker frame body (a JSON array of events) that does not validate."""
    # the decoded events are dropped at once and hold no cycles: a collection started by
    # their allocations would only walk the server's heap for nothing
    enabled = gc.isenabled()
    gc.disable()
    try:
        _BATCH.decode(body)
    except msgspec.ValidationError as exc:
        raise ProtocolError(str(exc)) from None
    finally:
        if enabled:
            gc.enable()


def validate_event(event: dict[str, Any]) -> None:
    """Refuse an event (as the client gets it: with run_id and seq) that does not validate."""
    if not isinstance(event.get("run_id"), str) or type(event.get("seq")) is not int:
        raise ProtocolError(f"event without the server's run_id and seq: {event!r:.200}")
    try:
        msgspec.convert(event, EVENT, strict=True)
    except msgspec.ValidationError as exc:
        raise ProtocolError(f"{exc} in {event.get('type')!r} event") from None


def parse_command(raw: str | bytes) -> dict[str, Any]:
    """A client command as a dict with its defaults filled in (ProtocolError otherwise)."""
    try:
        cmd = _COMMAND.decode(raw)
    except msgspec.DecodeError as exc:  # (ValidationError is a DecodeError)
        raise ProtocolError(str(exc)) from None
    out: dict[str, Any] = msgspec.to_builtins(cmd)
    return out


def json_schema() -> dict[str, Any]:
    """JSON Schema of every event and command (`$defs` by class name; `Event`, `Command` and
    `WorkerCommand` are the three tagged unions)."""
    (event, command, worker), defs = msgspec.json.schema_components(
        [EVENT, COMMAND, WORKER_COMMAND], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "backscope protocol",
        "version": protocol.PROTOCOL_VERSION,
        "$defs": {**defs, "Event": event, "Command": command, "WorkerCommand": worker},
    }
