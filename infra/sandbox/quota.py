"""A cap on the total size and file count of a sandbox's home.

RLIMIT_FSIZE caps one file; nothing in the kernel caps a directory tree without filesystem quotas
(which need root and a quota-enabled mount, neither of which we can assume). So a watcher thread
measures the home while the sandbox runs and kills it once the home is over its cap, and the run
is measured once more when it ends. Between two polls a script can overshoot by what it writes in
one interval, bounded by the per-file cap times its open files; the run is still reported as
`killed_for_disk` and never counts as a success.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

POLL_S = 0.1


@dataclass(frozen=True)
class HomeUsage:
    bytes: int
    files: int


def measure(home: Path, *, stop_after_files: int) -> HomeUsage:
    """Disk blocks and entries under `home` (symlinks not followed; stops counting past the cap)."""
    total = files = 0
    stack = [str(home)]
    while stack and files <= stop_after_files:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    files += 1
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    total += st.st_blocks * 512  # allocated, not apparent: sparse files cost nothing
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return HomeUsage(total, files)


@dataclass(frozen=True)
class HomeQuota:
    home: Path
    max_bytes: int
    max_files: int

    def excess(self) -> str | None:
        """Why the home is over its cap, or None."""
        usage = measure(self.home, stop_after_files=self.max_files)
        if usage.bytes > self.max_bytes:
            return f"the home holds {usage.bytes >> 20} MB, over its {self.max_bytes >> 20} MB cap"
        if usage.files > self.max_files:
            return f"the home holds more than {self.max_files} files and folders"
        return None


class QuotaWatch:
    """Polls a HomeQuota in a thread; calls `on_excess(reason)` once and stops when it is exceeded."""

    def __init__(
        self, quota: HomeQuota, on_excess: Callable[[str], None], *, interval_s: float = POLL_S
    ) -> None:
        self.quota = quota
        self.interval_s = interval_s
        self.on_excess = on_excess
        self.reason: str | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cuagym-home-quota", daemon=True)

    def __enter__(self) -> QuotaWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        if self.reason is None:
            self.reason = self.quota.excess()

    def _run(self) -> None:
        while not self._done.wait(self.interval_s):
            reason = self.quota.excess()
            if reason is not None:
                self.reason = reason
                self.on_excess(reason)
                return
