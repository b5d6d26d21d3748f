"""SQLite databases (Chromium's History and Web Data, Thunderbird's address book, ...): one unit per
row added, removed or changed, rows of a table matched by their rowid.

A database whose tables differ between the two states (one created or dropped), or that has a
table without rowids, is not refined: it stays one file-level unit. Corruption: the file keeps its
name but stops being a database.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from mutator.core import Corruption, Unit

MAGIC = b"SQLite format 3\x00"


def is_database(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def _tables(con: sqlite3.Connection) -> list[str]:
    rows = con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return sorted(r[0] for r in rows)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _rows(con: sqlite3.Connection, table: str) -> tuple[list[str], dict[int, tuple]]:
    cursor = con.execute(f"SELECT rowid, * FROM {_quote(table)}")
    columns = [d[0] for d in cursor.description][1:]
    return columns, {row[0]: tuple(row[1:]) for row in cursor}


def _read(path: Path) -> dict[str, tuple[list[str], dict[int, tuple]]]:
    con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return {table: _rows(con, table) for table in _tables(con)}
    finally:
        con.close()


def _write_row(rel: str, table: str, columns: list[str], rowid: int, values: tuple | None):
    """An op that makes row `rowid` of `table` hold `values` (None: no such row)."""

    def op(home: Path) -> None:
        con = sqlite3.connect(home / rel)
        try:
            with con:
                con.execute(f"DELETE FROM {_quote(table)} WHERE rowid = ?", (rowid,))
                if values is not None:
                    names = ", ".join(["rowid", *map(_quote, columns)])
                    marks = ", ".join("?" * (len(columns) + 1))
                    con.execute(f"INSERT INTO {_quote(table)} ({names}) VALUES ({marks})", (rowid, *values))
        finally:
            con.close()

    return op


def units(rel: str, initial: Path, golden: Path) -> list[Unit] | None:
    old, new = _read(initial), _read(golden)
    if set(old) != set(new):
        return None  # a table created or dropped: the file is one unit
    found = []
    for table in sorted(new):
        columns, before = old[table]
        columns_now, after = new[table]
        if columns != columns_now:
            return None
        for rowid in sorted(set(before) | set(after)):
            was, now = before.get(rowid), after.get(rowid)
            if was == now:
                continue
            change = "added" if was is None else "removed" if now is None else "changed"
            shown = dict(zip(columns, now if now is not None else was, strict=True))
            found.append(
                Unit(
                    "sqlite.row",
                    rel,
                    f"{rel}: {table} row {rowid} {change} ({str(shown)[:80]})",
                    revert=_write_row(rel, table, columns, rowid, was),
                    apply=_write_row(rel, table, columns, rowid, now),
                )
            )
    return found


def corruptions(rel: str, initial: Path | None, golden: Path) -> list[Corruption]:
    def garbage(home: Path) -> None:
        target = home / rel
        size = target.stat().st_size
        shutil.copyfile(golden, target)
        with open(target, "r+b") as fh:  # the header and first page overwritten: no longer a database
            fh.write(b"\x00" * min(size, 4096))

    return [Corruption("corrupt.not_a_database", rel, f"{rel} is no longer an SQLite database", garbage)]
