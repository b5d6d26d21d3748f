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
    PRIMARY KEY (app, sid)
) WITHOUT ROWID
"""


class SessionDB:
    """Rows of (app, sid) -> (baseline, current, touched); every method is its own transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # check_same_thread=False: the lifespan opens it, requests use it, all on one event loop.
        self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=NORMAL")
        self.con.execute(SCHEMA)

    def save(self, app: str, sid: str, baseline: bytes | None, current: bytes | None, touched: float) -> None:
        self.con.execute(
            "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?, ?)", (app, sid, baseline, current, touched)
        )

    def load(self, app: str, sid: str) -> tuple[bytes | None, bytes | None, float] | None:
        return self.con.execute(
            "SELECT baseline, current, touched FROM sessions WHERE app = ? AND sid = ?", (app, sid)
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
