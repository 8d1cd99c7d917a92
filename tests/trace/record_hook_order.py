"""Record the order real PyTorch fires the hooks of tests/trace/snippets.py (run by hand).

/work/torchenv/bin/python tests/trace/record_hook_order.py
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.trace.snippets import RUNNABLE  # noqa: E402


def main() -> None:
    import torch

    out = {"torch_version": torch.__version__, "order": {}}
    for name, code in RUNNABLE.items():
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
        hooks = [ln.split()[1] for ln in buf.getvalue().splitlines() if ln.startswith("hook ")]
        if hooks:
            out["order"][name] = hooks
    path = ROOT / "tests" / "fixtures" / "trace_hook_order.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
