"""Real models drawn readably: the three gallery models (a CNN training loop, a 2-layer
TransformerEncoder, a small GPT-style model) picked from Examples and run, at 1280x720 and
1920x1080. Modules start collapsed to one box each, expand and collapse in place with the layout
compacting, Fit shows the whole graph, every label on screen is legible at any zoom, and a
training loop is drawn one iteration at a time with its parameters once.

What is drawn where comes from the page's own state (`__backscope.geometry()`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import fresh_page, inside, meets, press_run, set_code, shot

pytestmark = pytest.mark.browser

MODELS = ["19_cnn_training_loop", "20_transformer_encoder", "21_gpt_block"]
SIZES = [(1280, 720), (1920, 1080)]
# the smallest text a person reads on screen without leaning in
LEGIBLE_PX = 9
# the zoom at and above which the page draws node text inside the boxes (render/canvas.ts TEXT_K)
TEXT_K = 0.75


def _open(context: BrowserContext, size: tuple[int, int]) -> tuple[Page, list[str]]:
    """A page in a window of `size`, and the uncaught errors it will have thrown."""
    page = fresh_page(context, size[0], size[1])
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def _run_example(page: Page, name: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(name)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("· ok")
    _settle(page)


def _settle(page: Page) -> dict[str, Any]:
    """Wait for every event applied and placed and a frame drawn, then read the geometry."""
    page.wait_for_function(
        """() => { const a = window.__backscope.app;
                   return a.metrics.firstFullFrameAt > 0 && a.layout.caughtUp; }"""
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    return geo


def _relaid(page: Page, act: Callable[[], None]) -> dict[str, Any]:
    """Do `act` (an expand, a collapse, another iteration), which the layout worker answers
    with a new layout in its own time: wait for that layout and a frame drawn with it."""
    before = page.evaluate("() => window.__backscope.app.place.layout")
    act()
    page.wait_for_function("n => window.__backscope.app.place.layout !== n", arg=before)
    return _settle(page)


def _extent(geo: dict[str, Any]) -> dict[str, float]:
    boxes = [*geo["vertices"], *geo["modules"]]
    x0 = min(b["x"] for b in boxes)
    y0 = min(b["y"] for b in boxes)
    x1 = max(b["x"] + b["w"] for b in boxes)
    y1 = max(b["y"] + b["h"] for b in boxes)
    return {"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}


def _assert_legible(geo: dict[str, Any]) -> None:
    assert geo["labels"], "no label drawn"
    small = [lb for lb in geo["labels"] if lb["px"] < LEGIBLE_PX]
    assert not small, f"illegible labels: {small[:5]}"
    _assert_names_cover_nothing(geo)


def _assert_names_cover_nothing(geo: dict[str, Any]) -> None:
    """A name drawn at the fixed screen size (zoomed out) lies on the canvas and covers no other
    name and no box but the one it names."""
    placed = [lb for lb in geo["labels"] if "at" in lb]
    boxes = [*geo["vertices"], *geo["modules"]]
    for i, lb in enumerate(placed):
        at = lb["at"]
        assert inside(at, geo["canvas"]), f"{lb['text']!r} is off the canvas"
        for b in boxes:
            covered = b["id"] != at["owner"] and meets(_shrunk(at), b)
            assert not covered, f"{lb['text']!r} covers {b['title']!r}"
        for other in placed[i + 1 :]:
            assert not meets(_shrunk(at), other["at"]), f"{lb['text']!r} covers {other['text']!r}"


def _shrunk(r: dict[str, float], by: float = 0.5) -> dict[str, float]:
    """`r` less half a pixel of rounding on each side."""
    return {"x": r["x"] + by, "y": r["y"] + by, "w": r["w"] - 2 * by, "h": r["h"] - 2 * by}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", MODELS)
def test_a_model_starts_collapsed_whole_and_legible(
    context: BrowserContext, name: str, size: tuple[int, int]
) -> None:
    page, errors = _open(context, size)
    try:
        _run_example(page, name)
        geo = _settle(page)
        # beyond a size, modules start as one box each, saying name, class and shapes
        assert len(geo["modules"]) >= 3, geo["modules"]
        for m in geo["modules"]:
            assert " · " in m["title"], m
            assert "×" in m["shapes"] or m["shapes"] == "", m
        assert any("→" in m["shapes"] for m in geo["modules"])
        # Fit shows the whole graph: every box on the canvas, nothing under a note or the map
        assert not geo["partial"]
        canvas = geo["canvas"]
        for b in [*geo["vertices"], *geo["modules"]]:
            assert inside(b, canvas), f"{b.get('title')} is off the canvas"
            for sel, rect in geo["overlays"].items():
                if rect is not None:
                    assert not meets(b, rect), f"{sel} covers {b.get('title')}"
        # what is on screen is legible, module names included
        _assert_legible(geo)
        assert any(lb["kind"] == "module" for lb in geo["labels"])
        shot(page, f"model-{name}-{size[0]}")
        assert not errors
    finally:
        page.close()


@pytest.mark.parametrize("name", MODELS)
def test_every_zoom_shows_legible_names(context: BrowserContext, name: str) -> None:
    page, errors = _open(context, (1280, 720))
    try:
        _run_example(page, name)
        zooms = []
        for _ in range(12):  # as far out as the page lets one go
            page.get_by_test_id("zoom-out").click()
            geo = _settle(page)
            zooms.append(geo["zoom"])
            _assert_legible(geo)
        # zoomed out, module names are still there, at a readable size
        assert any(lb["kind"] == "module" for lb in geo["labels"])
        assert zooms[-1] < zooms[0]
        for _ in range(20):
            page.get_by_test_id("zoom-in").click()
        geo = _settle(page)
        _assert_legible(geo)
        # zoomed in, node names are drawn at the graph's own font
        assert any(lb["px"] >= 12 for lb in geo["labels"])
        page.get_by_test_id("fit").click()
        geo = _settle(page)
        assert not geo["partial"]
        for b in [*geo["vertices"], *geo["modules"]]:
            assert inside(b, geo["canvas"]), f"{b.get('title')} is off the canvas after Fit"
        assert not errors
    finally:
        page.close()


def test_expanding_a_module_opens_it_in_place_and_collapsing_compacts(
    context: BrowserContext,
) -> None:
    page, errors = _open(context, (1920, 1080))
    try:
        _run_example(page, "20_transformer_encoder")
        before = _settle(page)
        ordinary = max(v["h"] for v in before["vertices"])
        for m in before["modules"]:
            # a collapsed module is one ordinary-sized box (two lines: name, shapes)
            assert m["h"] <= 1.6 * ordinary, m
        attn = next(m for m in before["modules"] if m["title"].startswith("self_attn"))
        opened = _relaid(
            page, lambda: page.mouse.click(attn["x"] + attn["w"] / 2, attn["y"] + attn["h"] / 2)
        )
        paths = [b["path"] for b in opened["boxes"]]
        assert any(p.endswith("layers.0.self_attn") for p in paths), paths
        assert len(opened["modules"]) == len(before["modules"]) - 1
        assert len(opened["vertices"]) > len(before["vertices"]) + 5
        assert opened["zoom"] <= before["zoom"]
        # collapse it again from its frame's title: the layout compacts back to what it was
        frame = next(b for b in opened["boxes"] if b["path"].endswith("layers.0.self_attn"))
        closed = _relaid(page, lambda: page.mouse.click(frame["x"] + 12, frame["y"] + 6))
        assert len(closed["modules"]) == len(before["modules"])
        assert len(closed["vertices"]) == len(before["vertices"])
        assert closed["zoom"] == pytest.approx(before["zoom"], rel=0.01)
        ext0, ext1 = _extent(before), _extent(closed)
        assert ext1["h"] == pytest.approx(ext0["h"], rel=0.02)
        # Expand all opens every module; Collapse goes back to the default
        every = _relaid(page, lambda: page.get_by_test_id("expand-all").click())
        assert every["modules"] == []
        assert len(every["vertices"]) > 3 * len(before["vertices"])
        again = _relaid(page, lambda: page.get_by_test_id("collapse-all").click())
        assert len(again["modules"]) == len(before["modules"])
        assert not errors
    finally:
        page.close()


def test_a_training_loop_is_drawn_one_iteration_at_a_time(context: BrowserContext) -> None:
    page, errors = _open(context, (1280, 720))
    try:
        _run_example(page, "19_cnn_training_loop")
        label = page.get_by_test_id("iter-label")
        expect(label).to_have_text("iteration 3 / 3")
        last = _settle(page)
        assert last["iteration"] == 2 and last["iterations"] == 3

        def losses(geo: dict[str, Any]) -> list[str]:
            return [v["id"] for v in geo["vertices"] if v["title"].endswith("NllLossBackward0")]

        assert len(losses(last)) == 1
        second = _relaid(page, lambda: page.get_by_test_id("iter-prev").click())
        expect(label).to_have_text("iteration 2 / 3")
        assert len(losses(second)) == 1 and losses(second) != losses(last)
        expect(page.get_by_test_id("iter-follow")).to_be_visible()
        # opened up, each parameter is drawn once (not once per iteration)
        geo = _relaid(page, lambda: page.get_by_test_id("expand-all").click())
        titles = [v["title"] for v in geo["vertices"]]
        for p in ("conv1.weight", "conv1.bias", "bn1.weight"):
            assert titles.count(p) == 1, (p, titles)
        convs = [t for t in titles if t.endswith("ConvolutionBackward0")]
        assert len(convs) == 2, titles
        page.get_by_test_id("iter-follow").click()
        expect(label).to_have_text("iteration 3 / 3")
        shot(page, "model-cnn-iteration")
        assert not errors
    finally:
        page.close()


# shared cells called in a Python loop, with no module around them: many small boxes side by side
# once fitted, where a name beside one box would land on its neighbours
RECURRENT = """import torch
import torch.nn as nn
torch.manual_seed(0)
enc = nn.GRU(6, 12, batch_first=True)
dec = nn.GRUCell(6, 12)
attn = nn.MultiheadAttention(12, 2, batch_first=True)
out = nn.Linear(12, 6)
src, tgt = torch.randn(2, 5, 6), torch.randn(2, 4, 6)
mem, h = enc(src)
h = h[0]
loss = 0
for t in range(4):
    h = dec(tgt[:, t], h)
    ctx, w = attn(h.unsqueeze(1), mem, mem)
    loss = loss + ((out(ctx.squeeze(1) + h) - tgt[:, t]) ** 2).mean()
