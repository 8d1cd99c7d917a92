"""What a run can learn about the host: not its kernel command line, its mounts (devices, paths,
a Docker host's overlay directories), its kernel build, its hostname or where the app and Python
live on it; while Python, numpy and the engine still have all they need."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from server.sandbox import Sandbox
from server.sandbox.command import APP_ROOT
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
found["nodename"] = os.uname().nodename
print(json.dumps(found))
"""

# everything a snippet is likely to print about where it runs, and a traceback through the
# engine (its frames name the engine's files)
WHERE = """import os, sys, sysconfig, traceback, site, numpy, engine, torch
seen = [*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.executable, *sys.orig_argv]
seen += [engine.__file__, torch.__file__, numpy.__file__, os.getcwd(), sysconfig.get_paths()]
seen += [*site.getsitepackages(), os.environ, *sys.meta_path, *sys.path_importer_cache]
seen += [getattr(m, "__file__", None) for m in list(sys.modules.values())]
print(*seen, sep="\\n")
try:
    torch.zeros(2) @ torch.zeros(3)
except RuntimeError:
    traceback.print_exc(file=sys.stdout)
torch.ones(2).view(3)
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
    assert found["hostname"] == found["nodename"] == "sandbox" != socket.gethostname()
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


def _host_paths() -> set[str]:
    """Where the app and Python are on this host, unless under /usr (as in the image: nothing
    of this host's own there)."""
    paths = {APP_ROOT, Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent}
    paths |= {p.resolve() for p in paths} | {Path.home()}
    return {str(p) for p in paths if p.parts[1:2] != ("usr",) and p != Path("/")}


def test_paths_a_run_sees_are_not_the_hosts(sandbox: Sandbox) -> None:
    result = run_sync(sandbox, WHERE)
    assert result.status == "error", result.summary
    out = result.text() + result.text("stderr") + json.dumps(result.events)
    assert "/app/engine/__init__.py" in out or str(APP_ROOT).startswith("/usr")
    assert 'File "<snippet>", line 8' in out and "engine/ops/" in out  # both tracebacks
    error = result.errors()[0]
    assert error["line"] == 11 and 'File "<snippet>", line 11' in error["traceback"]
    leaked = {p: out.count(p) for p in _host_paths() if p in out}
    assert leaked == {}, sorted(_host_paths())
