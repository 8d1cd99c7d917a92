"""Ending a run for good: every process of the slot's uid, and (weak mode) its stray files."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

# Places an unsandboxed (weak mode) run can write to; bubblewrap gives each run a fresh tmpfs.
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")


def pids_of_uid(uid: int, zombies: bool = False) -> list[int]:
    """Live processes whose real uid is `uid`, from /proc (`zombies`: those not yet reaped
    too, which still count toward the uid's RLIMIT_NPROC)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(entry.path, "status").read_text()
        except OSError:
            continue  # exited meanwhile
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        # a zombie holds nothing but its pid; init reaps it (it still counts toward NPROC)
        alive = zombies or not fields.get("State", "").strip().startswith(("Z", "X"))
        if alive and int(fields.get("Uid", "-1").split()[0]) == uid:
            found.append(int(entry.name))
    return found


async def wait_reaped(uid: int, within_s: float) -> bool:
    """Wait until no process of `uid` is left in the process table, zombies included: a killed
    fork loop's orphans are reaped by init in its own time, and until then they count toward
    the uid's RLIMIT_NPROC (the slot's next run could not start a thread). False if some are
    still there after `within_s`."""
    end = asyncio.get_running_loop().time() + within_s
    while pids_of_uid(uid, zombies=True):
        if asyncio.get_running_loop().time() > end:
            return False
        await asyncio.sleep(0.05)
    return True


async def kill_uid(uid: int, gid: int) -> None:
    """SIGKILL every process of `uid`: kill(-1) sent *as* that uid reaches exactly its processes
    in one sweep the kernel makes, so a fork loop cannot outrun it. (A helper process, since
    uvloop's subprocess_exec has no user=/group=.)"""
    for _ in range(5):
        if not pids_of_uid(uid):
            return
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-S", "-c", _KILLER, str(uid), str(gid),
            env={}, cwd="/", stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        await proc.wait()
        await asyncio.sleep(0.01)


_KILLER = """import os, sys
uid, gid = int(sys.argv[1]), int(sys.argv[2])
os.setgroups([])
os.setresgid(gid, gid, gid)
os.setresuid(uid, uid, uid)
try:
    os.kill(-1, 9)
except ProcessLookupError:
    pass
"""


def remove_files_of(uid: int, dirs: tuple[str, ...] = SHARED_TMP) -> None:
    """Delete top-level entries of `dirs` owned by `uid` (what a weak-mode run left behind)."""
    for d in dirs:
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass
