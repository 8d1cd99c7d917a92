"""What the graph view draws, in Chromium against the real server: module boxes that nest and
never overlap, the legend giving its room back, the whole graph in narrow and wide windows, a
training loop folded to its last pass, and a node picked while paused kept in view.

Geometry comes from the page's own state (`__backscope.geometry()`: where each vertex and
module box is drawn, in screen pixels), not from pixels of a screenshot.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import (
    SplitSocket,
    assert_clear_view,
    drawn_geometry,
    finished,
    fresh_page,
    inside,
    layout_state,
    meets,
    move_cursor,
    press_run,
    set_code,
    shot,
)

pytestmark = pytest.mark.browser

FINISHED = finished("ok", "error")
EXP_EVENTS = Path(__file__).parents[2] / "frontend" / "tests" / "fixtures" / "exp.jsonl"

MLP = """import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 8)
        self.fc3 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.act(self.fc1(x))
        h = self.act(self.fc2(h))
        return self.fc3(h)


torch.manual_seed(0)
model = MLP()
x = torch.randn(16, 4)
target = torch.randn(16, 1)
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
"""

LOOP = """import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 1, 8, 8)
target = torch.randint(0, 3, (8,))
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(data), target)
    loss.backward()
    opt.step()
"""


def test_mlp_module_boxes_never_overlap_and_hold_their_parameters(page: Page) -> None:
    page.goto("/")
    set_code(page, MLP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    geo = drawn_geometry(page)
    boxes = geo["boxes"]
    assert [b["path"] for b in boxes] == [
        "MLP",
        "MLP.fc1",
        "MLP.act",
        "MLP.fc2",
        "MLP.act",
        "MLP.fc3",
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if set(b["members"]) <= set(a["members"]):
                assert inside(b, a), f"{b['path']} sticks out of {a['path']}"
            else:
                assert not meets(a, b), f"{a['path']} overlaps {b['path']}"
        # a module box holds its own ops and parameters, and no other vertex
        for v in geo["vertices"]:
            if v["id"] not in a["members"]:
                assert not meets(v, a), f"{v['title']} drawn inside {a['path']}"
    members = {b["path"]: set(b["members"]) for b in boxes}
    for v in geo["vertices"]:
        m = re.match(r"(MLP\.fc\d) param", v["title"])
        if m:
            assert v["id"] in members[m.group(1)], f"{v['title']} outside its layer's box"
    assert_clear_view(geo)
    shot(page, "walk-mlp-modules")


def test_a_provisional_cut_taken_back_is_not_drawn(page: Page) -> None:
    """A custom Function's forward runs `i.exp()` under no_grad: the page first draws a cut for
    its output, then the output gets the Function's grad_fn and the cut is taken back. When
    the two events come in different batches, the layout already has the cut; it must not stay
    drawn. The recorded run is fed to the page in those two batches."""
    events = [json.loads(line) for line in EXP_EVENTS.read_text().splitlines() if line]
    at = next(i for i, e in enumerate(events) if e["type"] == "node")
    page.goto("/")
    page.evaluate("evs => window.__backscope.app.ingest(evs)", events[:at])
    page.wait_for_function("() => window.__backscope.app.pos.has('c1')")
    page.evaluate("evs => window.__backscope.app.ingest(evs)", events[at:])
    geo = drawn_geometry(page)
    titles = sorted(v["title"] for v in geo["vertices"])
    assert not any("no_grad" in t or "cut" in t for t in titles), titles
    assert layout_state(page)["extra"] == []


NAMED_LATE = """import torch
leaves = [torch.ones(3, requires_grad=True)]
y = (leaves[0] * 2).sum()
print("the leaf has no name yet")
a_weight_named_only_after_its_box_was_placed = leaves[0]
y.backward()
"""


def test_a_name_heard_after_the_box_was_placed_widens_the_box(page: Page) -> None:
    """A leaf used before any variable names it is placed by the layout with a short title;
    its name comes in a later batch (the print ends the first). The server's frames are cut
    at the print and the rest held until the layout has placed the leaf: once the name
    arrives, the leaf's box holds its whole name."""
    sock = SplitSocket(page)
    page.goto("/")
    set_code(page, NAMED_LATE)
    sock.hold_after({"stdout"})
    press_run(page)
    before = drawn_geometry(page)
    assert not any("named_only_after" in v["title"] for v in before["vertices"]), before
    sock.release()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    after = drawn_geometry(page)
    named = [
        v for v in after["vertices"] if v["title"] == "a_weight_named_only_after_its_box_was_placed"
    ]
    assert len(named) == 1, [v["title"] for v in after["vertices"]]
    assert_clear_view(after)


