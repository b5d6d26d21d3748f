"""Run one untrusted command in a bubblewrap sandbox that looks like an OSWorld guest.

What the sandbox guarantees (README "Sandbox" has the user-facing version):
- filesystem: /usr (and the guest Python) read-only; the env's private home at /home/user is the only
  writable host path; /tmp is a private tmpfs; nothing else of the host (no /root, no checkout,
  no other env's home) exists inside.
- namespaces: user, pid, ipc, uts, cgroup and network are all unshared; with no network the only
  interface is a down loopback. `--die-with-parent` and a pid namespace mean the whole process tree
  dies with the sandbox.
- identity: uid 1000 ("user") inside; outside, the invoking user, with no capabilities. Isolation
  therefore rests on what is mounted (nothing secret is) and on the namespaces; running cuagym as an
  unprivileged user adds ordinary file permissions as a second wall.
- environment: cleared; only the variables we set (and the caller's explicit `env`) are visible.
- resources: wall-clock timeout (whole tree killed), memory cap and process cap (cgroup; a lowered
  RLIMIT_AS when no cgroup is writable), file-size cap, no core dumps, capped stdout/stderr.
Limits are only ever lowered: raising an rlimit is forbidden on the machines we run on.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel

from infra import cgroups
from infra.errors import SandboxStartError, SandboxUnavailableError

log = logging.getLogger(__name__)

GUEST_HOME = "/home/user"
GUEST_PYTHON_DIR = "/opt/cuagym/python"
GUEST_UID = 1000  # uid inside, as in an OSWorld Ubuntu guest
HOME_SUBDIRS = ("Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos", "Public", "Templates")
EXIT_TIMEOUT = 124
EXIT_MEMORY = 137
_TAIL_BYTES = 64 * 1024  # kept from the end of a truncated stream: REWARD is the last line


class Isolation(StrEnum):
    BWRAP = "bwrap"
    NONE = "none"  # debugging only: runs on the host, with a loud warning


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 120.0
    memory_mb: int = 2048
    max_procs: int = 256
    max_file_mb: int = 512
    max_output_bytes: int = 1024 * 1024  # per stream
    max_open_files: int = 1024


@dataclass(frozen=True)
class Bind:
    src: Path
    dest: str
    writable: bool = False


class SandboxResult(BaseModel):
    """What happened to one sandboxed command. `exit_code` is 124 on timeout, 137 when killed for memory."""

    exit_code: int
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    killed_for_memory: bool = False
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    peak_memory_mb: float | None = None

    @property
    def truncated(self) -> bool:
        return self.stdout_truncated or self.stderr_truncated

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.killed_for_memory


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
    """Create the guest's standard home folders (an OSWorld Ubuntu guest has them)."""
    home.mkdir(parents=True, exist_ok=True)
    for sub in HOME_SUBDIRS:
        (home / sub).mkdir(exist_ok=True)


def _identity_files(state_dir: Path) -> tuple[Path, Path]:
    """A passwd/group pair naming the guest user, so getpwuid() inside works as in a VM."""
    state_dir.mkdir(parents=True, exist_ok=True)
    passwd, group = state_dir / "passwd", state_dir / "group"
    passwd_text = f"root:x:0:0:root:/root:/bin/sh\nuser:x:{GUEST_UID}:{GUEST_UID}:user:{GUEST_HOME}:/bin/bash\n"
    if not passwd.exists() or passwd.read_text() != passwd_text:
        passwd.write_text(passwd_text)
        group.write_text(f"root:x:0:\nuser:x:{GUEST_UID}:\n")
    return passwd, group


# Never all of /etc: only what programs need and nothing secret (not /etc/ssl/private).
_ETC_SHARED = ("ssl/certs", "ca-certificates", "localtime", "fonts", "alternatives", "mime.types")


@dataclass
class SandboxCommand:
    """The argv that runs `argv` inside bwrap, plus the cgroup that caps it."""

    argv: list[str]
    caps: cgroups.CgroupCaps | None
    rlimit_memory: bool = False


