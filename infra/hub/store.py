"""Per-session state of one mock app: in memory for speed, persisted for restarts, expired when idle.

A session is `(baseline, current)`; `None` stands for "the app's defaults" (baseline) and "same as
the baseline" (current), so a sid that was only read costs nothing and is never written.

Persistence: every write saves the session's row in the hub's SessionDB (persist.py) in one
transaction before the request is answered. Uploads live in `<data_dir>/files/<app>/<sid>/`.

Concurrency: one hub process is one event loop; every method here runs without awaiting, so a
request's read-modify-write cannot interleave with another's.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from infra.hub.diff import deep_merge, state_diff
from infra.hub.errors import BadRequestError
from infra.hub.persist import SessionDB
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

    def __init__(self, app: MockApp, data_dir: Path, ttl_s: float, db: SessionDB,
                 clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.ttl_s = ttl_s
        self.db = db
        self.clock = clock
        self.files_root = data_dir / "files" / app.name
        self.files_root.mkdir(parents=True, exist_ok=True)
        self.defaults: dict[str, Any] = app.seed()
        self._defaults_go = orjson.dumps(
            {"initial_state": self.defaults, "current_state": self.defaults, "state_diff": {}}
        )
        self._sessions: dict[str, Session] = {}
        self._on_disk: dict[str, float] = {}  # persisted sids not loaded yet -> last activity
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
                                      hint=f'send {{"action": "{action}", "state": {{...}}}}')
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
        expired += [sid for sid, touched in self._on_disk.items() if now - touched > self.ttl_s]
        for sid in expired:
            self._expire(sid)
        if expired:
            log.info("hub %s: expired %d idle session(s)", self.app.name, len(expired))
        return len(expired)

    def _expire(self, sid: str) -> None:
        self._sessions.pop(sid, None)
        self._on_disk.pop(sid, None)
        self.db.delete(self.app.name, sid)
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
        # Reads do not rewrite the state, but a restarted hub judges idleness by the stored time;
        # refresh it at most every tenth of the TTL so a session read often outlives a restart.
        if now - session.persisted_touch > self.ttl_s / 10:
            self.db.touch(self.app.name, sid, now)
            session.persisted_touch = now

    def _load(self, sid: str) -> Session | None:
        self._on_disk.pop(sid, None)
        row = self.db.load(self.app.name, sid)
        if row is None:
            return None
        baseline, current, touched = row
        try:
            session = Session(orjson.loads(baseline) if baseline is not None else None,
                              orjson.loads(current) if current is not None else None,
                              touched=touched, persisted_touch=touched)
        except orjson.JSONDecodeError as exc:
            # A row we cannot read is not a session; start the sid afresh rather than fail every request.
            log.warning("hub %s: unreadable stored state for %s (%s); starting it fresh", self.app.name, sid, exc)
            self.db.delete(self.app.name, sid)
            return None
        self._sessions[sid] = session
        return session

    def _persist(self, sid: str, session: Session) -> None:
        now = self.clock()
        dump = orjson.dumps
        self.db.save(self.app.name, sid, None if session.baseline is None else dump(session.baseline),
                     None if session.current is None else dump(session.current), now)
        session.persisted_touch = now

    def _scan_disk(self) -> None:
        """Index persisted sessions, drop expired ones, and remove uploads whose session is gone."""
        self._on_disk = self.db.sids(self.app.name)
        for folder in self.files_root.iterdir():
            if folder.name not in self._on_disk:
                shutil.rmtree(folder, ignore_errors=True)
        self.sweep()
