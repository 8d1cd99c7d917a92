"""The seccomp deny list the worker installs on itself before it runs pasted code."""

from __future__ import annotations

import contextlib
import errno
import socket
from typing import Any

# Syscalls that pasted autograd code never needs and that widen the attack surface.
DENIED = [
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "unshare",
    "setns",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "reboot",
    "swapon",
    "swapoff",
    "syslog",
    "acct",
    "quotactl",
    "open_by_handle_at",
    "name_to_handle_at",
    "lookup_dcookie",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "personality",
    "uselib",
    "vhangup",
    "fanotify_init",
    "mbind",
    "migrate_pages",
    "move_pages",
    "set_mempolicy",
    # a POSIX timer's signal could wake a run the server sees waiting for a command (a pause);
    # Python and numpy never make one (alarm/setitimer only send SIGALRM, which the pause check
    # looks for)
    "timer_create",
    # memory in a memfd that is not mapped is in no process's size: the /proc meter (a run's
    # memory where the server may not make cgroups) would not see it; nothing here needs one
    "memfd_create",
]
# socket options at SOL_SOCKET a run may not set: a receive timeout on the control channel
# would wake a thread the server sees waiting for a command (SO_RCVTIMEO_OLD, SO_RCVTIMEO_NEW)
_SOL_SOCKET = 1
_RCVTIMEO = (20, 66)
# clone's flags are in a register, so namespace flags can be refused there; clone3 passes a
# pointer that seccomp cannot read, so it reports ENOSYS and glibc falls back to clone.
_CLONE_NEW = (0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000)


def install() -> None:
    """Load the filter into this process (and so every child it makes); irreversible."""
    build().load()


def build() -> Any:
    """The filter, ready to `.load()` (built early: loading libseccomp reads files)."""
    sc = _import_pyseccomp()
    flt: Any = sc.SyscallFilter(defaction=sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    for name in DENIED:
        _rule(flt, deny, name)
    # Only local (AF_UNIX) sockets: no network, no netlink, no raw packets.
    _rule(flt, sc.ERRNO(errno.EACCES), "socket", sc.Arg(0, sc.NE, socket.AF_UNIX))
    _rule(flt, sc.ERRNO(errno.EACCES), "socketpair", sc.Arg(0, sc.NE, socket.AF_UNIX))
    for option in _RCVTIMEO:
        _rule(flt, deny, "setsockopt", sc.Arg(1, sc.EQ, _SOL_SOCKET), sc.Arg(2, sc.EQ, option))
    for flag in _CLONE_NEW:  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
        _rule(flt, deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    _rule(flt, sc.ERRNO(errno.ENOSYS), "clone3")
    return flt


def _import_pyseccomp() -> Any:
    """pyseccomp finds its libraries with find_library, which forks `ldconfig -p`; the sonames
    are fixed on Linux, so skip that (the sandbox has no /sbin and should not fork for it)."""
    import ctypes.util

    original = ctypes.util.find_library
    sonames = {"seccomp": "libseccomp.so.2", "c": "libc.so.6"}
    ctypes.util.find_library = lambda name: sonames.get(name) or original(name)
    try:
        import pyseccomp
    finally:
        ctypes.util.find_library = original
    return pyseccomp


def _rule(flt: Any, action: Any, name: str, *args: Any) -> None:
    # a syscall this kernel/arch does not have cannot be called either
    with contextlib.suppress(RuntimeError, ValueError, OSError):
        flt.add_rule(action, name, *args)