def _bind(src: Path, dest: str, *, writable: bool) -> list[str]:
    return ["--bind" if writable else "--ro-bind", str(Path(src).resolve()), dest]


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
    passwd, group = _identity_files(identity_dir)
    args = [
        bwrap_path(), "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
        "--hostname", "cuagym-guest", "--uid", str(GUEST_UID), "--gid", str(GUEST_UID),
        "--ro-bind", "/usr", "/usr",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/run/user",
    ]  # fmt: skip
    args += _bind(passwd, "/etc/passwd", writable=False)
    args += _bind(group, "/etc/group", writable=False)
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
    path_dirs = ["/usr/local/bin", "/usr/bin", "/bin"]
    if guest_python is not None:
        args += _bind(guest_python, GUEST_PYTHON_DIR, writable=False)
        path_dirs.insert(0, f"{GUEST_PYTHON_DIR}/bin")
    args += _bind(home, GUEST_HOME, writable=True)
    for b in binds:
        args += _bind(b.src, b.dest, writable=b.writable)
    for path in masks:  # hide a subtree of a bound directory behind an empty tmpfs
        args += ["--tmpfs", path]
    # The sandbox root is a scratch tmpfs holding the mount points; make it read-only too, so only
    # /home/user and /tmp are writable (as in a VM whose system disk is protected).
    args += ["--remount-ro", "/"]
    base_env = {
        "HOME": GUEST_HOME, "USER": "user", "LOGNAME": "user", "SHELL": "/bin/bash",
        "PATH": ":".join(path_dirs), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TMPDIR": "/tmp",
        "XDG_RUNTIME_DIR": "/run/user", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
    }  # fmt: skip
    for key, value in {**base_env, **env}.items():
        args += ["--setenv", key, value]
    args += ["--chdir", GUEST_HOME, "--", *argv]

    # Outer wrappers, outermost first: join the cgroup, then lower rlimits, then bwrap.
    caps = cgroups.CgroupCaps.create(limits.memory_mb, limits.max_procs)
    file_bytes = limits.max_file_mb * 1024 * 1024
    rlimits = [f"--fsize={file_bytes}:{file_bytes}", "--core=0:0",
               f"--nofile={limits.max_open_files}:{limits.max_open_files}"]  # fmt: skip
    if caps is None:
        # No cgroup: cap address space instead (coarser: counts mappings, not resident memory).
        as_bytes = limits.memory_mb * 1024 * 1024
        rlimits.append(f"--as={as_bytes}:{as_bytes}")
        rlimits.append(f"--nproc={limits.max_procs}:{limits.max_procs}")
    elif not caps.limits_processes:
        rlimits.append(f"--nproc={limits.max_procs}:{limits.max_procs}")
    wrapped = ["prlimit", *rlimits, "--", *args]
    if caps is not None:
        joins = " && ".join(f"echo $$ > {shlex.quote(str(p))}" for p in caps.procs_files)
        wrapped = ["/bin/sh", "-c", f'{joins} && exec "$@"', "cuagym-sandbox", *wrapped]
    return SandboxCommand(wrapped, caps, rlimit_memory=caps is None)


