"""Child processes that end with the run that started them, however it ends (kill -9 included).

PR_SET_PDEATHSIG is not enough on its own: it fires when the *thread* that forked the child exits,
and runs start helpers from worker threads that come and go; and it only reaches direct children
that ask for it, never a library's subprocess (Prefect's ephemeral API server outlived a killed
`cuagym synth`). Two mechanisms, then:
- `reap_when_gone()` (a run's CLI command calls it first): a fresh CUAGYM_RUN_TOKEN in our
  environment, which everything we start inherits, and a reaper process (infra/reaper.py) that ends
  every process carrying the token once we are gone — by exit, exception or SIGKILL alike.
- `exit_with_parent()` (in a helper we start): the helper watches its own parent and stops itself
  once reparented, for helpers started outside a reaped command (tests, bench/).
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

log = logging.getLogger(__name__)

PARENT_PID_ENV = "CUAGYM_PARENT_PID"
RUN_TOKEN_ENV = "CUAGYM_RUN_TOKEN"
REAPER = Path(__file__).with_name("reaper.py")

_reaped_pid: int | None = None  # the process that started a reaper (a fork must start its own)


def reap_when_gone() -> subprocess.Popen | None:
    """Arrange that every process this one starts from now on ends when this one does.

    Sets a fresh $CUAGYM_RUN_TOKEN and starts the reaper (in its own session, so a Ctrl-C sent to
    the terminal's group reaches the run but not the reaper). Once per process: a second call
    returns None. Services meant to outlive the command must be started without the token
    (`service_env`).
    """
    global _reaped_pid
    if _reaped_pid == os.getpid():
        return None
    token = secrets.token_hex(16)
    os.environ[RUN_TOKEN_ENV] = token
    ticks = _start_ticks(os.getpid())
    reaper = subprocess.Popen(
        [sys.executable, "-I", str(REAPER), str(os.getpid()), str(ticks), token],
        env={},  # it needs nothing, and carries nothing of the run (no token, no settings)
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    _reaped_pid = os.getpid()
    return reaper


def service_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment without the run token, for a service that must outlive the command."""
    return {k: v for k, v in (base if base is not None else os.environ).items() if k != RUN_TOKEN_ENV}


def _start_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[19])


def exit_with_parent(parent_pid: int | None = None, *, interval_s: float = 0.5, grace_s: float = 5.0) -> None:
    """In a child process: SIGTERM ourselves when `parent_pid` (default: $CUAGYM_PARENT_PID, else no
    watching) is no longer our parent, and exit hard `grace_s` later if that did not end us."""
    if parent_pid is None:
        value = os.environ.get(PARENT_PID_ENV, "")
        if not value.isdigit():
            return
        parent_pid = int(value)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval_s)
        log.warning("parent process %d is gone; stopping", parent_pid)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace_s)
        os._exit(1)

    threading.Thread(target=watch, name="cuagym-exit-with-parent", daemon=True).start()


def child_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment for a helper child that should run `exit_with_parent()`."""
    return {**(base if base is not None else os.environ), PARENT_PID_ENV: str(os.getpid())}
