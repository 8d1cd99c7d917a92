"""deploy/replicas-check.sh passes: PostgreSQL, two replicas and a runner pool as processes;
a seed example through replica A, followed, resumed and commanded through B, A killed mid-run,
and B serves the finished run whole."""

from __future__ import annotations

import os
import subprocess
import sys

from deploy.cluster import ROOT


def test_replicas_check_passes() -> None:
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run(
        [str(ROOT / "deploy" / "replicas-check.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replicas check passed" in done.stdout
