"""Per-session state of one mock app: in memory for speed, persisted for restarts, expired when idle.

A session is `(baseline, current)`; `None` stands for "the app's defaults" (baseline) and "same as
the baseline" (current), so a sid that was only read costs nothing and is never written.

Persistence: `<data_dir>/sessions/<app>/<sid>.json` holds `{"baseline", "current"}`, replaced
atomically (temp file + rename in the same directory) on every write, so a crash leaves the old or
the new state, never half of one. The file's mtime is the session's last activity as far as a
restarted hub knows (reads refresh it now and then, see `_touch`).

Concurrency: one hub process is one event loop; every method here runs without awaiting, so a
request's read-modify-write cannot interleave with another's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from infra.hub.diff import deep_merge, state_diff
from infra.hub.errors import BadRequestError
from infra.hub.registry import MockApp

log = logging.getLogger(__name__)

ACTIONS = ("set", "set_current", "reset")


@dataclass
class Session:
    baseline: dict[str, Any] | None = None
    current: dict[str, Any] | None = None
    touched: float = 0.0  # wall-clock time of the last request (the TTL counts from here)
    persisted_touch: float = 0.0  # when the file's mtime was last brought up to date
    go_cache: bytes | None = None  # serialised /go body; dropped on every write

    @property
    def has_custom_state(self) -> bool:
        return self.baseline is not None or self.current is not None


class AppSessions:
    """All sessions of one mock app. Callers validate sids first (see state_api.check_sid)."""

    def __init__(self, app: MockApp, data_dir: Path, ttl_s: float, clock: Callable[[], float] = time.time):
        self.app = app
        self.ttl_s = ttl_s
        self.clock = clock
        self.state_dir = data_dir / "sessions" / app.name
        self.files_root = data_dir / "files" / app.name
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.files_root.mkdir(parents=True, exist_ok=True)
        self.defaults: dict[str, Any] = app.seed()
        self._defaults_go = orjson.dumps(
            {"initial_state": self.defaults, "current_state": self.defaults, "state_diff": {}}
        )
        self._sessions: dict[str, Session] = {}
        self._on_disk: set[str] = set()  # persisted sids not loaded yet (loaded lazily on first use)
        self._scan_disk()

    # ---- the state API -------------------------------------------------------------------------

    def apply(self, sid: str, action: str, state: Any, merge: bool) -> Session:
        """Run one POST /post action. Raises BadRequestError / InvalidStateError before any change."""
        if action not in ACTIONS:
            raise BadRequestError(f"unknown action {action!r}", hint=f"action is one of {', '.join(ACTIONS)}")
        if action == "reset":
            session = self._get(sid, create=True)
            session.current = None
        else:
            if not isinstance(state, dict):
                raise BadRequestError(f"action {action!r} needs a JSON object in 'state'",
                                      hint='send {"action": "%s", "state": {...}}' % action)
            existing = self._get(sid, create=False)
            if action == "set":
                baseline = deep_merge(self.defaults, state)
                self.app.validate(baseline)
                session = existing or self._new(sid)
                session.baseline, session.current = baseline, None
            else:
                base = self._current(existing) if merge else None
                current = deep_merge(base, state) if base is not None else state
                self.app.validate(current)
                session = existing or self._new(sid)
                session.current = current
        session.go_cache = None
        self._persist(sid, session)
        return session

    def go(self, sid: str) -> bytes:
        """The /go body: initial (baseline or defaults), current, and the diff between them."""
        session = self._get(sid, create=False)
        if session is None or not session.has_custom_state:
            return self._defaults_go
        if session.go_cache is None:
            initial = session.baseline if session.baseline is not None else self.defaults
            current = self._current(session)
            diff = state_diff(initial, current, self.app.volatile_keys)
            session.go_cache = orjson.dumps(
                {"initial_state": initial, "current_state": current, "state_diff": diff}
            )
        return session.go_cache

    def stored(self, sid: str) -> tuple[dict[str, Any], bool]:
        """The /state view: (current state, whether this sid holds anything but the defaults)."""
        session = self._get(sid, create=False)
        if session is None:
            return self.defaults, False
        return self._current(session), session.has_custom_state

    def files_dir(self, sid: str, *, create: bool) -> Path | None:
        """The sid's upload folder; `create` opens the session (so the TTL also covers its files)."""
        session = self._get(sid, create=create)
        if session is None:
            return None
        if create:
            self._persist(sid, session)
        folder = self.files_root / sid
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        return folder if folder.is_dir() else None

    def live_sessions(self) -> int:
        return len(self._sessions) + len(self._on_disk)

    # ---- expiry ----------------------------------------------------------------------------------

    def sweep(self) -> int:
        """Expire every session idle for longer than the TTL; returns how many were removed."""
        now = self.clock()
        expired = [sid for sid, s in self._sessions.items() if now - s.touched > self.ttl_s]
        for sid in list(self._on_disk):
            mtime = self._mtime(sid)
            if mtime is None or now - mtime > self.ttl_s:
                expired.append(sid)
        for sid in expired:
            self._expire(sid)
        if expired:
            log.info("hub %s: expired %d idle session(s)", self.app.name, len(expired))
        return len(expired)

    def _expire(self, sid: str) -> None:
        self._sessions.pop(sid, None)
        self._on_disk.discard(sid)
        with contextlib.suppress(FileNotFoundError):
            self._path(sid).unlink()
        shutil.rmtree(self.files_root / sid, ignore_errors=True)

    # ---- internals -------------------------------------------------------------------------------

    def _current(self, session: Session | None) -> dict[str, Any]:
        if session is None:
            return self.defaults
        if session.current is not None:
            return session.current
        return session.baseline if session.baseline is not None else self.defaults

    def _new(self, sid: str) -> Session:
        now = self.clock()
        session = Session(touched=now, persisted_touch=now)
        self._sessions[sid] = session
        return session

    def _get(self, sid: str, *, create: bool) -> Session | None:
        now = self.clock()
        session = self._sessions.get(sid)
        if session is None and sid in self._on_disk:
            session = self._load(sid)
        if session is not None and now - session.touched > self.ttl_s:
            self._expire(sid)
            session = None
        if session is None:
            return self._new(sid) if create else None
        session.touched = now
        self._touch(sid, session, now)
        return session

    def _touch(self, sid: str, session: Session, now: float) -> None:
        # Reads do not rewrite the file, but a restarted hub judges idleness by its mtime; refresh
        # it at most every tenth of the TTL so a session read often is not expired after a restart.
        if now - session.persisted_touch > self.ttl_s / 10 and sid not in self._on_disk:
            with contextlib.suppress(FileNotFoundError):
                os.utime(self._path(sid), (now, now))
            session.persisted_touch = now

    def _load(self, sid: str) -> Session | None:
        self._on_disk.discard(sid)
        path = self._path(sid)
        try:
            raw = orjson.loads(path.read_bytes())
            mtime = path.stat().st_mtime
        except (OSError, orjson.JSONDecodeError) as exc:
            # A file we cannot read is not a session; keep the evidence aside for a human.
            log.warning("hub %s: unreadable session file %s (%s); starting %s fresh", self.app.name, path, exc, sid)
            with contextlib.suppress(OSError):
                path.rename(path.with_suffix(".corrupt"))
            return None
        session = Session(raw.get("baseline"), raw.get("current"), touched=mtime, persisted_touch=mtime)
        self._sessions[sid] = session
        return session

    def _persist(self, sid: str, session: Session) -> None:
        payload = orjson.dumps({"baseline": session.baseline, "current": session.current})
        fd, tmp = tempfile.mkstemp(prefix=f".{sid}.", suffix=".tmp", dir=self.state_dir)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
            os.replace(tmp, self._path(sid))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        session.persisted_touch = self.clock()

    def _path(self, sid: str) -> Path:
        return self.state_dir / f"{sid}.json"

    def _mtime(self, sid: str) -> float | None:
        try:
            return self._path(sid).stat().st_mtime
        except FileNotFoundError:
            return None

    def _scan_disk(self) -> None:
        """Index persisted sessions, drop expired ones, and remove leftovers of interrupted writes."""
        for tmp in self.state_dir.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        self._on_disk = {p.stem for p in self.state_dir.glob("*.json")}
        for folder in self.files_root.iterdir():
            if folder.name not in self._on_disk:
                shutil.rmtree(folder, ignore_errors=True)  # files of a session whose state is gone
        self.sweep()
