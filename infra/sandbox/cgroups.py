"""Per-sandbox memory and process-count caps through Linux cgroups (v1 or v2).

Each sandboxed run gets its own child cgroup under the cgroup this process already lives in, so the
caps nest inside whatever limits the machine gives us. Only lowering is ever done: a child cgroup
can never exceed its parent. When no writable cgroup hierarchy exists, `CgroupCaps.create` returns
None and the sandbox falls back to a lowered address-space rlimit (see infra/sandbox/command.py).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

CGROUP_ROOT = Path("/sys/fs/cgroup")
GROUP_NAME = "cuagym-sandbox"


def _own_paths() -> dict[str, str]:
    """Map controller name ('' for the unified v2 hierarchy) to this process's cgroup path."""
    paths: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(","):
            paths[name.removeprefix("name=")] = path
    return paths


def _writable_parent(base: Path) -> Path | None:
    parent = base / GROUP_NAME
    try:
        parent.mkdir(exist_ok=True)
        probe = parent / f"probe-{uuid.uuid4().hex}"
        probe.mkdir()
        probe.rmdir()
    except OSError as exc:
        log.warning("cgroup %s is not writable (%s): falling back to rlimits", parent, exc)
        return None
    return parent


@dataclass(frozen=True)
class _Layout:
    version: int
    memory_parent: Path
    pids_parent: Path | None


@lru_cache(maxsize=1)
def _layout() -> _Layout | None:
    own = _own_paths()
    if (CGROUP_ROOT / "memory").is_dir() and "memory" in own:
        mem = _writable_parent(CGROUP_ROOT / "memory" / own["memory"].lstrip("/"))
        if mem is None:
            return None
        pids = None
        if (CGROUP_ROOT / "pids").is_dir() and "pids" in own:
            pids = _writable_parent(CGROUP_ROOT / "pids" / own["pids"].lstrip("/"))
        return _Layout(1, mem, pids)
    if (CGROUP_ROOT / "cgroup.controllers").exists() and "" in own:
        unified = _writable_parent(CGROUP_ROOT / own[""].lstrip("/"))
        if unified is None:
            return None
        # v2 needs the controllers enabled for children of the parent we made.
        with contextlib.suppress(OSError):
            (unified / "cgroup.subtree_control").write_text("+memory +pids")
        return _Layout(2, unified, unified)
    return None


def available() -> bool:
    return _layout() is not None


@dataclass
class CgroupCaps:
    """One sandbox run's cgroup(s): caps set at creation, read back after the run, removed at close."""

    layout: _Layout
    memory_dir: Path
    pids_dir: Path | None

    @classmethod
    def create(cls, memory_mb: int, max_procs: int) -> CgroupCaps | None:
        layout = _layout()
        if layout is None:
            return None
        name = f"run-{uuid.uuid4().hex[:12]}"
        mem_dir = layout.memory_parent / name
        mem_dir.mkdir()
        pids_dir = None
        limit = str(memory_mb * 1024 * 1024)
        if layout.version == 1:
            (mem_dir / "memory.limit_in_bytes").write_text(limit)
            # With swap accounting on, also cap memory+swap so a hog cannot escape into swap.
            with contextlib.suppress(OSError):
                (mem_dir / "memory.memsw.limit_in_bytes").write_text(limit)
            if layout.pids_parent is not None:
                pids_dir = layout.pids_parent / name
                pids_dir.mkdir()
                (pids_dir / "pids.max").write_text(str(max_procs))
        else:
            (mem_dir / "memory.max").write_text(limit)
            with contextlib.suppress(OSError):
                (mem_dir / "memory.swap.max").write_text("0")
            with contextlib.suppress(OSError):
                (mem_dir / "pids.max").write_text(str(max_procs))
        return cls(layout, mem_dir, pids_dir)

    @property
    def procs_files(self) -> list[Path]:
        files = [self.memory_dir / "cgroup.procs"]
        if self.pids_dir is not None:
            files.append(self.pids_dir / "cgroup.procs")
        return files

    @property
    def limits_processes(self) -> bool:
        return self.pids_dir is not None or self.layout.version == 2

    def oom_killed(self) -> bool:
        name = "memory.oom_control" if self.layout.version == 1 else "memory.events"
        try:
            for line in (self.memory_dir / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and int(value) > 0:
                    return True
        except OSError:
            pass
        return False

    def peak_memory_mb(self) -> float | None:
        name = "memory.max_usage_in_bytes" if self.layout.version == 1 else "memory.peak"
        try:
            return int((self.memory_dir / name).read_text()) / (1024 * 1024)
        except (OSError, ValueError):
            return None

    def kill_all(self) -> None:
        for procs in self.procs_files:
            try:
                pids = [int(p) for p in procs.read_text().split()]
            except OSError:
                continue
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def remove(self) -> None:
        dirs = [self.memory_dir] + ([self.pids_dir] if self.pids_dir else [])
        for d in dirs:
            # A cgroup can only be removed once its last process has been reaped by the kernel.
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    self.kill_all()
                    time.sleep(0.01)
            else:
                log.warning("could not remove cgroup %s", d)
