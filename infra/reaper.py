"""The run reaper: `python -I infra/reaper.py PARENT_PID START_TICKS TOKEN` (started by
infra/lifetime.py's `reap_when_gone`; standard library only, so it starts in a few ms).

It waits until PARENT_PID is gone — however it died, SIGKILL included: it polls, it needs nothing
from the dead process — then ends every process whose environment carries CUAGYM_RUN_TOKEN=TOKEN:
SIGTERM, and SIGKILL after a grace period for what is left, rescanning until none is found (a dying
helper may start another). The token is inherited by everything the run starts (hub, Prefect's API
server, Dask workers, desktops' launchers); a service started with an environment of its own
(dockerd, libvirtd, the operators' server) does not carry it and is left alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

POLL_S = 0.1
GRACE_S = 1.5  # SIGTERM to SIGKILL: the whole run must be gone within 5 s of the parent's death
MAX_ROUNDS = 20
TOKEN_ENV = b"CUAGYM_RUN_TOKEN"


def start_ticks(pid: int) -> int | None:
    """A process's start time (clock ticks since boot), None when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == b"Z" else int(fields[19])


def marked(token: bytes) -> list[int]:
    """Pids (not ours) whose environment carries the run token."""
    entry = TOKEN_ENV + b"=" + token
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as environ:
                if entry in environ.read().split(b"\0"):
                    found.append(int(name))
        except OSError:  # gone, or a kernel thread
            continue
    return found


def end_all(token: bytes) -> None:
    for _ in range(MAX_ROUNDS):
        pids = marked(token)
        if not pids:
            return
        for pid in pids:
            _signal(pid, signal.SIGTERM)
        deadline = time.monotonic() + GRACE_S
        while time.monotonic() < deadline and any(start_ticks(pid) for pid in pids):
            time.sleep(0.05)
        for pid in pids:
            if start_ticks(pid) is not None:
                _signal(pid, signal.SIGKILL)


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def main(argv: list[str]) -> int:
    parent, ticks, token = int(argv[0]), int(argv[1]), argv[2].encode()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the run's group; this must stay
    # Reparented means the parent died; the start time guards against a reused pid.
    while os.getppid() == parent and start_ticks(parent) == ticks:
        time.sleep(POLL_S)
    end_all(token)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