class _StreamCapture:
    """Keeps the head and the tail of a stream within a byte budget; counts what it dropped."""

    def __init__(self, cap: int) -> None:
        self.tail_cap = min(_TAIL_BYTES, cap // 2)
        self.head_cap = cap - self.tail_cap
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk and self.tail_cap:
            self.tail += chunk
            if len(self.tail) > self.tail_cap:
                del self.tail[: len(self.tail) - self.tail_cap]

    @property
    def truncated(self) -> bool:
        return self.total > len(self.head) + len(self.tail)

    def text(self) -> str:
        if not self.truncated:
            return (bytes(self.head) + bytes(self.tail)).decode("utf-8", errors="replace")
        dropped = self.total - len(self.head) - len(self.tail)
        marker = f"\n[cuagym: {dropped} bytes of output dropped]\n".encode()
        return (bytes(self.head) + marker + bytes(self.tail)).decode("utf-8", errors="replace")


def _pump(proc: subprocess.Popen, limits: Limits, deadline: float) -> tuple[_StreamCapture, _StreamCapture, bool]:
    """Read both pipes until EOF or the deadline; returns (stdout, stderr, timed_out)."""
    out, err = _StreamCapture(limits.max_output_bytes), _StreamCapture(limits.max_output_bytes)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    open_streams = 2
    timed_out = False
    while open_streams:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        for key, _ in sel.select(timeout=min(remaining, 0.5)):
            chunk = os.read(key.fd, 1 << 16)
            if chunk:
                key.data.feed(chunk)
            else:
                sel.unregister(key.fileobj)
                open_streams -= 1
    sel.close()
    return out, err, timed_out


def kill_tree(proc: subprocess.Popen, caps: cgroups.CgroupCaps | None) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    if caps is not None:
        caps.kill_all()


def _feed_stdin(proc: subprocess.Popen, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.write(data)
        proc.stdin.close()


def run_in_sandbox(
    argv: Sequence[str],
    *,
    home: Path,
    limits: Limits | None = None,
    env: Mapping[str, str] | None = None,
    binds: Sequence[Bind] = (),
    network: bool = False,
    guest_python: Path | None = None,
    identity_dir: Path | None = None,
    stdin: bytes | None = None,
    isolation: Isolation = Isolation.BWRAP,
) -> SandboxResult:
    """Run `argv` with `home` mounted at /home/user and return what happened; never raises for what
    the command itself does (crash, timeout, memory), only for a sandbox that could not start.

    Example:
        >>> r = run_in_sandbox(["python3", "-c", "print(1)"], home=Path("/tmp/h"), guest_python=venv)
        >>> r.exit_code, r.stdout
        (0, '1\\n')
    """
    limits = limits or Limits()
    env = dict(env or {})
    if isolation is Isolation.NONE:
        return _run_unisolated(argv, home=home, limits=limits, env=env, stdin=stdin, guest_python=guest_python)
    identity_dir = identity_dir or home.parent / ".sandbox-identity"
    prepare_home(home)
    cmd = build_command(argv, home=home, limits=limits, env=env, binds=binds, network=network,
                        guest_python=guest_python, identity_dir=identity_dir)  # fmt: skip
    try:
        return _execute(cmd, limits, stdin)
    finally:
        if cmd.caps is not None:
            cmd.caps.remove()


def _execute(
    cmd: SandboxCommand, limits: Limits, stdin: bytes | None,
    env: Mapping[str, str] | None = None, cwd: Path | None = None,
) -> SandboxResult:  # fmt: skip
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            cmd.argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, close_fds=True,
            env=env, cwd=cwd,
        )  # fmt: skip
    except OSError as exc:
        raise SandboxStartError(f"could not start the sandbox: {exc}",
                                hint="check that bwrap and prlimit are installed") from exc  # fmt: skip
    if stdin is not None:
        threading.Thread(target=_feed_stdin, args=(proc, stdin), daemon=True).start()
    try:
        out, err, timed_out = _pump(proc, limits, start + limits.timeout_s)
    finally:
        if proc.poll() is None:
            kill_tree(proc, cmd.caps)
    if timed_out:
        kill_tree(proc, cmd.caps)
    returncode = proc.wait()
    duration = time.monotonic() - start
    if not timed_out and returncode in (1, 125) and b"bwrap:" in bytes(err.head[:300]) and out.total == 0:
        # bwrap printed its own setup error: the sandbox never started, which a retry may fix.
        raise SandboxStartError(f"sandbox failed to start: {err.text().strip()[:500]}",
                                hint="is the home directory readable, and are user namespaces enabled?")  # fmt: skip
    oom = cmd.caps.oom_killed() if cmd.caps is not None else _looks_like_rlimit_oom(err)
    exit_code = returncode if returncode >= 0 else 128 - returncode
    if timed_out:
        exit_code = EXIT_TIMEOUT
    elif oom:
        exit_code = EXIT_MEMORY
    return SandboxResult(
        exit_code=exit_code, stdout=out.text(), stderr=err.text(), duration_s=round(duration, 4),
        timed_out=timed_out, killed_for_memory=oom and not timed_out,
        stdout_truncated=out.truncated, stderr_truncated=err.truncated,
        peak_memory_mb=cmd.caps.peak_memory_mb() if cmd.caps is not None else None,
    )  # fmt: skip


def _looks_like_rlimit_oom(err: _StreamCapture) -> bool:
    # Under RLIMIT_AS the kernel refuses the allocation instead of killing; Python reports it.
    tail = (bytes(err.head[-2000:]) + bytes(err.tail[-2000:])).decode("utf-8", errors="replace")
    return "MemoryError" in tail or "Cannot allocate memory" in tail


def _run_unisolated(argv, *, home, limits, env, stdin, guest_python) -> SandboxResult:
    log.warning("running WITHOUT isolation (--isolation none): the script can read and write your files")
    home.mkdir(parents=True, exist_ok=True)
    path = "/usr/local/bin:/usr/bin:/bin"
    if guest_python is not None:
        path = f"{guest_python}/bin:{path}"
    full_env = {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", **env}
    cmd = SandboxCommand(["prlimit", f"--as={limits.memory_mb * 1024 * 1024}", "--", *argv], None, True)
    return _execute(cmd, limits, stdin, env=full_env, cwd=home)

