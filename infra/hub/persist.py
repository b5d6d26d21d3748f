"""Where session states persist: one SQLite file, `<data_dir>/sessions.sqlite3`.

Why SQLite and not a JSON file per session: every write is one transaction (atomic: a crash leaves
the previous or the new state, never a mix), and it costs tens of microseconds, where creating
and renaming a temp file cost ~0.5 ms on the VM disks we run on, which capped the hub's
throughput. WAL with `synchronous=NORMAL` survives a process crash or restart (not a power cut,
which no rollout needs).

One hub process owns a data dir: the in-memory session cache in store.py is the source of truth
while it runs, and this file is what a restarted hub reads back.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    app      TEXT NOT NULL,
    sid      TEXT NOT NULL,
    baseline BLOB,           -- JSON, NULL = the app's defaults
    current  BLOB,           -- JSON, NULL = same as the baseline
    touched  REAL NOT NULL,  -- wall-clock time of the last request (the TTL counts from here)
    version  INTEGER NOT NULL DEFAULT 0,  -- writes so far; clients send it back in If-Match
    PRIMARY KEY (app, sid)
) WITHOUT ROWID
"""
# A data dir written by a hub from before versions: its rows start at version 0.
ADD_VERSION = "ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0"

Row = tuple[bytes | None, bytes | None, float, int]  # baseline, current, touched, version


class SessionDB:
    """Rows of (app, sid) -> (baseline, current, touched, version); each method is one transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # check_same_thread=False: the lifespan opens it, requests use it, all on one event loop.
        self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=NORMAL")
        self.con.execute(SCHEMA)
        columns = {row[1] for row in self.con.execute("PRAGMA table_info(sessions)")}
        if "version" not in columns:
            self.con.execute(ADD_VERSION)

    def save(
        self,
        app: str,
        sid: str,
        baseline: bytes | None,
        current: bytes | None,
        touched: float,
        version: int,
    ) -> None:
        self.con.execute(
            "INSERT OR REPLACE INTO sessions (app, sid, baseline, current, touched, version) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (app, sid, baseline, current, touched, version),
        )

    def load(self, app: str, sid: str) -> Row | None:
        return self.con.execute(
            "SELECT baseline, current, touched, version FROM sessions WHERE app = ? AND sid = ?", (app, sid)
        ).fetchone()

    def touch(self, app: str, sid: str, touched: float) -> None:
        self.con.execute("UPDATE sessions SET touched = ? WHERE app = ? AND sid = ?", (touched, app, sid))

    def delete(self, app: str, sid: str) -> None:
        self.con.execute("DELETE FROM sessions WHERE app = ? AND sid = ?", (app, sid))

    def sids(self, app: str) -> dict[str, float]:
        """Every persisted sid of `app` with its last-activity time."""
        return dict(self.con.execute("SELECT sid, touched FROM sessions WHERE app = ?", (app,)).fetchall())

    def close(self) -> None:
        self.con.close()
