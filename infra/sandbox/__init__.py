"""Run untrusted commands in a bubblewrap sandbox that looks like an OSWorld guest.

What the sandbox guarantees (docs/sandbox.md has the user-facing version):
- filesystem: /usr (and the guest Python) read-only; the env's private home at /home/user is the only
  writable host path; /tmp is a private, size-capped tmpfs; nothing else of the host (no /root, no
  checkout, no other env's home, no /sys) exists inside. /proc is the sandbox's own and read-only,
  so kernel settings (/proc/sys, /proc/sysrq-trigger) cannot be written even when cuagym runs as
  root and the uid inside maps to host root.
- namespaces: user, pid, ipc, uts, cgroup and network are all unshared, and nested user namespaces
  are disabled; with no network the only interface is a down loopback. `--die-with-parent` and a
  pid namespace mean the whole process tree dies with the sandbox.
- what the inside can learn of the outside: bwrap itself is pid 1 inside, so its environment and
  command line are readable there; it is started with a minimal environment and its arguments come
  from a memfd, so neither shows host secrets or host paths (bind sources still appear in
  /proc/self/mountinfo, which is why env and script folders have neutral, random names).
- syscalls: a seccomp filter (seccomp.py) refuses setting setuid/setgid bits (files a script makes
  are host root's when cuagym runs as root), io_uring, ptrace and a list of kernel surfaces no guest
  script needs; after each run the home is stripped of such bits and of device nodes (tree.py).
- environment: cleared; only the variables we set (and the caller's explicit `env`) are visible.
- resources: wall-clock timeout (whole tree killed), memory cap and process cap (cgroup; a lowered
  RLIMIT_AS when no cgroup is writable), file-size cap, a total size and file-count cap on the home
  (polled; see quota.py), no core dumps, capped stdout/stderr.
Limits are only ever lowered: raising an rlimit is forbidden on the machines we run on.
"""

from infra.sandbox.command import (
    GUEST_HOME,
    GUEST_PYTHON_DIR,
    GUEST_UID,
    HOME_SUBDIRS,
    Bind,
    Isolation,
    SandboxCommand,
    build_command,
    bwrap_path,
    prepare_home,
)
from infra.sandbox.limits import EXIT_DISK, EXIT_MEMORY, EXIT_TIMEOUT, Limits
from infra.sandbox.run import SandboxResult, kill_tree, run_in_sandbox

__all__ = [
    "EXIT_DISK",
    "EXIT_MEMORY",
    "EXIT_TIMEOUT",
    "GUEST_HOME",
    "GUEST_PYTHON_DIR",
    "GUEST_UID",
    "HOME_SUBDIRS",
    "Bind",
    "Isolation",
    "Limits",
    "SandboxCommand",
    "SandboxResult",
    "build_command",
    "bwrap_path",
    "kill_tree",
    "prepare_home",
    "run_in_sandbox",
]
