"""Writes deploy/seccomp-bwrap.json: the container's seccomp profile (and its copy
deploy/k8s/seccomp-bwrap.json, which kustomize puts on Kubernetes nodes).

Docker's default profile refuses the namespace calls bubblewrap needs (clone with
CLONE_NEWUSER, unshare, mount, pivot_root). This profile allows everything except a deny list
of calls a code-running service never needs; inside, each worker gets bwrap's namespaces plus
the sandbox's own, stricter seccomp filter (server/sandbox/seccomp_filter.py).
"""

from __future__ import annotations

import json
from pathlib import Path

DENY = """
    acct add_key bpf clock_adjtime clock_settime create_module delete_module fanotify_init
    finit_module get_kernel_syms get_mempolicy init_module ioperm iopl kcmp kexec_file_load
    kexec_load keyctl lookup_dcookie mbind move_pages nfsservctl open_by_handle_at
    perf_event_open process_vm_readv process_vm_writev ptrace query_module quotactl reboot
    request_key set_mempolicy settimeofday stime swapoff swapon sysfs syslog _sysctl uselib
    userfaultfd ustat vm86 vm86old
""".split()  # noqa: SIM905 - a word list reads better than 44 quoted lines


def profile() -> dict[str, object]:
    return {
        "defaultAction": "SCMP_ACT_ALLOW",
        "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_AARCH64"],
        "syscalls": [{"names": sorted(DENY), "action": "SCMP_ACT_ERRNO", "errnoRet": 1}],
    }


def text() -> str:
    """The profile as written to its files."""
    return json.dumps(profile(), indent=2) + "\n"


if __name__ == "__main__":
    here = Path(__file__).parent
    for out in (here / "seccomp-bwrap.json", here / "k8s" / "seccomp-bwrap.json"):
        out.write_text(text())
        print(f"wrote {out}")
