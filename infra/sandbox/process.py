"""A long-lived process behind the same walls as the one-shot runs of infra/sandbox/run.py."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from infra.sandbox.command import Bind, build_command, prepare_home
from infra.sandbox.limits import Limits
from infra.sandbox.quota import HomeQuota, QuotaWatch
from infra.sandbox.run import kill_tree
from infra.sandbox.tree import strip_privileges


class SandboxProcess:
    """A long-lived sandboxed process spoken to over stdin/stdout, one JSON line per message.

    Used for agent workers that must run behind the same walls as generated scripts (the
    Discriminator). stderr goes to a host-side log file so it can never fill a pipe and stall.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        home: Path,
        log_path: Path,
        limits: Limits | None = None,
        env: Mapping[str, str] | None = None,
        binds: Sequence[Bind] = (),
        masks: Sequence[str] = (),
        network: bool = False,
    ) -> None:
        prepare_home(home)
        self.home = home
        self.limits = limits or Limits(timeout_s=3600, memory_mb=4096)
        self.cmd = build_command(
            argv,
            home=home,
            limits=self.limits,
            env=dict(env or {}),
            binds=binds,
            network=network,
            guest_python=None,
            identity_dir=home.parent / ".identity",
            masks=masks,
        )
        self.log_path = log_path
        self._log = open(log_path, "ab")  # noqa: SIM115 - lives as long as the process
        try:
            self.proc = self.cmd.spawn(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        except BaseException:
            self.close()
            raise
        self._buffer = b""
        # The home's size cap holds for as long as the process lives (see infra/sandbox/quota.py).
        quota = HomeQuota(home, self.limits.max_home_mb * 1024 * 1024, self.limits.max_home_files)
        # Long-lived homes (a desktop's LibreOffice profile) are larger: poll them less often.
        self.quota = QuotaWatch(quota, self._over_quota, interval_s=0.5).__enter__()

    def _over_quota(self, reason: str) -> None:
        with contextlib.suppress(OSError):
            self._log.write(f"\n[cuagym: killed: {reason}]\n".encode())
            self._log.flush()
        kill_tree(self.proc, self.cmd.caps)

    def request(self, line: bytes, *, timeout_s: float) -> bytes:
        """Send one line, return the reply line. Raises TimeoutError or EOFError (worker died)."""
        if self.proc.poll() is not None:
            raise EOFError(f"worker exited with {self.proc.returncode}")
        try:
            self.proc.stdin.write(line.rstrip(b"\n") + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EOFError("worker closed its input") from None
        deadline = time.monotonic() + timeout_s
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"worker gave no reply within {timeout_s:g} s")
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise EOFError(f"worker exited with {self.proc.wait()}")
                self._buffer += chunk
        reply, _, self._buffer = self._buffer.partition(b"\n")
        return reply

    def stderr_tail(self, n: int = 2000) -> str:
        try:
            return self.log_path.read_bytes()[-n:].decode("utf-8", errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        quota = getattr(self, "quota", None)
        if quota is not None:
            quota.__exit__()
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                kill_tree(proc, self.cmd.caps)
                proc.wait()
        if self.cmd.caps is not None:
            self.cmd.caps.remove()
        self._log.close()
        strip_privileges(self.home)  # the process tree is gone: nothing can set the bits again