loss.backward()
"""


def test_names_beside_small_boxes_cover_no_other_box(context: BrowserContext) -> None:
    page, errors = _open(context, (1280, 720))
    try:
        page.goto("/")
        set_code(page, RECURRENT)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text("· ok")
        _settle(page)
        page.get_by_test_id("fit").click()
        geo = _settle(page)
        assert geo["zoom"] < TEXT_K, "the fitted graph should need zoomed-out names"
        beside = [lb for lb in geo["labels"] if "at" in lb]
        assert len(beside) >= 10, f"too few names drawn: {[lb['text'] for lb in beside]}"
        _assert_legible(geo)
        assert not errors
    finally:
        page.close()


# parameters and their AccumulateGrad: names a little wider than their boxes once zoomed out
SMALL_NET = """import torch
from torch import nn
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
net(torch.randn(16, 4)).pow(2).mean().backward()
"""


def test_a_name_a_little_wider_than_its_box_is_drawn_smaller_in_it(context: BrowserContext) -> None:
    page, errors = _open(context, (1280, 720))
    try:
        page.goto("/")
        set_code(page, SMALL_NET)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text("· ok")
        geo = _settle(page)
        smaller = []
        for _ in range(12):  # every zoom from the first view out to the farthest
            if geo["zoom"] < TEXT_K:
                _assert_legible(geo)
                boxes = {b["id"]: b for b in [*geo["vertices"], *geo["modules"]]}
                for lb in geo["labels"]:
                    if lb["px"] < 11:  # smaller than the zoomed-out size: inside its own box
                        assert inside(lb["at"], boxes[lb["at"]["owner"]]), lb
                        smaller.append(lb["text"])
            page.get_by_test_id("zoom-out").click()
            geo = _settle(page)
        # AccumulateGrad (and the parameters' names) fit their boxes at 9 px before they
        # would go beside empty boxes
        assert "AccumulateGrad" in smaller, smaller
        assert not errors
    finally:
        page.close()


# a model's inference under no_grad: no node is recorded, each op is drawn as a cut point
INFERENCE = """import torch
from torch import nn
def block(c):
    return nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU())
model = nn.Sequential(*[block(4) for _ in range(12)], nn.Flatten(), nn.Linear(4 * 8 * 8, 10))
model.eval()
with torch.no_grad():
    logits = model(torch.randn(2, 4, 8, 8))
print(logits.argmax(1))
"""


def test_a_model_run_under_no_grad_starts_collapsed_as_a_chain(context: BrowserContext) -> None:
    page, errors = _open(context, (1280, 720))
    try:
        page.goto("/")
        set_code(page, INFERENCE)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text("· ok")
        geo = _settle(page)
        # its blocks are boxes, one under the other as the activations flow (ReLU's cut point,
        # on no input that requires grad, links a block to the next)
        blocks = sorted(
            (m for m in geo["modules"] if m["title"].endswith("· Sequential")),
            key=lambda m: int(m["title"].split(" ·")[0]),
        )
        assert len(blocks) == 12, [m["title"] for m in geo["modules"]]
        tops = [b["y"] for b in blocks]
        assert tops == sorted(tops) and len(set(tops)) == 12, tops
        assert not geo["partial"]
        _assert_legible(geo)
        assert not errors
    finally:
        page.close()
