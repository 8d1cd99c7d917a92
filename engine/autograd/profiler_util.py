"""Profiler results: `FunctionEvent`, `FunctionEventAvg`, `EventList` and PyTorch's table."""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg"]


def _format_time(time_us: float) -> str:
    """PyTorch's time cell: `12.345us`, `1.234ms` or `1.234s`."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_time_share(time_us: float, total_us: float) -> str:
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


def _override_time_unit(time_us: float, default: str, unit: str | None) -> str:
    if unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return default


class _Timed:
    """Fields shared by single events and their averages (CPU only: device columns are 0)."""

    key: str
    count: int
    cpu_time_total: float
    self_cpu_time_total: float
    input_shapes: Any = None
    stack: list[str] = []
    is_async = False
    is_legacy = False
    node_id = -1
    overload_name = ""
    use_device: str | None = None
    device_time_total = 0.0
    self_device_time_total = 0.0
    cpu_memory_usage = 0
    self_cpu_memory_usage = 0
    device_memory_usage = 0
    self_device_memory_usage = 0
    flops = 0

    @property
    def cpu_time(self) -> float:
        """Average CPU time per call (us)."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def device_time(self) -> float:
        return 0.0

    cuda_time = device_time

    @property
    def cuda_time_total(self) -> float:
        return 0.0

    @property
    def self_cuda_time_total(self) -> float:
        return 0.0

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)


class FunctionEvent(_Timed):
    """One recorded op or `record_function` range (times in microseconds)."""

    def __init__(
        self,
        id: int,
        name: str,
        thread: int,
        start_us: float,
        end_us: float,
        input_shapes: Any = None,
    ) -> None:
        self.id = id
        # steps are one table row in PyTorch ("ProfilerStep*"); the trace keeps their numbers
        self.trace_name = name
        self.name = self.key = "ProfilerStep*" if name.startswith("ProfilerStep#") else name
        self.thread = thread
        self.start_us = start_us
        self.end_us = end_us
        self.count = 1
        self.input_shapes = input_shapes
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None

    @property
    def cpu_time_total(self) -> float:  # type: ignore[override]
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:  # type: ignore[override]
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_str} "
            f"start_us={self.start_us:.3f} end_us={self.end_us:.3f} "
            f"cpu_children={[c.id for c in self.cpu_children]} input_shapes={self.input_shapes}>"
        )


class FunctionEventAvg(_Timed):
    """Events with the same key added up (`key_averages()` rows)."""

    def __init__(self) -> None:
        self.key = ""
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_parent: FunctionEvent | None = None

    def add(self, other: _Timed) -> FunctionEventAvg:
        if self.count == 0:
            self.key = other.key
            self.cpu_parent = getattr(other, "cpu_parent", None)
            self.input_shapes = other.input_shapes
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
            f"cpu_time={self.cpu_time_total_str}  self_cuda_time=0.000us cuda_time=0.000us "
            "input_shapes= cpu_memory_usage=0 cuda_memory_usage=0>"
        )


