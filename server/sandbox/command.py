"""How a worker is launched: the bubblewrap command line, the weak mode, and the mode probe."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from server.sandbox.settings import SandboxSettings

APP_ROOT = Path(__file__).resolve().parent.parent.parent
# Only the code a worker runs is bound from the app, not the whole checkout: the repository
# (.git), tests, deploy files, a database or an .env someone keeps there stay out of reach.
APP_PARTS = ("engine", "protocol", "server/__init__.py", "server/sandbox")
# Where the app and a Python installed outside /usr appear inside bubblewrap: a snippet sees
# these neutral paths (sys.path, __file__, tracebacks), not the host's checkout or home.
SANDBOX_APP = Path("/app")
SANDBOX_PYTHON = Path("/opt/python")
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


@dataclass(frozen=True)
class Layout:
    """Where the worker's interpreter and code are, and what is bound where (host -> inside)."""

    executable: str  # the interpreter, as the worker is started
    app: str  # the directory holding the app's packages, first on the worker's sys.path
    binds: tuple[tuple[Path, Path], ...] = ()  # read-only, host path -> path inside
    masks: tuple[Path, ...] = ()  # files inside that read as empty (they name host paths)
    env: tuple[tuple[str, str], ...] = ()  # set inside besides ENV


def host_layout() -> Layout:
    """The worker as the host sees it (weak mode: no namespaces, nothing is moved)."""
    return Layout(os.path.abspath(sys.executable), str(APP_ROOT))


@functools.cache
def sandbox_layout() -> Layout:
    """The worker inside bubblewrap: the app at /app and a Python installed outside /usr at
    /opt/python (the venv's packages bound as its site-packages, so the interpreter there is a
    plain install), so nothing a snippet can print names the host's paths. Falls back to the
    host's paths for a Python whose layout this cannot place."""
    usr = Path("/usr")
    binds: list[tuple[Path, Path]] = []
    app = APP_ROOT if _under(APP_ROOT, usr) else SANDBOX_APP  # (the image installs under /usr)
    if app != APP_ROOT:
        binds += [(APP_ROOT / part, app / part) for part in APP_PARTS]
    python = _python_layout()
    if python is None:
        paths = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()]
        paths.append(Path(os.path.realpath(sys.executable)).parent.parent)
        binds += [(p, p) for p in _outermost([p for p in paths if not _under(p, usr)])]
        return Layout(os.path.abspath(sys.executable), str(app), tuple(binds))
    python_binds, masks, executable, env = python
    return Layout(str(executable), str(app), (*binds, *python_binds), masks, env)


def _python_layout() -> (
    tuple[list[tuple[Path, Path]], tuple[Path, ...], Path, tuple[tuple[str, str], ...]] | None
):
    """Binds, masks, executable and environment that place this Python at a neutral path."""
    base = Path(sys.base_prefix).resolve()
    exe = Path(os.path.realpath(sys.executable))
    if not _under(exe, base):
        return None
    root = base if _under(base, Path("/usr")) else SANDBOX_PYTHON
    binds = [] if root == base else [(base, root)]
    env: tuple[tuple[str, str], ...] = ()
    lib = sysconfig.get_config_var("INSTSONAME")
    if root != base and sysconfig.get_config_var("Py_ENABLE_SHARED") and lib:
        if not (base / "lib" / lib).exists():
            return None
        # libpython is found through the build's absolute run path, which is not there inside
        env = (("LD_LIBRARY_PATH", str(root / "lib")),)
    packages = Path(sysconfig.get_path("purelib")).resolve()
    if Path(sysconfig.get_path("platlib")).resolve() != packages:
        return None
    if Path(sys.prefix).resolve() != base:
        # a venv: its packages become the plain install's site-packages (that directory must
        # exist to be mounted over); the venv itself (pyvenv.cfg names the host's Python) stays
        found = [Path(p) for p in site.getsitepackages([str(base)]) if Path(p).is_dir()]
        if not found or not _under(found[0], base):
            return None
        target = root / found[0].relative_to(base)
        binds.append((packages, target))
    elif root == base:
        return [], (), exe, env
    elif _under(packages, base):
        target = root / packages.relative_to(base)
    else:
        return None
    masks = tuple(target / p.relative_to(packages) for p in _naming_host_paths(packages))
    return binds, masks, root / exe.relative_to(base), env


def _naming_host_paths(packages: Path) -> list[Path]:
    """Files of an installed package that name where it was installed from: an editable
    install's finder and .pth, and the direct_url.json of a package installed from a path."""
    found: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(packages):
            if entry.name.startswith("__editable__"):
                found.append(Path(entry.path))
            elif entry.name.endswith(".dist-info"):
                url = Path(entry.path) / "direct_url.json"
                if url.is_file():
                    found.append(url)
    return sorted(found)


def _outermost(paths: list[Path]) -> list[Path]:
    """Drop paths inside another one."""
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
    layout = sandbox_layout()
    made: set[Path] = {Path("/"), Path("/tmp")}
    bound = [Path("/usr")]  # (directories inside a bind exist: a bind over one is a mount)
    for source, inside in layout.binds:
        for parent in reversed(inside.parents):
            if parent not in made and not any(_under(parent, b) for b in bound):
                # privileged bwrap creates missing parents 0700, unreadable once the uid drops
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        argv += ["--ro-bind", str(source), str(inside)]
        bound.append(inside)
    for mask in layout.masks:
        argv += ["--ro-bind", "/dev/null", str(mask)]
    # The root (a tmpfs bwrap made, with the directories above) and /dev (another, /dev/shm
    # in it) become read-only: without a user namespace the slot uid cannot write them anyway,
    # but with one (a non-root server, as in the image) they belong to the run's own uid and
    # have no size limit, so a run could fill the host's memory. Only /tmp can be written.
    argv += ["--remount-ro", "/dev", "--remount-ro", "/", "--clearenv", "--chdir", "/tmp"]
    for key, value in [*ENV.items(), *layout.env]:
        argv += ["--setenv", key, value]
    return argv


def host_details(mode: Mode) -> str:
    """What /healthz says about what a run can see of the host."""
    if mode.name == "bwrap":
        return (
            "hidden: no /proc in the sandbox, its own hostname, only /usr, Python and the app "
            "(at /opt/python and /app unless under /usr); the kernel release (uname) is visible"
        )
    if mode.name == "weak":
        return "visible: weak mode shares the host's filesystem and /proc"
    return "no code runs"


def worker_argv(layout: Layout) -> list[str]:
    """The interpreter (absolute path, isolated mode) and the worker entry point."""
    return [layout.executable, "-I", "-c", BOOT, layout.app]


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
    # the worker's own imports too: numpy and the engine must be found where they are bound
    check = "import sys; sys.path.insert(0, sys.argv[1]); import numpy, engine; sys.exit(7)"
    argv += [sandbox_layout().executable, "-I", "-c", check, sandbox_layout().app]
    if tuple(argv) in _WORKING:
        return None
    try:
        done = subprocess.run(argv, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode != 7:
        err = done.stderr.decode(errors="replace").strip()[-300:]
        return f"exit code {done.returncode}: {err or 'no message'}"
    _WORKING.add(tuple(argv))
    return None


# Probe command lines that worked in this process: that is the host's (its kernel, bubblewrap,
# the bound paths), so a process building several sandboxes (the runner service, the tests)
# checks once; a failure is checked again next time.
_WORKING: set[tuple[str, ...]] = set()
