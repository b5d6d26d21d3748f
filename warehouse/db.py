"""DuckDB access: connections, transactions, migrations, and SQL loaded by name.

Concurrency model (DuckDB allows one read-write process per file): the synthesis process is the
only writer and opens the file only for the length of one short transaction, so the lock is free
between steps. Analysts never open the live file: they read a *snapshot* copy refreshed by the
writer (see `warehouse.store.Warehouse.refresh_snapshot`), so a reader never blocks the writer.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import duckdb

from infra.errors import WarehouseError, WarehouseLockedError

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
MIGRATIONS = HERE / "migrations"
SQL_DIR = HERE / "sql"
VIEWS = HERE / "views.sql"
# Writers hold the file only for one short transaction, but several processes writing at once (a
# synth and quality runs side by side) on a loaded 2-core host queue for seconds each: 20 s lost a
# 10-minute quality run at load 24, so a writer waits this long before giving up.
LOCK_WAIT_S = 120.0
# How readers of the snapshot open it (`cuagym sql`, reports): no file system, network or extension
# beyond the database file itself, no scans of Python variables, and settings that no statement can
# change back (SET and RESET fail once the configuration is locked).
SEALED_READER: dict[str, object] = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "python_enable_replacements": False,
    "lock_configuration": True,
}


@lru_cache(maxsize=64)
def sql(name: str) -> str:
    """The text of warehouse/sql/<name>.sql."""
    path = SQL_DIR / f"{name}.sql"
    if not path.exists():
        raise WarehouseError(f"no named query {name!r}", hint=f"add {path}")
    return path.read_text()


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


def connect(
    path: Path,
    *,
    read_only: bool = False,
    wait_s: float = LOCK_WAIT_S,
    config: dict[str, object] | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open `path` (with DuckDB `config`, e.g. SEALED_READER); waits up to `wait_s` for another
    process's write lock before raising."""
    if read_only and not path.exists():
        raise WarehouseError(f"no warehouse at {path}", hint="run `cuagym synth` first, or pass --warehouse")
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait_s
    delay = 0.02
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config or {})
        except duckdb.IOException as exc:
            if not _is_lock_error(exc):
                raise WarehouseError(f"cannot open {path}: {exc}", hint="is it a DuckDB file?") from exc
            if time.monotonic() >= deadline:
                raise WarehouseLockedError(
                    f"{path} is locked by another process: {exc}",
                    hint="another `cuagym synth` is writing; wait for it, or query the snapshot with `cuagym sql`",
                ) from exc
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
            continue
        if not read_only:
            owner_only(path)
            owner_only(path.with_name(path.name + ".wal"))
        return con


def owner_only(path: Path) -> None:
    """Make a warehouse file 0600 (DuckDB creates its files with the umask's 0644): it holds every
    script, review and score, and the writer is root."""
    with contextlib.suppress(FileNotFoundError):
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    con.execute("BEGIN TRANSACTION")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def migrate(con: duckdb.DuckDBPyConnection) -> int:
    """Apply pending migrations in order, then (re)create the views; returns the schema version."""
    con.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP)"
    )
    applied = {row[0] for row in con.execute("SELECT version FROM schema_migrations").fetchall()}
    version = max(applied, default=0)
    for path in sorted(MIGRATIONS.glob("*.sql")):
        number = int(path.name.split("_", 1)[0])
        if number in applied:
            continue
        with transaction(con):
            con.execute(path.read_text())
            con.execute("INSERT INTO schema_migrations VALUES (?, now())", [number])
        log.info("warehouse migrated to version %d", number)
        version = number
    con.execute(VIEWS.read_text())
    return version
