"""Delete the `# type: ignore[...]` codes mypy reports unused (`warn_unused_ignores` is on).

After a merge brings code written against the untyped Tensor (ignores for `attr-defined` or
`no-any-return` that Tensor's generated surface now makes unneeded), run
`python tools/gen_tensor_surface.py && python tools/drop_unused_ignores.py`: it runs mypy,
removes exactly the codes mypy names on each reported line (the whole comment when none is
left; other comments on the line stay) and prints how many it removed, by code.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = re.compile(r'^(.*?):(\d+): error: Unused "type: ignore(?:\[([^\]]*)\])?" comment')
IGNORE = re.compile(r"\s*# type: ignore(\[([^\]]*)\])?")


def unused(mypy_output: str) -> dict[str, dict[int, set[str] | None]]:
    """Per file and line, the unused codes (None: the whole bare ignore)."""
    found: dict[str, dict[int, set[str] | None]] = {}
    for line in mypy_output.splitlines():
        m = REPORT.match(line)
        if m:
            codes = None if m.group(3) is None else {c.strip() for c in m.group(3).split(",")}
            found.setdefault(m.group(1), {})[int(m.group(2))] = codes
    return found


def drop(line: str, codes: set[str] | None) -> tuple[str, list[str]]:
    """The line without those codes, and the codes removed."""
    m = IGNORE.search(line)
    if m is None:
        raise SystemExit(f"no type: ignore on a line mypy reported: {line!r}")
    have = [c.strip() for c in (m.group(2) or "").split(",") if c.strip()]
    keep = [] if codes is None else [c for c in have if c not in codes]
    removed = [c for c in have if c not in keep] or ["(bare)"]
    rest = line[m.end() :]
    if keep:
        return f"{line[: m.start()]}  # type: ignore[{', '.join(keep)}]{rest}", removed
    return line[: m.start()] + (f"  {rest.lstrip()}" if rest.strip() else ""), removed


def main() -> int:
    mypy = str(Path(sys.executable).parent / "mypy")
    out = subprocess.run([mypy], capture_output=True, text=True, cwd=ROOT).stdout
    counts: Counter[str] = Counter()
    for name, lines in unused(out).items():
        path = ROOT / name
        text = path.read_text().split("\n")
        for number, codes in lines.items():
            text[number - 1], removed = drop(text[number - 1], codes)
            counts.update(removed)
        path.write_text("\n".join(text))
    print(sum(counts.values()), "removed:", dict(counts.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
