"""Child processes that end with the run that started them, however it ends (kill -9 included).

PR_SET_PDEATHSIG is not enough on its own: it fires when the *thread* that forked the child exits,
and runs start helpers from worker threads that come and go. So a helper process watches its parent
instead: once it has been reparented (its parent died), it stops itself.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time

log = logging.getLogger(__name__)

PARENT_PID_ENV = "CUAGYM_PARENT_PID"


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
