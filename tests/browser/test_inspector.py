"""The inspector, in Chromium against the real server: a large tensor's full values load on
request while paused, complex values show as PyTorch prints them, and a leaf's gradient shows
each path that reached it (the AccumulateGrad rows name the leaf each feeds)."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import entry, finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

# above the server's per-tensor limit for values sent with the run (65,536 elements): only a
# summary comes, and the full values (in two chunks) load on request while paused
BIG = """import torch

torch.manual_seed(0)
w = torch.randn(70_000, requires_grad=True)
h = w * 2
loss = h.sum()
loss.backward()
"""

TWO_PATHS = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
a = x * w
b = x.exp()
y = (a + b).sum()
y.backward()
"""


def test_full_values_of_a_large_tensor_load_while_paused(page: Page) -> None:
    page.goto("/")
    set_code(page, BIG)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    entry(page, "w").first.click()
    insp = page.get_by_test_id("inspector")
    insp.get_by_test_id("load-values").click()
    # the loaded values replace w's summary: no button left, every element shown
    expect(insp.get_by_test_id("load-values")).to_have_count(0)
    page.wait_for_function(
        """() => { const s = window.__backscope.app.log.state();
        const t = [...s.tensors.values()].find(t => t.name === 'w');
        return window.__backscope.shown(t.id).flat !== null; }"""
    )
    got = page.evaluate(
        """() => {
        const s = window.__backscope.app.log.state();
        const t = [...s.tensors.values()].find(t => t.name === 'w');
        const full = window.__backscope.shown(t.id).flat;
        return {n: full.length, min: full.reduce((a, b) => Math.min(a, b)),
                max: full.reduce((a, b) => Math.max(a, b)),
                smin: t.value.stats.min, smax: t.value.stats.max};
    }"""
    )
    # the full values (folded into w's version by the reducer) agree with the exact stats the
    # tracer sent with the summary
    assert got["n"] == 70_000
    assert got["min"] == pytest.approx(got["smin"]) and got["max"] == pytest.approx(got["smax"])
    shot(page, "full-values")


def test_complex_values_show_as_pytorch_prints_them(page: Page) -> None:
    page.goto("/")
    set_code(
        page,
        "import torch\n"
        "z = torch.complex(torch.tensor([1., 2.], requires_grad=True), torch.tensor([3., 4.]))\n"
        "(z * z.conj()).real.sum().backward()\n"
        # over 65,536 elements: only a summary comes with the run (smaller ones bring values)
        "big = torch.complex(torch.randn(300, 300), torch.randn(300, 300)).requires_grad_()\n"
        "(big.abs() ** 2).sum().backward()\n",
    )
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok"))
    entry(page, "ComplexBackward0").first.click()
    # print(z) in PyTorch 2.13: tensor([1.+3.j, 2.+4.j], grad_fn=<ComplexBackward0>)
    values = page.locator("#inspector table.vals").first
    expect(values).to_have_text(re.compile(r"1\.\+3\.j\s*2\.\+4\.j"))
    entry(page, "big").first.click()
    expect(page.locator("#inspector")).to_contain_text("Only the first 16 values were sent")
    shot(page, "complex-values")


def test_a_leafs_grad_shows_each_path_and_accumulategrad_names_its_leaf(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    # two AccumulateGrad rows, told apart by the leaf each one feeds
    accs = entry(page, "AccumulateGrad")
    expect(accs).to_have_count(2)
    expect(accs.nth(0)).to_contain_text("→ x")
    expect(accs.nth(1)).to_contain_text("→ w")
    entry(page, "x").click()
    src = page.get_by_test_id("grad-sources")
    expect(src.locator("li")).to_have_count(2)
    expect(src).to_contain_text("from MulBackward0 (a) · line 4 [0.5000, -1.0000, 2.0000]")
    exp = ", ".join(f"{math.exp(v):.4f}" for v in (1.0, 2.0, 3.0))
    expect(src).to_contain_text(f"from ExpBackward0 (b) · line 5 [{exp}]")
    total = ", ".join(f"{w + math.exp(v):.4f}" for v, w in ((1.0, 0.5), (2.0, -1.0), (3.0, 2.0)))
    inspector = page.get_by_test_id("inspector")
    expect(inspector).to_contain_text(
        f"2 paths reach this leaf: backward sums their gradients (= [{total}])"
    )
    expect(page.get_by_test_id("inspector-grad")).to_have_text(f"[{total}]")
    shot(page, "walk2-grad-sources")


# where .grad comes from is told for the last backward pass: each case ends with its own
GRAD_WRITTEN = {
    # zero_grad(set_to_none=False) after the only pass
    "p": """import torch
p = torch.tensor([1.], requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1)
(p * 2).sum().backward()
opt.zero_grad(set_to_none=False)
print(p.grad)
""",
    # an assignment that backward then adds onto
    "q": """import torch
q = torch.tensor([1.], requires_grad=True)
q.grad = torch.tensor([5.])
(q * 2).sum().backward()
print(q.grad)
""",
    # two passes
    "r": """import torch
r = torch.tensor([1.], requires_grad=True)
(r * 2).sum().backward()
(r * 2).sum().backward()
print(r.grad)
""",
}
WHY_DIFFERS = {
    "p": (
        "[0.]",
        ".grad is not what this pass sent: zero_grad(set_to_none=False) at line 5 wrote it "
        "after the pass.",
    ),
    "q": (
        "[7.]",
        ".grad is not only what this pass sent: backward added it onto what an assignment to "
        ".grad at line 3 left in .grad.",
    ),
    "r": ("[4.]", "earlier backward calls"),
}


@pytest.mark.parametrize("name", sorted(GRAD_WRITTEN))
def test_a_grad_written_outside_backward_is_named_not_blamed_on_earlier_passes(
    page: Page, name: str
) -> None:
    """When .grad is not what the last pass sent, the inspector says why as it happened: a
    zero_grad(set_to_none=False) after the pass, an assignment backward added onto, or
    (only then) earlier backward calls. Before: "it also holds gradients from earlier backward
    calls" for all three."""
    page.goto("/")
    set_code(page, GRAD_WRITTEN[name])
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok"))
    grad, why = WHY_DIFFERS[name]
    expect(page.get_by_test_id("console")).to_contain_text(f"tensor({grad})")
    entry(page, name).click()
    expect(page.get_by_test_id("inspector-grad")).to_have_text(grad)
    expect(page.get_by_test_id("grad-differs")).to_contain_text(why)
    shot(page, f"grad-written-outside-backward-{name}")
