"""tools/drop_unused_ignores.py: mypy's unused-ignore reports read, and only those codes cut."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import drop_unused_ignores as tool  # noqa: E402

REPORT = """\
engine/a.py:3: error: Unused "type: ignore" comment  [unused-ignore]
engine/b.py:7: error: Unused "type: ignore[attr-defined]" comment  [unused-ignore]
engine/b.py:9: error: Name "x" is not defined  [name-defined]
Found 3 errors in 2 files (checked 2 source files)
"""


def test_reports_are_read_per_file_and_line() -> None:
    assert tool.unused(REPORT) == {"engine/a.py": {3: None}, "engine/b.py": {7: {"attr-defined"}}}


def test_only_the_named_codes_go() -> None:
    line = "    return x.foo()  # type: ignore[attr-defined, no-any-return]"
    assert tool.drop(line, {"attr-defined"}) == (
        "    return x.foo()  # type: ignore[no-any-return]",
        ["attr-defined"],
    )


def test_the_comment_goes_when_no_code_is_left_and_other_comments_stay() -> None:
    line = "    import scipy  # type: ignore[import-untyped]  # on first use"
    assert tool.drop(line, None) == ("    import scipy  # on first use", ["import-untyped"])
    assert tool.drop("y = 1  # type: ignore", None) == ("y = 1", ["(bare)"])
