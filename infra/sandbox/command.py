"""The bwrap command line for one sandboxed run, and how it is started without leaking the host.

bwrap is pid 1 inside its pid namespace, so whatever bwrap itself holds is readable by the script
through /proc/1: its environment (we start it with a minimal one, never the caller's) and its
command line (the options, with every bind source path and --setenv value, travel through a memfd
given with `--args FD`; only the guest command stays on the visible command line).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from infra.errors import SandboxStartError, SandboxUnavailableError
from infra.sandbox import cgroups, seccomp
from infra.sandbox.limits import Limits

GUEST_HOME = "/home/user"
GUEST_PYTHON_DIR = "/opt/cuagym/python"
GUEST_UID = 1000  # uid inside, as in an OSWorld Ubuntu guest
HOME_SUBDIRS = ("Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos", "Public", "Templates")
# What bwrap (and the cgroup/rlimit wrappers before it) run with on the host side.
HOST_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
# Never all of /etc: only what programs need and nothing secret (not /etc/ssl/private).
_ETC_SHARED = ("ssl/certs", "ca-certificates", "localtime", "fonts", "alternatives", "mime.types")


class Isolation(StrEnum):
    BWRAP = "bwrap"
    NONE = "none"  # debugging only: runs on the host, with a loud warning


@dataclass(frozen=True)
class Bind:
    src: Path
    dest: str
    writable: bool = False


def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailableError(
            "bubblewrap (bwrap) is not installed, so untrusted scripts cannot be isolated",
            hint="install it with `apt-get install bubblewrap` (or run `make setup`); "
            "`--isolation none` runs without isolation for debugging only",
        )
    return path


def prepare_home(home: Path) -> None:
    """Create the guest's standard home folders (an OSWorld Ubuntu guest has them). The home is
    0700: what a hostile script leaves there is host root's, and no other host user may reach it."""
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    home.chmod(0o700)
    for sub in HOME_SUBDIRS:
        (home / sub).mkdir(exist_ok=True)


def _identity_files(state_dir: Path) -> tuple[Path, Path]:
    """A passwd/group pair naming the guest user, so getpwuid() inside works as in a VM."""
    state_dir.mkdir(parents=True, exist_ok=True)
    passwd, group = state_dir / "passwd", state_dir / "group"
    passwd_text = (
        f"root:x:0:0:root:/root:/bin/sh\nuser:x:{GUEST_UID}:{GUEST_UID}:user:{GUEST_HOME}:/bin/bash\n"
    )
    if not passwd.exists() or passwd.read_text() != passwd_text:
        passwd.write_text(passwd_text)
        group.write_text(f"root:x:0:\nuser:x:{GUEST_UID}:\n")
    return passwd, group


@dataclass
class SandboxCommand:
    """How to start one sandbox: host-side wrappers, bwrap's options (kept off its command line),
    the guest command, and the cgroup that caps it."""

    wrappers: list[str]
    options: list[str]
    command: list[str]
    caps: cgroups.CgroupCaps | None
    rlimit_memory: bool = False
    seccomp: bytes | None = None  # a compiled filter (infra/sandbox/seccomp.py), installed by bwrap

    def spawn(self, **popen: object) -> subprocess.Popen:
        """Start the sandbox (a new session, a minimal host environment, options and the seccomp
        filter through memfds)."""
        fds: list[int] = []
        try:
            options = list(self.options)
            if self.seccomp is not None:
                fds.append(_memfd("bwrap-seccomp", self.seccomp))
                options += ["--seccomp", str(fds[-1])]
            fds.append(_memfd("bwrap-args", b"".join(arg.encode() + b"\0" for arg in options)))
            argv = [*self.wrappers, bwrap_path(), "--args", str(fds[-1]), "--", *self.command]
            try:
                return subprocess.Popen(
                    argv, env=HOST_ENV, start_new_session=True, close_fds=True, pass_fds=tuple(fds), **popen
                )
            except OSError as exc:
                raise SandboxStartError(
                    f"could not start the sandbox: {exc}", hint="check that bwrap and prlimit are installed"
                ) from exc
        finally:
            for fd in fds:
                os.close(fd)


