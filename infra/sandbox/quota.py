"""A cap on the total size and file count of a sandbox's home.

RLIMIT_FSIZE caps one file; nothing in the kernel caps a directory tree without filesystem quotas
(which need root and a quota-enabled mount, neither of which we can assume). So a watcher thread
measures the home while the sandbox runs and kills it once the home is over its cap, and the run
is measured once more when it ends. Between two polls a script can overshoot by what it writes in
one interval, bounded by the per-file cap times its open files; the run is still reported as
`killed_for_disk` and never counts as a success.

A file counts its apparent size when that is more than its blocks: a 256 MB file written with one
seek holds 8 blocks but is 256 MB to everything that reads it (hashes, uploads, copies that do not
keep holes). A home nested deeper than the walk can follow counts as over its cap.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from infra.sandbox.tree import TreeWalk

POLL_S = 0.1


@dataclass(frozen=True)
class HomeUsage:
    bytes: int
    files: int
    unmeasured: str | None = None  # a part of the home the walk could not reach (too deep)


def charged_bytes(st: os.stat_result) -> int:
    """What one entry costs: the larger of its blocks and its apparent size. A sparse file costs
    almost no blocks, but every copy, hash and upload of it handles its apparent size."""
    return max(st.st_blocks * 512, st.st_size)


def measure(home: Path, *, stop_after_files: int) -> HomeUsage:
    """Charged bytes and entries under `home` (symlinks not followed; stops counting past the cap)."""
    total = files = 0
    walk = TreeWalk(home)
    try:
        with walk as nodes:
            for node in nodes:
                files += 1
                total += charged_bytes(node.st)
                if files > stop_after_files:
                    break
    except FileNotFoundError:
        return HomeUsage(0, 0)
    return HomeUsage(total, files, walk.too_deep)


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
        if usage.unmeasured is not None:  # what cannot be measured cannot be let through
            return f"the home cannot be measured: {usage.unmeasured}"
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
