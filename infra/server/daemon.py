"""Helper processes that outlive the command that started them: `cuagym server start` returns, and
`cuagym server stop` (another process) ends them later from the pids it recorded.

Each runs in its own session, so stopping one ends its whole process group (Prefect's server runs
uvicorn as a child; a worker runs flow runs as children). A recorded pid is trusted only while the
process still has the start time recorded with it, so a stale state file can never signal a
stranger that reused the pid.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pydantic import BaseModel, PrivateAttr

from infra.lifetime import service_env

# A shell without job control (`cuagym server start &`, nohup, a CI step) starts its children with
# SIGINT ignored, and an ignored signal stays ignored across exec: such a daemon would never hear the
# SIGINT `stop` sends first, and only the SIGKILL 20 s later would reach its group, not the flow runs
# a worker started in sessions of their own. Each daemon execs through this, SIGINT at its default.
DEFAULT_SIGINT = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"


class Daemon(BaseModel):
    name: str
    pid: int
    started: int  # start time in clock ticks since boot (/proc/<pid>/stat field 22)
    log: Path
    _popen: subprocess.Popen | None = PrivateAttr(default=None)

    @classmethod
    def spawn(cls, name: str, argv: list[str], *, env: dict[str, str], cwd: Path, log: Path) -> Daemon:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as out:
            popen = subprocess.Popen(
                [sys.executable, "-c", DEFAULT_SIGINT, *argv],
                env=service_env(env),  # a daemon outlives the command: not one of the run's helpers
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        daemon = cls(name=name, pid=popen.pid, started=start_ticks(popen.pid) or 0, log=log)
        daemon._popen = popen
        return daemon

    def running(self) -> bool:
        if self._popen is not None:  # our own child: poll() also reaps it
            return self._popen.poll() is None
        return start_ticks(self.pid) == self.started

    def stop(self, timeout_s: float = 20.0) -> None:
        """SIGINT (Ctrl-C) first: a worker sent SIGTERM along with its server was seen to keep running,
        while on SIGINT it exits. Then SIGKILL for whatever is left of the group."""
        if not self.running():
            return  # gone, or a recorded pid that is no longer ours: signal nothing
        self._signal_group(signal.SIGINT)
        deadline = time.monotonic() + timeout_s
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.2)
        self._signal_group(signal.SIGKILL)  # children the leader left behind, or a leader that hung
        if self._popen is not None:
            self._popen.wait(timeout=10)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def _signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):  # the whole group is gone already
            os.killpg(self.pid, sig)


def start_ticks(pid: int) -> int | None:
    """The process's start time, or None when it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # the command name in (...) may hold spaces
    if fields[0] == "Z":
        return None
    return int(fields[19])