def test_legend_toggles_and_the_view_refits(page: Page) -> None:
    page.goto("/")
    set_code(page, MLP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    legend = page.get_by_test_id("legend")
    shown = legend.is_visible()  # set once, at load, from the window's size
    before = drawn_geometry(page)
    page.locator("body").press("l")
    expect(legend).to_be_visible() if not shown else expect(legend).to_be_hidden()
    expect(page.get_by_test_id("legend-toggle")).to_have_attribute(
        "aria-pressed", str(not shown).lower()
    )
    after = drawn_geometry(page)
    assert_clear_view(after)
    # hiding the legend frees room, so the fitted graph grows (and shrinks when it comes back)
    grew = after["vertices"][0]["w"] > before["vertices"][0]["w"]
    assert grew == shown


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_narrow_and_wide_windows_show_the_whole_graph(
    context: BrowserContext, size: tuple[int, int]
) -> None:
    w, h = size
    page = fresh_page(context, w, h)
    try:
        page.goto("/")
        set_code(page, MLP)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
        assert_clear_view(drawn_geometry(page))
        for tid in ("run", "step", "step-back", "continue", "share", "export-json", "status"):
            box = page.get_by_test_id(tid).bounding_box()
            assert box is not None and box["x"] + box["width"] <= w, tid
        shot(page, f"walk-mlp-{w}")
    finally:
        page.close()


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_a_training_loop_fits_its_last_pass(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto("/")
    set_code(page, LOOP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # drawn, with every placement in (how soon is bench/bench_frontend.py's to report)
    page.wait_for_function(
        """() => { const a = window.__backscope.app;
                   return a.metrics.firstFullFrameAt > 0 && a.layout.caughtUp; }"""
    )
    # the loop is folded: the last iteration is drawn, whole, with the selector saying so
    expect(page.get_by_test_id("iter-label")).to_have_text("iteration 3 / 3")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    canvas = geo["canvas"]

    def in_view(v: dict[str, float]) -> bool:
        return bool(canvas["y"] <= v["y"] and v["y"] + v["h"] <= canvas["y"] + canvas["h"])

    def by_y(name: str) -> list[dict[str, float]]:
        found = [v for v in geo["vertices"] if v["title"].endswith(name)]
        return sorted(found, key=lambda v: v["y"])

    losses, convs = by_y("NllLossBackward0"), by_y("ConvolutionBackward0")
    assert len(losses) == 1 and len(convs) == 2
    assert all(in_view(v) for v in [*convs, *losses])
    shot(page, f"walk2-training-loop-{size[0]}")


def test_a_node_picked_in_the_list_stays_in_view_while_paused(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    set_code(page, LOOP)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    page.locator("#graph").click(position={"x": 5, "y": 300})
    # the step shown (its node brought into view) before the pick, so what follows is the pick's
    move_cursor(page, lambda: page.keyboard.press("ArrowRight"))
    for _ in range(4):  # zoomed in, the first conv is far above the node backward is at
        page.locator("#zoom-in").click()
    page.keyboard.press("/")
    page.keyboard.type("Convolution")
    entries = page.get_by_test_id("node-list").locator("li")
    expect(entries).to_have_count(2)
    entries.first.click()
    # a few frames later the view has not snapped back to the current node
    page.evaluate(
        """() => new Promise(done => { let n = 10;
            const tick = () => (--n > 0 ? requestAnimationFrame(tick) : done(null));
            requestAnimationFrame(tick); })"""
    )
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    picked = page.evaluate("window.__backscope.app.selected")
    v = next(x for x in geo["vertices"] if x["id"] == picked)
    c = geo["canvas"]
    assert c["x"] <= v["x"] and v["x"] + v["w"] <= c["x"] + c["w"], "picked node is off screen"
    assert c["y"] <= v["y"] and v["y"] + v["h"] <= c["y"] + c["h"], "picked node is off screen"
    shot(page, "walk2-jump-while-paused")


LATER_MODULE = """import torch
lin = torch.nn.Linear(4, 4)
x = torch.randn(2, 4)
lin(x).sum().backward()
"""

# the canvas's pixels that are not its background (read in the page: the canvas is the app's)
_INKED_JS = """() => { const c = document.querySelector('#graph');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const bg = [d[0], d[1], d[2]]; let n = 0;
    for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1])
            + Math.abs(d[i + 2] - bg[2]) > 24) n++;
    return n; }"""


def _seek_before_the_first_vertex(page: Page) -> None:
    """Move the cursor to the last event before the run's first vertex, by the timeline."""
    empty = page.evaluate(
        """() => { const log = window.__backscope.app.log; let at = -1;
            for (let i = 0; i < log.length && log.stateAt(i).vertices.size === 0; i++) at = i;
            return at; }"""
    )
    assert empty >= 0
    page.locator("#timeline").fill(str(empty))
    expect(page.get_by_test_id("status")).to_contain_text(f"cursor {empty + 1}/")


def test_stepped_back_the_graph_draws_nothing_made_later(page: Page) -> None:
    """The layout is the whole run's; the graph at an earlier cursor draws only what exists
    then: no edges or module frame of vertices made later (they were drawn as lines to
    nothing and an empty `Linear` frame)."""
    page.goto("/")
    set_code(page, LATER_MODULE)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    drawn_geometry(page)
    assert page.evaluate(_INKED_JS) > 0  # the finished graph is drawn
    _seek_before_the_first_vertex(page)
    assert page.evaluate("() => window.__backscope.app.log.state().vertices.size") == 0
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    shot(page, "graph-view-before-any-vertex")
    assert page.evaluate(_INKED_JS) == 0, "the graph draws what the run had not made yet"


# the overview map's box pixels (its boxes are #5b8def on a dark ground; the view's rectangle
# is drawn in another colour)
_MAP_BOXES_JS = """() => { const c = document.querySelector('#overview');
    if (c.hidden) return null;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - 91) + Math.abs(d[i + 1] - 141) + Math.abs(d[i + 2] - 239) < 40) n++;
    return n; }"""


def test_stepped_back_the_overview_map_shows_nothing_made_later(page: Page) -> None:
    """The overview map, like the graph, shows only the boxes that exist at the cursor (it
    showed the whole run's boxes at every cursor)."""
    page.goto("/")
    set_code(page, LATER_MODULE)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    drawn_geometry(page)
    for _ in range(4):  # zoomed in, the view no longer holds the whole graph: the map shows
        page.get_by_test_id("zoom-in").click()
    page.wait_for_function(f"() => ({_MAP_BOXES_JS})() > 0")
    _seek_before_the_first_vertex(page)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(_MAP_BOXES_JS) in (None, 0), "the map shows what the run had not made"
