"""How a worker is launched: the bubblewrap command line, the weak mode, and the mode probe."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from server.sandbox.settings import SandboxSettings

APP_ROOT = Path(__file__).resolve().parent.parent.parent
# Only the code a worker runs is bound from the app, not the whole checkout: the repository
# (.git), tests, deploy files, a database or an .env someone keeps there stay out of reach.
APP_BINDS = (
    APP_ROOT / "engine",
    APP_ROOT / "protocol",
    APP_ROOT / "server" / "__init__.py",
    APP_ROOT / "server" / "sandbox",
)
# BLAS threads would multiply the process count and fight over the 2 cores
ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYTHONHASHSEED": "0",
}
BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from server.sandbox.worker import main; main()"


@dataclass(frozen=True)
class Mode:
    """Which isolation runs code: 'bwrap', 'weak', or 'refuse' (with the reason)."""

    name: str
    reason: str
    # root can hand each slot its own uid; a non-root server cannot
    separate_uid: bool


def python_paths() -> list[Path]:
    """Directories the interpreter needs: the venv, the base install, the real executable's."""
    exe = Path(os.path.realpath(sys.executable))
    found = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), exe.parent.parent}
    return sorted(p for p in found if not _under(p, Path("/usr")))


def _outermost(paths: list[Path]) -> list[Path]:
    """Drop paths inside another one (a venv inside the app is bound with the app)."""
    out: list[Path] = []
    for path in sorted(set(paths)):
        if not any(_under(path, kept) for kept in out):
            out.append(path)
    return out


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def bwrap_argv(settings: SandboxSettings, bwrap: str, privileged: bool) -> list[str]:
    """The bubblewrap prefix: nothing of the host but /usr, Python and the app, all read-only."""
    argv = [bwrap, "--die-with-parent", "--new-session"]
    if privileged:
        # As root, bwrap makes the namespaces itself; no user namespace so that the worker can
        # still switch to its slot's uid, which the kernel counts for RLIMIT_NPROC.
        argv += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        argv += ["--unshare-cgroup-try", "--cap-drop", "ALL"]
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-all", "--cap-drop", "ALL"]
    argv += ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib"]
    argv += ["--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin"]
    # No procfs: /proc/cmdline, /proc/version and the mount table (host devices, paths and a
    # Docker host's overlay directories) are the host's and cannot be masked file by file
    # (every pid has its own mountinfo). Python, numpy and the engine do not need it; /proc is
    # an empty read-only directory. The hostname is the sandbox's own.
    argv += ["--perms", "0555", "--dir", "/proc", "--dev", "/dev", "--hostname", "sandbox"]
    # the loader's cache of library paths (libseccomp lives in a multiarch directory)
    argv += ["--perms", "0755", "--dir", "/etc"]
    argv += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    argv += ["--perms", "1777", "--size", str(settings.tmp_size_bytes), "--tmpfs", "/tmp"]
    usr = Path("/usr")
    made: set[Path] = {Path("/"), usr, Path("/tmp")}
    # (an app installed under /usr, as in the image, is visible through /usr already)
    for path in _outermost([*python_paths(), *(p for p in APP_BINDS if not _under(p, usr))]):
        for parent in reversed(path.parents):
            if parent not in made:
                # privileged bwrap creates missing parents 0700, unreadable once the uid drops
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        argv += ["--ro-bind", str(path), str(path)]
        made.add(path)
    # The root (a tmpfs bwrap made, with the directories above) and /dev (another, /dev/shm
    # in it) become read-only: without a user namespace the slot uid cannot write them anyway,
    # but with one (a non-root server, as in the image) they belong to the run's own uid and
    # have no size limit, so a run could fill the host's memory. Only /tmp can be written.
    argv += ["--remount-ro", "/dev", "--remount-ro", "/", "--clearenv", "--chdir", "/tmp"]
    for key, value in ENV.items():
        argv += ["--setenv", key, value]
    return argv


def host_details(mode: Mode) -> str:
    """What /healthz says about what a run can see of the host."""
    if mode.name == "bwrap":
        return "hidden: no /proc in the sandbox, its own hostname, only /usr, Python and the app"
    if mode.name == "weak":
        return "visible: weak mode shares the host's filesystem and /proc"
    return "no code runs"


def worker_argv() -> list[str]:
    """The interpreter (absolute path, isolated mode) and the worker entry point."""
    return [os.path.abspath(sys.executable), "-I", "-c", BOOT, str(APP_ROOT)]


def worker_boot(settings: SandboxSettings, fd: int, uid: int | None) -> bytes:
    """The worker's first line on stdin, sent at spawn: its socket, its limits, its uid."""
    limits = ("cpu_seconds", "memory_bytes", "file_size_bytes", "open_files", "processes")
    boot = {
        "fd": fd,
        "uid": uid,
        "gid": uid,
        "max_frame_bytes": settings.max_frame_bytes,
        "limits": {name: getattr(settings, name) for name in limits},
    }
    return orjson.dumps(boot) + b"\n"


def worker_job(settings: SandboxSettings, code: str, options: dict[str, Any]) -> bytes:
    """The rest of the worker's stdin, sent when its run starts: the code and tracer options."""
    job = {
        "code": code,
        "options": {
            **options,
            "max_events": min(options.get("max_events", 1 << 62), settings.max_events),
            "max_tensor_elements": settings.max_tensor_elements,
            # the server's, whatever the client's options say
            "values_per_tensor": settings.values_per_tensor,
            "values_budget": settings.values_budget,
            "values_request_cap": settings.values_request_cap,
            "values_answer_budget": settings.values_answer_budget,
        },
    }
    return orjson.dumps(job)


def detect_mode(settings: SandboxSettings) -> Mode:
    """Pick the isolation from the setting, after checking that bubblewrap really works."""
    root = os.geteuid() == 0
    if settings.sandbox_mode == "weak":
        if not root:
            return Mode("refuse", "weak mode needs root to give each run its own uid", False)
        return Mode("weak", "weak mode (rlimits + seccomp + separate uid) set explicitly", True)
    problem = probe_bwrap(settings, root)
    if problem is None:
        return Mode("bwrap", "bubblewrap works", root)
    hint = " (set BACKSCOPE_SANDBOX_MODE=weak to run code with rlimits + seccomp only)"
    return Mode("refuse", f"bubblewrap unusable: {problem}{hint}", False)


def probe_bwrap(settings: SandboxSettings, privileged: bool) -> str | None:
    """None when a sandboxed interpreter starts and exits cleanly, else what went wrong."""
    bwrap = shutil.which(settings.bwrap_path)
    if bwrap is None:
        return f"{settings.bwrap_path!r} not found on PATH"
    argv = bwrap_argv(settings, bwrap, privileged)
    argv += [os.path.abspath(sys.executable), "-I", "-c", "import sys; sys.exit(7)"]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode != 7:
        err = done.stderr.decode(errors="replace").strip()[-300:]
        return f"exit code {done.returncode}: {err or 'no message'}"
    return None
