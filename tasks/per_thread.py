"""One long-lived value per worker thread (deps, desktops' provider) for the run in hand.

A Dask worker thread runs task after task; building what a run's tasks need (sandboxes, a hub, a
Discriminator process) once per thread and run, not once per task, is what keeps a task coarse. A
task of another run (another key) closes the thread's old value first; the process's exit closes
what is left — or the run does, through `close_all` on every worker when it ends (a worker process
may be killed before its exit handlers run; the helper processes also watch their parent).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerThread(Generic[T]):
    def __init__(self, close: Callable[[T], None]) -> None:
        self._close = close
        self._local = threading.local()
        self._live: list[T] = []
        self._lock = threading.Lock()
        atexit.register(self.close_all)

    def get(self, key: str, build: Callable[[], T]) -> T:
        """This thread's value for `key`, built on first use."""
        held = getattr(self._local, "held", None)
        live = held is not None and any(v is held[1] for v in self.values())  # not closed by close_all
        if live and held[0] == key:
            return held[1]
        if live:
            self._forget(held[1])
            self._close(held[1])
        value = build()
        self._local.held = (key, value)
        with self._lock:
            self._live.append(value)
        return value

    def values(self) -> list[T]:
        """Every live value in this process (all threads)."""
        with self._lock:
            return list(self._live)

    def close_all(self) -> None:
        with self._lock:
            left, self._live = self._live, []
        for value in left:
            self._close(value)

    def _forget(self, value: T) -> None:
        with self._lock:
            self._live = [v for v in self._live if v is not value]
