"""deploy/replicas-check.sh passes: PostgreSQL, two replicas and a runner pool as processes;
a seed example through replica A, followed, resumed and commanded through B, A killed mid-run,
and B serves the finished run whole."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from deploy.cluster import ROOT


def test_replicas_check_passes() -> None:
    # its own temporary directory (short: PostgreSQL's socket path has a length limit), to see
    # that a check that passed leaves nothing behind
    tmp = Path(tempfile.mkdtemp(prefix="rc-"))
    tmp.chmod(0o1777)  # as /tmp: PostgreSQL runs as its own user when the tests run as root
    env = {**os.environ, "PYTHON": sys.executable, "TMPDIR": str(tmp)}
    try:
        done = subprocess.run(
            [str(ROOT / "deploy" / "replicas-check.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "replicas check passed" in done.stdout
        assert not list(tmp.glob("backscope-replicas-*")), "its logs were left behind"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
