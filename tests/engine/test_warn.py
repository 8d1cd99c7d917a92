"""The engine's warnings point at the user's line, whatever path led into the engine."""

from __future__ import annotations

import contextlib
import textwrap
import warnings

import pytest

import engine as torch

# each case: user code, and the 1-based lines its warnings must point at, in order
CASES = {
    "a property read": (
        """
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        y.grad
        """,
        [3],
    ),
    "a full backward hook fired by backward()": (
        """
        lin = torch.nn.Linear(2, 2)
        lin.register_full_backward_hook(lambda m, gi, go: None)
        out = lin(torch.ones(1, 2)).sum()
        out.backward()
        """,
        [4],
    ),
    "anomaly mode's report of the forward line": (
        """
        x = torch.tensor([0.0], requires_grad=True)
        with torch.autograd.detect_anomaly():
            y = x.log() * 0
            y.sum().backward()
        """,
        [2, 4],
    ),
    "an op inside a hook run by backward": (
        """
        x = torch.ones(2, requires_grad=True)
        def hook(g):
            torch.nn.init.kaiming_uniform_(torch.empty(0, 2))
            return g
        x.register_hook(hook)
        (x * 2).sum().backward()
        """,
        [3],
    ),
    "a context manager's entry": (
        """
        with torch.autocast("cpu", dtype=torch.float64):
            pass
        """,
        [1],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_warning_points_at_the_user_line(case: str) -> None:
    code, lines = CASES[case]
    env = {"__name__": "user", "torch": torch}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.suppress(RuntimeError):  # anomaly mode raises after its warning
            exec(compile(textwrap.dedent(code).strip() + "\n", "user.py", "exec"), env)
    assert [(w.filename, w.lineno) for w in caught] == [("user.py", n) for n in lines], [
        str(w.message)[:60] for w in caught
    ]


def test_default_filter_shows_a_warning_once_per_user_line() -> None:
    code = "x = torch.ones(2, requires_grad=True) * 2\nfor _ in range(3):\n    x.grad\nx.grad\n"
    env = {"__name__": "user", "torch": torch}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        exec(compile(code, "user.py", "exec"), env)
    assert [w.lineno for w in caught] == [3, 4]


def test_a_warning_in_code_whose_module_loader_has_no_source_is_still_shown() -> None:
    """Code exec'd in `python -c`'s __main__ (whose loader, the builtin importer, raises
    ImportError when asked for its source): the warning is shown at the user's line, not an
    ImportError out of the `.grad` read (before: "'__main__' is not a built-in module")."""
    import subprocess
    import sys

    code = "import engine as torch\nx = torch.ones(2, requires_grad=True)\nprint((x * 2).grad)\n"
    boot = f"exec(compile({code!r}, 'snippet.py', 'exec'))"
    out = subprocess.run([sys.executable, "-c", boot], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "None\n"
    assert "snippet.py:3: UserWarning: The .grad attribute of a Tensor that is not a leaf" in (
        out.stderr
    )
