"""What a run can learn about the host: not its kernel command line, its mounts (devices, paths,
a Docker host's overlay directories), its kernel build or its hostname; while Python, numpy and
the engine still have all they need."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from server.sandbox import Sandbox
from tests.server.sandbox_helpers import NORMAL, NORMAL_OUT, run_sync, short_settings

HOST_FILES = (
    "/proc/cmdline",
    "/proc/version",
    "/proc/self/mountinfo",
    "/proc/self/mounts",
    "/proc/thread-self/mountinfo",
    "/proc/1/mountinfo",
    "/proc/1/cmdline",
    "/proc/mounts",
    "/proc/sys/kernel/osrelease",
    "/proc/sys/kernel/version",
    "/proc/sys/kernel/hostname",
    "/proc/self/cgroup",
    "/proc/meminfo",
    "/proc/cpuinfo",
    "/proc/kallsyms",
    "/sys/kernel/notes",
    "/etc/hostname",
    "/etc/machine-id",
)

SNOOP = f"""import json, os, socket
found = {{}}
for path in {HOST_FILES!r}:
    try:
        with open(path, "rb") as f:
            found[path] = f.read(4096).decode(errors="replace")
    except OSError as e:
        found[path] = type(e).__name__
found["/proc listing"] = sorted(os.listdir("/proc"))
found["hostname"] = socket.gethostname()
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox(short_settings())


def test_host_files_are_not_readable(sandbox: Sandbox) -> None:
    result = run_sync(sandbox, SNOOP)
    assert result.status == "ok", result.summary
    found = json.loads(result.text())
    readable = {p: v for p, v in found.items() if p in HOST_FILES and v != "FileNotFoundError"}
    assert readable == {}
    assert found["/proc listing"] == []
    assert found["hostname"] != socket.gethostname()
    # nothing the run printed holds the host's kernel command line
    assert Path("/proc/cmdline").read_text().strip() not in result.text()


def test_python_numpy_and_the_engine_work_without_proc(sandbox: Sandbox) -> None:
    code = (
        "import os, subprocess, threading, numpy as np\n"
        "print(os.cpu_count() >= 1, len(os.sched_getaffinity(0)) >= 1)\n"
        "a = np.random.rand(64, 64)\nprint((a @ a).shape)\n"
        "t = threading.Thread(target=print, args=('thread',))\nt.start()\nt.join()\n"
        "print(subprocess.run(['/bin/sh', '-c', 'echo shell'], capture_output=True, text=True)"
        ".stdout.strip())\n"
    )
    result = run_sync(sandbox, code)
    assert result.status == "ok", result.summary
    assert result.text() == "True True\n(64, 64)\nthread\nshell\n"
    assert run_sync(sandbox, NORMAL).text() == NORMAL_OUT


def test_health_says_host_details_are_hidden(sandbox: Sandbox) -> None:
    assert sandbox.health()["limits"]["host_details"].startswith("hidden")
