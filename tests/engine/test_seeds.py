"""Every examples/*.py prints under the engine what it printed under real PyTorch.

Fixtures: tests/fixtures/seeds.json, recorded by tests/fixtures/record_seeds.py. Object
addresses are normalised; examples marked `# compare: masked` have their numbers masked (their
values are random); the profiler example is compared by table structure and op names.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.printout import assert_same_printout

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
FIXTURES = json.loads((ROOT / "tests" / "fixtures" / "seeds.json").read_text())
RUNNER = (
    "import runpy, sys; sys.path.insert(0, sys.argv[1]); import engine; "
    "engine.install_as_torch(); runpy.run_path(sys.argv[2], run_name='__main__')"
)
NUMBER = re.compile(r"-?\d+(\.\d*)?(e[+-]?\d+)?")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def run_with_engine(path: Path, cwd: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(ROOT), str(path)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def marker(path: Path) -> str:
    second = path.read_text().splitlines()[1]
    return second.split()[2] if second.startswith("# compare:") else "exact"


def table_parts(text: str) -> tuple[list[str], list[str], str]:
    """(header lines, row names, footer label) of a profiler table."""
    lines = text.rstrip("\n").split("\n")
    seps = [i for i, line in enumerate(lines) if line.startswith("-----")]
    assert len(seps) == 3, text
    header = lines[: seps[1] + 1]
    width = len(lines[seps[0]].split("  ")[0])
    names = [row[:width].strip() for row in lines[seps[1] + 1 : seps[2]]]
    return header, names, lines[seps[2] + 1].split(":")[0]


def test_every_example_is_recorded() -> None:
    assert [p.name for p in EXAMPLES] == sorted(FIXTURES)
    for path in EXAMPLES:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert FIXTURES[path.name]["sha256"] == digest, f"re-record {path.name}"
        assert path.read_text().startswith("# title: ")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_matches_torch(path: Path, tmp_path: Path) -> None:
    got = run_with_engine(path, tmp_path)
    want = FIXTURES[path.name]["stdout"]
    mode = marker(path)
    if mode == "profiler":
        got_header, got_names, got_footer = table_parts(got)
        want_header, want_names, want_footer = table_parts(want)
        assert got_header == want_header
        assert got_footer == want_footer == "Self CPU time total"
        # our engine has fewer internal ops than ATen; every name it shows must be torch's
        assert set(got_names) <= set(want_names), set(got_names) - set(want_names)
        backward = {n for n in want_names if n.endswith(tuple("0123456789")) and "::" not in n}
        assert backward <= set(got_names), backward - set(got_names)
        return
    got, want = ADDRESS.sub("0xADDR", got), ADDRESS.sub("0xADDR", want)
    if mode == "masked":
        # random values: mask numbers, and the padding that depends on their widths
        got, want = (re.sub(r" +", "", NUMBER.sub("N", t)) for t in (got, want))
    assert_same_printout(got, want)
