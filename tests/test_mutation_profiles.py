"""Mutation units of the desktop apps' profile files, through the real sandbox as tests/test_mutation.py
runs the office handlers: SQLite databases (Chromium's Web Data and History, Thunderbird's address
book: one unit per row added, removed or changed) and Chromium's suffix-less JSON files (Preferences,
Bookmarks: one unit per key)."""

from __future__ import annotations

from .test_mutation import by_what, inspect, mutate, pair

DB = ".config/chromium/Default/Web Data"

SETUP = f"""
import sqlite3
from pathlib import Path
# --
path = Path("/home/user/{DB}")
path.parent.mkdir(parents=True, exist_ok=True)
con = sqlite3.connect(path)
con.execute("CREATE TABLE keywords (id INTEGER PRIMARY KEY, short_name TEXT, keyword TEXT, url TEXT)")
con.executemany("INSERT INTO keywords VALUES (?, ?, ?, ?)", [
    (1, "DuckDuckGo", "duckduckgo.com", "https://duckduckgo.com/?q={{searchTerms}}"),
    (2, "Wiki", "w", "https://wiki.old.example/?q={{searchTerms}}"),
    (3, "Tickets", "t", "https://tickets.example/?q={{searchTerms}}"),
])
con.commit()
con.close()
"""
PATCH = f"""
import sqlite3
con = sqlite3.connect("/home/user/{DB}")
con.execute("INSERT INTO keywords VALUES (4, 'Builds', 'b', 'https://builds.example/?q={{searchTerms}}')")
con.execute("DELETE FROM keywords WHERE id = 3")
con.execute("UPDATE keywords SET url = 'https://wiki.new.example/?q={{searchTerms}}' WHERE id = 2")
con.commit()
con.close()
"""
ROWS = """
import sqlite3
con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
rows = con.execute("SELECT id, keyword, url FROM keywords ORDER BY id").fetchall()
con.close()
return [list(r) for r in rows]
"""


def test_database_rows_added_removed_and_changed_are_units(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, SETUP, PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    units = sorted(u["what"].split(": ", 1)[1][:24] for u in plan["units"])
    assert [u["kind"] for u in plan["units"]] == ["sqlite.row"] * 3, plan["units"]
    assert units == ["keywords row 2 changed (", "keywords row 3 removed (", "keywords row 4 added ({'"]
    found = inspect(guest_python, home, DB, ROWS)
    # each drop reverts one row change and keeps the other two; each only makes one of them
    assert found[by_what(plan, "drop", "sqlite.row", "row 4 added")] == [
        [1, "duckduckgo.com", "https://duckduckgo.com/?q={searchTerms}"],
        [2, "w", "https://wiki.new.example/?q={searchTerms}"],
    ]
    assert found[by_what(plan, "drop", "sqlite.row", "row 3 removed")][2] == [
        3, "t", "https://tickets.example/?q={searchTerms}"
    ]  # fmt: skip
    assert found[by_what(plan, "only", "sqlite.row", "row 2 changed")] == [
        [1, "duckduckgo.com", "https://duckduckgo.com/?q={searchTerms}"],
        [2, "w", "https://wiki.new.example/?q={searchTerms}"],
        [3, "t", "https://tickets.example/?q={searchTerms}"],
    ]
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.not_a_database"]
    assert len(corrupt) == 1 and found[corrupt[0]].startswith("invalid: DatabaseError")


def test_a_new_table_leaves_the_database_one_unit(tmp_path, guest_python):
    patch = f"""
import sqlite3
con = sqlite3.connect("/home/user/{DB}")
con.execute("CREATE TABLE extra (x TEXT)")
con.commit()
con.close()
from pathlib import Path
Path("/home/user/notes.txt").write_text("and a second change")
"""
    initial, golden = pair(tmp_path, guest_python, SETUP, patch)
    plan, _ = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["kind"] for u in plan["units"]) == ["file.added", "file.content"], plan["units"]


def test_chromium_preferences_and_bookmarks_are_json_by_their_names(tmp_path, guest_python):
    setup = """
import json
from pathlib import Path
# --
d = Path("/home/user/.config/chromium/Default")
d.mkdir(parents=True)
(d / "Preferences").write_text(json.dumps({"session": {"restore_on_startup": 5, "startup_urls": ["https://a.example/"]}}))
(d / "Bookmarks").write_text(json.dumps({"roots": {"bookmark_bar": {"children": []}}, "version": 1}))
"""
    patch = """
import json
from pathlib import Path
d = Path("/home/user/.config/chromium/Default")
prefs = json.loads((d / "Preferences").read_text())
prefs["session"] = {"restore_on_startup": 4, "startup_urls": ["https://b.example/"]}
(d / "Preferences").write_text(json.dumps(prefs))
"""
    initial, golden = pair(tmp_path, guest_python, setup, patch)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "session.restore_on_startup changed",
        "session.startup_urls changed",
    ]
    found = inspect(
        guest_python, home, ".config/chromium/Default/Preferences", "return json.loads(path.read_text())"
    )
    assert found[by_what(plan, "drop", "json.key", "restore_on_startup")]["session"] == {
        "restore_on_startup": 5,
        "startup_urls": ["https://b.example/"],
    }
