"""The page shows the engine's values (issue 14's property): for every example, run in Chromium
against the real server, at the end of the run the value the inspector shows for every tensor
the snippet names (its variables, its modules' parameters and buffers) equals what the
snippet's own objects hold at exit, and at every version_bump of the run the page shows (the
cursor moved there) the value shown for that tensor is the version and value the bump carries.

The values at exit come from a separate traced run of the same code in this checkout's engine
(tests/browser/engine_values.py). Its tensors are matched to the page's by the tracer's id,
which the tracer gives when a capture first holds a tensor (in the order the run makes and
uses tensors, whenever batches are built); the match is checked: one-to-one, same shape, same
traced name. The bumps are the page's own run's (its log): nothing is matched across runs for
them (which init writes inside a module's __init__ are reported depends on where a batch
ends). What the page shows is read through its read-only test hook
`window.__backscope.shown(id)`, the function the inspector renders from."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ROOT, finished, listed_names, press_run, set_code

pytestmark = pytest.mark.browser

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
FINISHED = finished("ok", "error")


def _engine_values(code: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.browser.engine_values"],
        input=code,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def _num(x: Any) -> float:
    if isinstance(x, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[x]
    return float(x)


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))


def _flat(values: Any) -> list[float]:
    if isinstance(values, list):
        return [y for x in values for y in _flat(x)]
    return [_num(values)]


def _stats(values: list[float]) -> dict[str, float]:
    """NaN/Inf counts, and min, max, mean of the finite values."""
    finite = [x for x in values if math.isfinite(x)]
    return {
        "nan": sum(math.isnan(x) for x in values),
        "inf": sum(math.isinf(x) for x in values),
        "min": min(finite, default=math.nan),
        "max": max(finite, default=math.nan),
        "mean": sum(finite) / len(finite) if finite else math.nan,
    }


def _agrees(shown: dict[str, Any] | None, ref: dict[str, Any]) -> str:
    """'' when the page's shown value matches the reference (all its `values`, or for a large
    tensor its `stats` and first values, `head`), else what differs."""
    if shown is None:
        return "the page shows no value"
    values = _flat(ref["values"]) if "values" in ref else None
    want = _stats(values) if values is not None else {k: _num(v) for k, v in ref["stats"].items()}
    if shown["flat"] is not None:
        got = [_num(x) if x is not None else math.nan for x in shown["flat"]]
        if values is not None:
            if len(got) != len(values) or not all(map(_close, got, values)):
                return f"shows {got[:8]}… for {values[:8]}…"
            return ""
        head = _flat(ref["head"])
        if not all(map(_close, got[: len(head)], head)):
            return f"shows {got[:8]}… for {head[:8]}…"
        st: dict[str, Any] = _stats(got)
    else:
        # a large tensor's summary: its exact stats and NaN/Inf counts
        st = shown["stats"]
        if st is None:
            return "the page shows neither values nor stats"
    bad = {k: (st[k], v) for k, v in want.items() if not _close(_num(st[k]), v)}
    return f"stats differ (page, engine): {bad}" if bad else ""


def _page_ids(page: Page, final: list[dict[str, Any]]) -> dict[int, str]:
    """The page's tensor id for each of the reference's tensors at exit (by its index in
    `final`). The tracer gives a tensor its id when a capture first holds it, in the order the
    run makes and uses tensors, so both runs give the same ids whenever their batches are
    built; the match is checked, not assumed: one-to-one, equal shapes, and the page's name
    for the tensor is the reference run's (the tracer's name, "" for none)."""
    described = page.evaluate(
        """() => { const log = window.__backscope.app.log;
            return [...log.stateAt(log.length - 1).tensors.values()]
                .map(t => [t.id, t.name, t.shape]); }"""
    )
    page_tensors = {tid: (name, shape) for tid, name, shape in described}
    ids: dict[int, str] = {}
    for i, t in enumerate(final):
        tid = t["id"]
        assert tid in page_tensors, f"{t['name']}: the page has no tensor {tid}"
        name, shape = page_tensors[tid]
        assert (name, shape) == (t["traced_name"], t["shape"]), (
            f"{t['name']} is tensor {tid} with name {t['traced_name']!r}, shape {t['shape']} "
            f"in the reference run; the page's tensor {tid} is {name!r}, shape {shape}"
        )
        ids[i] = tid
    assert len(set(ids.values())) == len(ids), "two of the snippet's tensors matched one"
    return ids


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_page_shows_the_engines_values(page: Page, example: Path) -> None:
    code = example.read_text()
    ref = _engine_values(code)
    page.goto("/")
    set_code(page, code)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # the node list lists every node the run made (drawn in the frame that showed its end)
    made = set(
        page.evaluate(
            """() => window.__backscope.app.log.events.flatMap(e =>
                e.type === "node" ? [e.name.split("::").pop()] : [])"""
        )
    )
    missing = made - listed_names(page)
    assert not missing, f"nodes missing from the node list: {missing}"
    problems: list[str] = []
    ids = _page_ids(page, ref["final"])
    for i, t in enumerate(ref["final"]):
        shown = page.evaluate("id => window.__backscope.shown(id)", ids[i])
        why = _agrees(shown, t)
        if why:
            problems.append(f"at exit, {t['name']} (tensor {ids[i]}): {why}")
    # every version_bump of the run: move the cursor to it, as the versions list does
    bumps = page.evaluate(
        """() => window.__backscope.app.log.events.flatMap((e, i) =>
            e.type === "version_bump" && e.tensor !== null ? [i] : [])"""
    )
    # (in one call: a round trip per bump is most of a resnet's time on a loaded machine)
    seen = page.evaluate(
        """bumps => bumps.map(i => { const app = window.__backscope.app, e = app.log.events[i];
            app.seek(i);
            const id = String(e.tensor);
            return [id, e.version, e.value, window.__backscope.shown(id)]; })""",
        bumps,
    )
    for index, (tid, version, value, shown) in zip(bumps, seen, strict=True):
        if shown is not None and shown["version"] != version:
            problems.append(
                f"at bump #{index}, tensor {tid}: shows v{shown['version']}, not v{version}"
            )
        elif "values" in value:
            why = _agrees(shown, {"values": value["values"]})
            if why:
                problems.append(f"at bump #{index} (tensor {tid} v{version}): {why}")
        elif shown is not None and shown["stats"] is not None and "stats" in value:
            st = value["stats"]
            for k in ("min", "max", "mean"):
                if not _close(_num(shown["stats"][k]), _num(st[k])):
                    problems.append(f"at bump #{index} (tensor {tid} v{version}): {k} differs")
    assert not problems, "\n".join(problems)
