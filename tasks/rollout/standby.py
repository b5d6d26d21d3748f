"""Desktops set up ahead (`cuagym rollout --standby`): while one episode of a tuple plays, the
desktop of its next episode is provisioned and set up from the same bundle in a background thread,
so that episode starts on a desktop already showing its first screen.

A group of k episodes of one tuple (GSPO's group) otherwise pays the whole reset — sandbox, setup
scripts, the app's start and first paint — k times in a row: 1.3–5 s per episode here, VS Code the
slowest. With a standby, episode n+1's reset runs during episode n, where a policy served on a GPU
leaves the desktop's CPU idle while it thinks; the episode then waits only for what is left of it.
The cost is one more desktop's memory per tuple in flight (`bench/apps.py` lists each app's), and on
a machine whose cores the episodes already fill, the standby's start competes with the episode.

At most one desktop stands by per bundle, and only while more episodes of it are expected: the flow
says how many (`expect`); one left when the batch ends is closed. A standby that failed to come up
is logged and replaced by a desktop set up at once, which fails (and is retried) as before.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from infra.envs.base import EnvRole
from infra.envs.desktop import DesktopEnv, DesktopProvider
from infra.errors import CuagymError
from tasks.models import TaskSpec

log = logging.getLogger(__name__)
SETUP_TIMEOUT_S = 300.0


def set_up_desktop(provider: DesktopProvider, spec: TaskSpec, bundle: Path) -> DesktopEnv:
    """A fresh desktop set up from the bundle's config.json (closed again if the setup fails)."""
    desktop = provider.provision(spec.id, EnvRole.ROLLOUT, apps=spec.apps)
    try:
        desktop.setup_from_config(bundle / "config.json", timeout_s=SETUP_TIMEOUT_S)
    except BaseException:
        desktop.close()
        raise
    return desktop


class Standby:
    """Set-up desktops waiting for the next episode of their bundle."""

    def __init__(self, provider: DesktopProvider) -> None:
        self.provider = provider
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="standby")
        self._lock = threading.Lock()
        self._expected: Counter[Path] = Counter()  # episodes of each bundle still to take a desktop
        self._waiting: dict[Path, Future] = {}
        self._closed = False
        self.waits: list[float] = []  # seconds each take() waited for its desktop

    def expect(self, bundle: Path, episodes: int) -> None:
        with self._lock:
            self._expected[bundle] += episodes

    def take(self, spec: TaskSpec, bundle: Path) -> DesktopEnv:
        """The desktop for this episode: the one standing by for the bundle (waiting for the rest of
        its setup), else one set up now; then, if more episodes of the bundle are expected, the next
        one starts to be set up."""
        started = time.monotonic()
        with self._lock:
            ready = self._waiting.pop(bundle, None)
            self._expected[bundle] -= 1
        desktop = None
        if ready is not None:
            try:
                desktop = ready.result()
            except (CuagymError, OSError) as exc:
                log.warning(
                    "the standby desktop for %s did not come up (%s); setting one up now", spec.id, exc
                )
        if desktop is None:
            desktop = set_up_desktop(self.provider, spec, bundle)
        self.waits.append(time.monotonic() - started)
        self._prepare(spec, bundle)
        return desktop

    def _prepare(self, spec: TaskSpec, bundle: Path) -> None:
        with self._lock:
            if self._closed or self._expected[bundle] <= 0 or bundle in self._waiting:
                return
            self._waiting[bundle] = self._pool.submit(set_up_desktop, self.provider, spec, bundle)

    def close(self) -> None:
        """Close the desktops still standing by (waiting for any being set up)."""
        with self._lock:
            self._closed = True
            waiting, self._waiting = list(self._waiting.values()), {}
        for future in waiting:
            if future.cancel():
                continue
            with contextlib.suppress(CuagymError, OSError):  # one that never came up: nothing to close
                future.result().close()
        self._pool.shutdown(wait=True)