class EventList(list[Any]):
    """A list of events with PyTorch's summaries: `table`, `key_averages`, chrome trace."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args)

    @property
    def self_cpu_time_total(self) -> float:
        return float(sum(e.self_cpu_time_total for e in self))

    def key_averages(
        self,
        group_by_input_shapes: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
    ) -> EventList:
        """Rows averaged per op name, in order of first appearance."""
        stats: dict[Any, FunctionEventAvg] = {}
        for evt in self:
            key: Any = evt.key
            if group_by_input_shapes:
                key = (key, str(evt.input_shapes))
            stats.setdefault(key, FunctionEventAvg()).add(evt)
        for avg in stats.values():
            if not group_by_input_shapes:
                avg.input_shapes = ""
        return EventList(stats.values())

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg()
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        """PyTorch's profiler table (CPU columns)."""
        return build_table(
            self,
            sort_by=sort_by,
            header=header,
            row_limit=row_limit,
            max_name_column_width=max_name_column_width,
            top_level_events_only=top_level_events_only,
            time_unit=time_unit,
        )

    def export_chrome_trace(self, path: str) -> None:
        """Write a Chrome trace (`chrome://tracing`, Perfetto): one "X" event per range."""
        pid = os.getpid()
        events: list[dict[str, Any]] = [
            {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "python"}},
        ]
        for evt in self:
            events.append(
                {
                    "ph": "X",
                    "cat": "cpu_op",
                    "name": evt.trace_name,
                    "pid": pid,
                    "tid": evt.thread,
                    "ts": evt.start_us,
                    "dur": evt.cpu_time_total,
                    "args": {"External id": evt.id},
                }
            )
        trace = {
            "schemaVersion": 1,
            "deviceProperties": [],
            "displayTimeUnit": "ms",
            "traceEvents": events,
        }
        with open(path, "w") as f:
            json.dump(trace, f, indent=1)

    def __str__(self) -> str:
        return self.table()


def _columns(widths: list[int], align: list[str]) -> tuple[str, str, int]:
    row_format = header_sep = ""
    line_length = -2
    for width, text_dir in zip(widths, align):
        row_format += "{: " + text_dir + str(width) + "}" + "  "
        header_sep += "-" * width + "  "
        line_length += width + 2
    return row_format, header_sep, line_length


def build_table(
    events: list[Any],
    sort_by: str | None = None,
    header: str | None = None,
    row_limit: int = 100,
    max_name_column_width: int = 55,
    top_level_events_only: bool = False,
    time_unit: str | None = None,
) -> str:
    """PyTorch's `_build_table` for CPU-only events."""
    if len(events) == 0:
        return ""
    if sort_by is not None:
        attr = sort_by.replace("cuda", "device").replace("xpu", "device")
        events = sorted(events, key=lambda e: getattr(e, attr), reverse=True)
    name_width = min(max(len(e.key) for e in events) + 4, max_name_column_width)
    headers = [
        "Name",
        "Self CPU %",
        "Self CPU",
        "CPU total %",
        "CPU total",
        "CPU time avg",
        "# of Calls",
    ]
    widths = [name_width] + [12] * 6
    has_shapes = any(e.input_shapes for e in events)
    shapes_width = 0
    if has_shapes:
        shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, 80)
        headers.append("Input Shapes")
        widths.append(shapes_width)
    row_format, header_sep, line_length = _columns(widths, [">"] * len(widths))
    total = sum(e.self_cpu_time_total for e in events)
    out: list[str] = []
    if header is not None:
        out += ["=" * line_length, header]
    if top_level_events_only:
        out += ["=" * line_length, "This report only display top-level ops statistics"]
    out += [header_sep, row_format.format(*headers), header_sep]
    shown = 0
    for evt in events:
        if shown == row_limit:
            break
        if top_level_events_only and evt.cpu_parent is not None:
            continue
        shown += 1
        name = evt.key
        if len(name) >= max_name_column_width - 3:
            name = name[: max_name_column_width - 3] + "..."
        shapes = [str(evt.input_shapes)[:shapes_width]] if has_shapes else []
        out.append(
            row_format.format(
                name,
                _format_time_share(evt.self_cpu_time_total, total),
                _override_time_unit(
                    evt.self_cpu_time_total, evt.self_cpu_time_total_str, time_unit
                ),
                _format_time_share(evt.cpu_time_total, total),
                _override_time_unit(evt.cpu_time_total, evt.cpu_time_total_str, time_unit),
                _override_time_unit(evt.cpu_time, evt.cpu_time_str, time_unit),
                evt.count,
                *shapes,
            )
        )
    out.append(header_sep)
    out.append(f"Self CPU time total: {_override_time_unit(total, _format_time(total), time_unit)}")
    return "".join(line + "\n" for line in out)
