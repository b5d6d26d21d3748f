"""One sandboxed command, start to finish: `run_in_sandbox` and what it reports."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel

from infra.errors import SandboxStartError
from infra.sandbox import cgroups
from infra.sandbox.command import Bind, Isolation, SandboxCommand, build_command, prepare_home
from infra.sandbox.limits import EXIT_DISK, EXIT_MEMORY, EXIT_TIMEOUT, Limits
from infra.sandbox.output import StreamCapture, pump
from infra.sandbox.quota import HomeQuota, QuotaWatch
from infra.sandbox.tree import strip_privileges

log = logging.getLogger(__name__)


class SandboxResult(BaseModel):
    """What happened to one sandboxed command. `exit_code` is 124 on timeout, 137 when killed for
    memory, 153 when the home went over its size cap."""

    exit_code: int
    stdout: str
    stderr: str
    duration_s: float
    timed_out: bool = False
    killed_for_memory: bool = False
    killed_for_disk: bool = False
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    peak_memory_mb: float | None = None

    @property
    def truncated(self) -> bool:
        return self.stdout_truncated or self.stderr_truncated

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not (self.timed_out or self.killed_for_memory or self.killed_for_disk)


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
    the command itself does (crash, timeout, memory, disk), only for a sandbox that could not start.

    Example:
        >>> r = run_in_sandbox(["python3", "-c", "print(1)"], home=Path("/tmp/h"), guest_python=venv)
        >>> r.exit_code, r.stdout
        (0, '1\\n')
    """
    limits = limits or Limits()
    env = dict(env or {})
    prepare_home(home)
    quota = HomeQuota(home, limits.max_home_mb * 1024 * 1024, limits.max_home_files)
    try:
        if isolation is Isolation.NONE:
            return _run_unisolated(
                argv, home=home, limits=limits, env=env, stdin=stdin, guest_python=guest_python, quota=quota
            )
        with contextlib.ExitStack() as cleanup:
            if identity_dir is None:  # a private folder, never one beside a home the caller named
                identity_dir = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="cuagym-id-")))
            cmd = build_command(
                argv,
                home=home,
                limits=limits,
                env=env,
                binds=binds,
                network=network,
                guest_python=guest_python,
                identity_dir=identity_dir,
            )
            if cmd.caps is not None:
                cleanup.callback(cmd.caps.remove)
            return _execute(cmd, limits, stdin, quota, lambda: cmd.spawn(**_pipes(stdin)))
    finally:
        # Nothing of the run is alive any more: what it left must not be a setuid file on the host.
        strip_privileges(home)


def _pipes(stdin: bytes | None) -> dict:
    return {
        "stdin": subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
    }


def _execute(
    cmd: SandboxCommand, limits: Limits, stdin: bytes | None, quota: HomeQuota, start
) -> SandboxResult:
    started = time.monotonic()
    proc = start()
    if stdin is not None:
        threading.Thread(target=_feed_stdin, args=(proc, stdin), daemon=True).start()
    over_quota = threading.Event()

    def stop_for_disk(reason: str) -> None:
        over_quota.set()
        kill_tree(proc, cmd.caps)

    with QuotaWatch(quota, stop_for_disk) as watch:
        try:
            out, err, timed_out = pump(proc, limits.max_output_bytes, started + limits.timeout_s)
        finally:
            if proc.poll() is None:
                kill_tree(proc, cmd.caps)
        if timed_out:
            kill_tree(proc, cmd.caps)
        returncode = proc.wait()
    duration = time.monotonic() - started
    if not timed_out and returncode in (1, 125) and b"bwrap:" in bytes(err.head[:300]) and out.total == 0:
        # bwrap printed its own setup error: the sandbox never started, which a retry may fix.
        raise SandboxStartError(
            f"sandbox failed to start: {err.text().strip()[:500]}",
            hint="is the home directory readable, and are user namespaces enabled?",
        )
    return _result(cmd, returncode, out, err, duration, timed_out, watch.reason)


def _result(
    cmd: SandboxCommand,
    returncode: int,
    out: StreamCapture,
    err: StreamCapture,
    duration: float,
    timed_out: bool,
    disk_reason: str | None,
) -> SandboxResult:
    oom = cmd.caps.oom_killed() if cmd.caps is not None else _looks_like_rlimit_oom(err)
    exit_code = returncode if returncode >= 0 else 128 - returncode
    stderr = err.text()
    if timed_out:
        exit_code = EXIT_TIMEOUT
    elif disk_reason is not None:
        exit_code = EXIT_DISK
        stderr += f"\n[cuagym: {disk_reason}]\n"
    elif oom:
        exit_code = EXIT_MEMORY
    return SandboxResult(
        exit_code=exit_code,
        stdout=out.text(),
        stderr=stderr,
        duration_s=round(duration, 4),
        timed_out=timed_out,
        killed_for_memory=oom and not timed_out and disk_reason is None,
        killed_for_disk=disk_reason is not None and not timed_out,
        stdout_truncated=out.truncated,
        stderr_truncated=err.truncated,
        peak_memory_mb=cmd.caps.peak_memory_mb() if cmd.caps is not None else None,
    )


def _looks_like_rlimit_oom(err: StreamCapture) -> bool:
    # Under RLIMIT_AS the kernel refuses the allocation instead of killing; Python reports it.
    tail = err.edges()
    return "MemoryError" in tail or "Cannot allocate memory" in tail


def _run_unisolated(argv, *, home, limits, env, stdin, guest_python, quota) -> SandboxResult:
    log.warning("running WITHOUT isolation (--isolation none): the script can read and write your files")
    path = "/usr/local/bin:/usr/bin:/bin"
    if guest_python is not None:
        path = f"{guest_python}/bin:{path}"
    full_env = {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", **env}
    cmd = SandboxCommand(
        ["prlimit", f"--as={limits.memory_mb * 1024 * 1024}", "--"], [], list(argv), None, True
    )

    def start() -> subprocess.Popen:
        try:
            return subprocess.Popen(
                [*cmd.wrappers, *cmd.command],
                env=full_env,
                cwd=home,
                start_new_session=True,
                close_fds=True,
                **_pipes(stdin),
            )
        except OSError as exc:
            raise SandboxStartError(
                f"could not start {argv[0]}: {exc}", hint="is prlimit installed?"
            ) from exc

    return _execute(cmd, limits, stdin, quota, start)
