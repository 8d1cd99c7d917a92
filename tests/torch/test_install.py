"""`pip install backscope` as a user gets it: the wheel carries the real-torch package and the
value code it loads by path, declares torch only behind the `torch` extra, and its installed
copy (not this checkout) traces a script with real torch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import orjson

from protocol.check import validate_event
from tests.torch.harness import ROOT


def test_wheel_installs_and_traces_real_torch(tmp_path: Path) -> None:
    build = tmp_path / "build"
    pip = [sys.executable, "-m", "pip"]
    # the wheel is built from a copy of the tree (setuptools leaves a build/ folder where it
    # builds), without isolation: the build needs only setuptools, already here
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in ("backscope", "engine", "server", "protocol"):
        shutil.copytree(ROOT / part, tree / part, ignore=ignore)
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, tree / part)
    shutil.copytree(ROOT / "frontend" / "dist", tree / "frontend" / "dist")
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(build), str(tree)],
        check=True,
        capture_output=True,
        timeout=900,
        cwd=tmp_path,
    )
    (wheel,) = build.glob("backscope-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        requires = [
            line.split(":", 1)[1].strip()
            for line in z.read(meta).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    shipped = {
        "backscope/__init__.py",
        "backscope/capture/run.py",
        "engine/tracing/values.py",
        "backscope-0.1.0.data/data/share/backscope/frontend/index.html",
    }
    assert shipped <= names
    torch_reqs = [r for r in requires if r.split(";")[0].strip().startswith("torch")]
    assert torch_reqs and all('extra == "torch"' in r for r in torch_reqs), torch_reqs
    site = tmp_path / "site"
    subprocess.run(
        [*pip, "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=900,
    )
    script = tmp_path / "user.py"
    script.write_text(
        "import torch\nw = torch.ones(3, requires_grad=True)\n(w * w).sum().backward()\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    probe = (
        "import sys, backscope, server.cli\n"
        f"assert backscope.__file__.startswith({str(site)!r}), backscope.__file__\n"
        "assert 'torch' not in sys.modules  # importing backscope does not import torch\n"
        f"rc = server.cli.main(['trace', '--torch', {str(script)!r}, '-o', {str(out)!r}])\n"
        # the page is served from the installed copy (not a checkout's frontend/dist)
        "import urllib.request\n"
        "from backscope.live import local_server\n"
        "page = urllib.request.urlopen(local_server().base, timeout=60).read().decode()\n"
        "assert '/assets/' in page and 'data-testid=\"engine\"' in page, page[:300]\n"
        "sys.exit(rc)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    events = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    for e in events:
        validate_event(e)
    assert events[0]["engine"].startswith("PyTorch ")
    acc = [e for e in events if e["type"] == "grad_accumulated"]
    assert acc[-1]["total"]["values"] == [2.0, 2.0, 2.0]
