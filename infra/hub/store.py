"""Per-session state of one mock app: in memory for speed, persisted for restarts, expired when idle.

A session is `(baseline, current)`; `None` stands for "the app's defaults" (baseline) and "same as
the baseline" (current), so a sid that was only read costs nothing and is never written.

Memory: at most `max_cached` sessions stay in memory (least recently used first out); the others
wait in SQLite and are loaded again on their next request, so memory stays bounded however many
sessions a run opens. An app holds at most `max_sessions` sessions in all: past that a new sid is
refused (503, SessionLimitError) rather than evicting one that an env may still be using.

Versions: every write bumps the session's `version` (persisted with it); a writer that sends the
version it read (`If-Match`) is refused with 412 if another write came in between, so concurrent
read-modify-write clients lose no update.

Persistence: every write saves the session's row in the hub's SessionDB (persist.py) in one
transaction before the in-memory session changes, so a write that fails at any step leaves both
as they were. Uploads live in `<data_dir>/files/<app>/<sid>/`.

Concurrency: one hub process is one event loop; every method here runs without awaiting, so a
request's read-modify-write cannot interleave with another's.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from infra.hub.diff import deep_merge, nesting_depth, state_diff
from infra.hub.errors import (
    BadRequestError,
    InvalidStateError,
    PreconditionFailedError,
    SessionLimitError,
)
from infra.hub.persist import SessionDB
from infra.hub.registry import MockApp
from infra.hub.settings import MAX_STORABLE_DEPTH

log = logging.getLogger(__name__)

ACTIONS = ("set", "set_current", "reset")
States = tuple[dict[str, Any] | None, dict[str, Any] | None]  # (baseline, current)


@dataclass
class Session:
    baseline: dict[str, Any] | None = None
    current: dict[str, Any] | None = None
    touched: float = 0.0  # wall-clock time of the last request (the TTL counts from here)
    persisted_touch: float = 0.0  # when the file's mtime was last brought up to date
    go_cache: bytes | None = None  # serialised /go body; dropped on every write
    version: int = 0  # writes so far (0: never written); what If-Match compares

    @property
    def has_custom_state(self) -> bool:
        return self.baseline is not None or self.current is not None


class AppSessions:
    """All sessions of one mock app. Callers validate sids first (see state_api.check_sid)."""

    def __init__(
        self,
        app: MockApp,
        data_dir: Path,
        ttl_s: float,
        db: SessionDB,
        clock: Callable[[], float] = time.time,
        *,
        max_depth: int,
        max_sessions: int = 10_000,
        max_cached: int = 256,
    ) -> None:
        self.app = app
        self.ttl_s = ttl_s
        self.max_depth = max_depth
        self.max_sessions = max_sessions
        self.max_cached = max_cached
        self.db = db
        self.clock = clock
        self.files_root = data_dir / "files" / app.name
        self.files_root.mkdir(parents=True, exist_ok=True)
        self.defaults: dict[str, Any] = app.seed()
        self._defaults_go = orjson.dumps(
            {"initial_state": self.defaults, "current_state": self.defaults, "state_diff": {}}
        )
        self._sessions: OrderedDict[str, Session] = OrderedDict()  # in memory, least recent first
        self._on_disk: dict[str, float] = {}  # persisted sids not loaded yet -> last activity
        self._scan_disk()

    # ---- the state API -------------------------------------------------------------------------

    def apply(
        self,
        sid: str,
        action: str,
        state: Any,
        merge: bool,
        *,
        strict: bool = True,
        if_match: set[str] | None = None,
    ) -> Session:
        """Run one POST /post action, all or nothing.

        `strict` checks the new state against the app's schema (422 if it does not fit);
        `if_match` (the versions an If-Match header names) refuses the write with 412 unless the
        session is still at one of them. The new (baseline, current) pair is built, checked,
        serialised and saved before the in-memory session changes, so whatever fails (a refused
        state, a full disk, a bug) leaves the session, in memory and on disk, exactly as it was."""
        if action not in ACTIONS:
            raise BadRequestError(f"unknown action {action!r}", hint=f"action is one of {', '.join(ACTIONS)}")
        existing = self._get(sid)
        version = existing.version if existing is not None else 0
        if if_match is not None and str(version) not in if_match:
            raise PreconditionFailedError(
                f"session {sid} is at version {version}, not {', '.join(sorted(if_match))}",
                hint="another write came first: read the state again (GET /state or /go, header "
                "ETag) and retry with If-Match set to its version",
            )
        if existing is None:
            self._check_room(sid)
        baseline, current = self._next_states(existing, action, state, merge, strict)
        rows = self._serialise(baseline, current)
        now = self.clock()
        self.db.save(self.app.name, sid, *rows, now, version + 1)
        session = existing or Session(touched=now)
        session.baseline, session.current, session.go_cache = baseline, current, None
        session.persisted_touch, session.version = now, version + 1
        self._remember(sid, session)
        return session

    def go(self, sid: str) -> tuple[bytes, int]:
        """The /go body (initial: baseline or defaults; current; the diff) and the version."""
        session = self._get(sid)
        if session is None or not session.has_custom_state:
            return self._defaults_go, 0 if session is None else session.version
        if session.go_cache is None:
            initial = session.baseline if session.baseline is not None else self.defaults
            current = self._current(session)
            diff = state_diff(initial, current, self.app.volatile_keys)
            session.go_cache = orjson.dumps(
                {"initial_state": initial, "current_state": current, "state_diff": diff}
            )
        return session.go_cache, session.version

    def stored(self, sid: str) -> tuple[dict[str, Any] | None, bool, int]:
        """The /state view: (current state, True, version) once the sid was set, else (None,
        False, version); null rather than the defaults is what CUA-Gym-Hub clients test for
        "never set"."""
        session = self._get(sid)
        version = 0 if session is None else session.version
        if session is None or not session.has_custom_state:
            return None, False, version
        return self._current(session), True, version

    def files_dir(self, sid: str, *, create: bool) -> Path | None:
        """The sid's upload folder; `create` opens the session (so the TTL also covers its files)."""
        session = self._get(sid)
        if session is None and not create:
            return None
        if create:
            self._keep_alive(sid, session)
        folder = self.files_root / sid
        if create:
            folder.mkdir(parents=True, exist_ok=True)
        return folder if folder.is_dir() else None

    def live_sessions(self) -> int:
        return len(self._sessions) + len(self._on_disk)

    def cached_sessions(self) -> int:
        """How many sessions are in memory now (at most max_cached)."""
        return len(self._sessions)

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

    def _next_states(
        self, existing: Session | None, action: str, state: Any, merge: bool, strict: bool
    ) -> States:
        """(baseline, current) after `action`, checked against the app's schema; changes nothing."""
        baseline = existing.baseline if existing is not None else None
        if action == "reset":
            return baseline, None
        if not isinstance(state, dict):
            raise BadRequestError(
                f"action {action!r} needs a JSON object in 'state'",
                hint=f'send {{"action": "{action}", "state": {{...}}}}',
            )
        if action == "set":
            new = deep_merge(self.defaults, state)
        else:
            new = deep_merge(self._current(existing), state) if merge else state
        self._check_depth(new)  # always: a state deeper than this could not be served by /go
        if strict:
            self.app.validate(new)
        return (new, None) if action == "set" else (baseline, new)

    def _check_depth(self, state: dict[str, Any]) -> None:
        # Before the schema: pydantic then never walks a nest the hub would refuse anyway.
        depth = nesting_depth(state, self.max_depth)
        if depth > self.max_depth:
            raise InvalidStateError(
                f"state nests more than {self.max_depth} objects/arrays deep",
                hint=f"flatten the state, or raise CUAGYM_HUB_MAX_STATE_DEPTH (at most {MAX_STORABLE_DEPTH})",
            )

    @staticmethod
    def _serialise(baseline: dict | None, current: dict | None) -> tuple[bytes | None, bytes | None]:
        """The row to save; failing here proves the state cannot be stored, before anything changed."""
        try:
            return (
                None if baseline is None else orjson.dumps(baseline),
                None if current is None else orjson.dumps(current),
            )
        except orjson.JSONEncodeError as exc:
            raise InvalidStateError(
                f"state cannot be stored: {exc}",
                hint="send plain JSON objects, arrays, strings, numbers and booleans",
            ) from None

    def _keep_alive(self, sid: str, session: Session | None) -> None:
        """Record activity for a sid that uploads files (a new one gets an empty row first)."""
        now = self.clock()
        if session is None:
            self._check_room(sid)
            self.db.save(self.app.name, sid, None, None, now, 0)
            self._remember(sid, Session(touched=now, persisted_touch=now))
        else:
            self.db.touch(self.app.name, sid, now)
            session.persisted_touch = now

    def _get(self, sid: str) -> Session | None:
        """The live session of `sid` (loaded from disk if needed), or None; reading refreshes its TTL."""
        now = self.clock()
        session = self._sessions.get(sid)
        if session is not None:
            self._sessions.move_to_end(sid)
        elif sid in self._on_disk:
            session = self._load(sid)
        if session is not None and now - session.touched > self.ttl_s:
            self._expire(sid)
            session = None
        if session is None:
            return None
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
        baseline, current, touched, version = row
        try:
            session = Session(
                self._decode(baseline),
                self._decode(current),
                touched=touched,
                persisted_touch=touched,
                version=version,
            )
        except ValueError as exc:  # orjson's JSONDecodeError included
            # A row we cannot serve is not a session (an older hub may have written it, or the disk
            # was edited): start the sid afresh rather than answer 500 for it forever.
            log.warning(
                "hub %s: unusable stored state for %s (%s); starting it fresh", self.app.name, sid, exc
            )
            self.db.delete(self.app.name, sid)
            return None
        self._remember(sid, session)
        return session

    def _remember(self, sid: str, session: Session) -> None:
        """Keep `session` in memory as the most recent; move the least recent past max_cached to disk."""
        self._sessions[sid] = session
        self._sessions.move_to_end(sid)
        while len(self._sessions) > self.max_cached:
            old_sid, old = self._sessions.popitem(last=False)
            if old.touched > old.persisted_touch:  # its row must say when it was last used
                self.db.touch(self.app.name, old_sid, old.touched)
            self._on_disk[old_sid] = old.touched

    def _check_room(self, sid: str) -> None:
        """Refuse a new session once the app holds max_sessions (after dropping expired ones)."""
        if self.live_sessions() < self.max_sessions:
            return
        self.sweep()
        if self.live_sessions() >= self.max_sessions:
            raise SessionLimitError(
                f"{self.app.name} holds {self.live_sessions()} sessions, its limit; session {sid} "
                "was not created",
                hint=f"wait for idle sessions to expire (after {self.ttl_s:g} s), or raise "
                "CUAGYM_HUB_MAX_SESSIONS",
            )

    @staticmethod
    def _decode(blob: bytes | None) -> dict[str, Any] | None:
        """A stored state, or ValueError if /go could not serve it. The bound is the hard one, not
        max_state_depth: lowering the setting must not throw away sessions that still work."""
        if blob is None:
            return None
        state = orjson.loads(blob)
        if not isinstance(state, dict):
            raise ValueError(f"stored state is a {type(state).__name__}, not an object")
        if nesting_depth(state, MAX_STORABLE_DEPTH) > MAX_STORABLE_DEPTH:
            raise ValueError(f"stored state nests more than {MAX_STORABLE_DEPTH} levels deep")
        return state

    def _scan_disk(self) -> None:
        """Index persisted sessions, drop expired ones, and remove uploads whose session is gone."""
        self._on_disk = self.db.sids(self.app.name)
        for folder in self.files_root.iterdir():
            if folder.name not in self._on_disk:
                shutil.rmtree(folder, ignore_errors=True)
        self.sweep()
