"""Mutation units of Chromium's Bookmarks file (tasks/mutation/guest/mutator/bookmarks.py), through the
real sandbox as tests/test_mutation.py runs the other handlers: one unit per bookmark or folder
added, removed, moved or changed, never one for the whole bar."""

from __future__ import annotations

from .test_mutation import by_what, inspect, mutate, pair

REL = ".config/chromium/Default/Bookmarks"

SETUP = f"""
import json
from pathlib import Path
def url(name, host):
    return {{"type": "url", "name": name, "url": f"https://{{host}}.example/"}}
def write(bar):
    path = Path("/home/user/{REL}")
    path.parent.mkdir(parents=True, exist_ok=True)
    roots = {{"bookmark_bar": {{"type": "folder", "name": "Bookmarks bar", "children": bar}},
             "other": {{"type": "folder", "name": "Other bookmarks", "children": [url("News", "news")]}}}}
    path.write_text(json.dumps({{"checksum": "abc", "roots": roots, "version": 1}}))
# --
write([url("Wiki", "wiki"), url("Tickets", "tickets"), url("Payroll", "payroll"), url("HR", "hr")])
"""
# a folder made on the bar, two bookmarks moved into it, one deleted, one renamed; the checksum dropped
PATCH = """
write([url("HR portal", "hr"), {"type": "folder", "name": "Daily", "children": [url("Wiki", "wiki"), url("Tickets", "tickets")]}])
"""  # noqa: E501
FACTS = """
roots = json.loads(path.read_text())["roots"]
def names(folder):
    return [c["name"] if c["type"] == "url" else {c["name"]: names(c)} for c in folder.get("children", [])]
return {key: names(folder) for key, folder in roots.items()}
"""


def test_each_bookmark_and_folder_is_a_unit(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, SETUP, PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "bookmark 'https://hr.example/' changed (name)",
        "bookmark 'https://payroll.example/' removed from bookmark_bar",
        "bookmark 'https://tickets.example/' moved from bookmark_bar to 'Daily'",
        "bookmark 'https://wiki.example/' moved from bookmark_bar to 'Daily'",
        "folder 'Daily' added to bookmark_bar",
    ]
    found = inspect(guest_python, home, REL, FACTS)
    other = ["News"]
    # drop: the golden bar with one change undone
    assert found[by_what(plan, "drop", "bookmarks.node", "wiki.example/' moved")] == {
        "bookmark_bar": ["Wiki", "HR portal", {"Daily": ["Tickets"]}],
        "other": other,
    }
    assert found[by_what(plan, "drop", "bookmarks.node", "payroll")]["bookmark_bar"] == [
        "HR portal", {"Daily": ["Wiki", "Tickets"]}, "Payroll"
    ]  # fmt: skip
    assert found[by_what(plan, "drop", "bookmarks.node", "changed (name)")]["bookmark_bar"][0] == "HR"
    # undoing the folder lifts what it holds onto the bar (their own units move them)
    assert found[by_what(plan, "drop", "bookmarks.node", "folder 'Daily'")]["bookmark_bar"] == [
        "HR portal", "Wiki", "Tickets"
    ]  # fmt: skip
    # only: the initial bar with one change made; a move into a missing folder makes the folder
    assert found[by_what(plan, "only", "bookmarks.node", "tickets.example/' moved")]["bookmark_bar"] == [
        "Wiki", {"Daily": ["Tickets"]}, "Payroll", "HR"
    ]  # fmt: skip
    assert found[by_what(plan, "only", "bookmarks.node", "folder 'Daily'")]["bookmark_bar"] == [
        "Wiki", {"Daily": []}, "Tickets", "Payroll", "HR"
    ]  # fmt: skip
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.wrong_format"]
    assert len(corrupt) == 1 and found[corrupt[0]].startswith("invalid: JSONDecodeError")


def test_a_reordered_bar_stays_key_units(tmp_path, guest_python):
    patch = """
write([url("HR", "hr"), url("Wiki", "wiki"), url("Tickets", "tickets"), url("Payroll", "payroll")])
"""
    initial, golden = pair(tmp_path, guest_python, SETUP, patch)
    plan, _ = mutate(tmp_path, guest_python, initial, golden)
    assert [u["what"].split(": ", 1)[1] for u in plan["units"]] == ["roots.bookmark_bar.children changed"]