def _memfd(name: str, data: bytes) -> int:
    """An inheritable memfd holding `data`, positioned at its start (bwrap reads it from there)."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        os.set_inheritable(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _bind(src: Path, dest: str, *, writable: bool) -> list[str]:
    return ["--bind" if writable else "--ro-bind", str(Path(src).resolve()), dest]


def _system_mounts(network: bool) -> list[str]:
    args = [
        "--ro-bind",
        "/usr",
        "/usr",
        # The sandbox's own procfs, read-only: with uid 1000 inside mapped to host root, a
        # writable /proc/sys would let a script set host kernel settings (core_pattern).
        "--proc",
        "/proc",
        "--remount-ro",
        "/proc",
        "--dev",
        "/dev",
        "--dir",
        "/run/user",
    ]
    if network:
        args.append("--share-net")
        if Path("/etc/resolv.conf").exists():
            args += ["--ro-bind", "/etc/resolv.conf", "/etc/resolv.conf"]
        args += ["--ro-bind", "/etc/hosts", "/etc/hosts"]
    for name in ("lib", "lib64", "bin", "sbin"):
        target = Path("/") / name
        if target.is_symlink():  # merged-/usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(target), f"/{name}"]
        elif target.is_dir():
            args += ["--ro-bind", str(target), f"/{name}"]
    for name in _ETC_SHARED:
        if (Path("/etc") / name).exists():
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    return args


def _guest_env(path_dirs: list[str], env: Mapping[str, str]) -> list[str]:
    base = {
        "HOME": GUEST_HOME,
        "USER": "user",
        "LOGNAME": "user",
        "SHELL": "/bin/bash",
        "PATH": ":".join(path_dirs),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": "/tmp",
        "XDG_RUNTIME_DIR": "/run/user",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    args: list[str] = []
    for key, value in {**base, **env}.items():
        args += ["--setenv", key, value]
    return args


def _wrappers(limits: Limits) -> tuple[list[str], cgroups.CgroupCaps | None]:
    """Outer wrappers, outermost first: join the cgroup, then lower rlimits (bwrap comes after)."""
    caps = cgroups.CgroupCaps.create(limits.memory_mb, limits.max_procs)
    file_bytes = limits.max_file_mb * 1024 * 1024
    rlimits = [
        f"--fsize={file_bytes}:{file_bytes}",
        "--core=0:0",
        f"--nofile={limits.max_open_files}:{limits.max_open_files}",
    ]
    if caps is None:
        # No cgroup: cap address space instead (coarser: counts mappings, not resident memory).
        as_bytes = limits.memory_mb * 1024 * 1024
        rlimits.append(f"--as={as_bytes}:{as_bytes}")
        rlimits.append(f"--nproc={limits.max_procs}:{limits.max_procs}")
    elif not caps.limits_processes:
        rlimits.append(f"--nproc={limits.max_procs}:{limits.max_procs}")
    wrappers = ["prlimit", *rlimits, "--"]
    if caps is not None:
        joins = " && ".join(f"echo $$ > {shlex.quote(str(p))}" for p in caps.procs_files)
        wrappers = ["/bin/sh", "-c", f'{joins} && exec "$@"', "cuagym-sandbox", *wrappers]
    return wrappers, caps


def build_command(
    argv: Sequence[str],
    *,
    home: Path,
    limits: Limits,
    env: Mapping[str, str],
    binds: Sequence[Bind],
    network: bool,
    guest_python: Path | None,
    identity_dir: Path,
    masks: Sequence[str] = (),
) -> SandboxCommand:
    bwrap_path()  # fail early, with the install hint
    passwd, group = _identity_files(identity_dir)
    options = [
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--hostname",
        "cuagym-guest",
        "--uid",
        str(GUEST_UID),
        "--gid",
        str(GUEST_UID),
        *_system_mounts(network),
        "--size",
        str(limits.max_tmp_mb * 1024 * 1024),
        "--tmpfs",
        "/tmp",
    ]
    options += _bind(passwd, "/etc/passwd", writable=False) + _bind(group, "/etc/group", writable=False)
    path_dirs = ["/usr/local/bin", "/usr/bin", "/bin"]
    if guest_python is not None:
        options += _bind(guest_python, GUEST_PYTHON_DIR, writable=False)
        path_dirs.insert(0, f"{GUEST_PYTHON_DIR}/bin")
    options += _bind(home, GUEST_HOME, writable=True)
    for b in binds:
        options += _bind(b.src, b.dest, writable=b.writable)
    for path in masks:  # hide a subtree of a bound directory behind an empty tmpfs
        options += ["--tmpfs", path]
    # The sandbox root is a scratch tmpfs holding the mount points; make it read-only too, so only
    # /home/user and /tmp are writable (as in a VM whose system disk is protected).
    options += ["--remount-ro", "/"]
    options += _guest_env(path_dirs, env) + ["--chdir", GUEST_HOME]
    wrappers, caps = _wrappers(limits)
    return SandboxCommand(
        wrappers, options, list(argv), caps, rlimit_memory=caps is None, seccomp=seccomp.native_filter()
    )
