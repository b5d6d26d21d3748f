"""Mutation units of Thunderbird's profile files, through the real sandbox as tests/test_mutation.py
runs the office handlers: prefs.js (one unit per preference), mail folders stored as mbox files
without a suffix (one unit per message, matched by Message-ID, recognised by their content) and
msgFilterRules.dat (one unit per filter). The address book, abook.sqlite, is the SQLite handler's."""

from __future__ import annotations

from .test_mutation import by_what, inspect, mutate, pair

PROFILE = ".thunderbird/cuagym.default"

PREFS_SETUP = f"""
from pathlib import Path
# --
d = Path("/home/user/{PROFILE}")
d.mkdir(parents=True, exist_ok=True)
(d / "prefs.js").write_text('''// Mozilla User Preferences

user_pref("mail.identity.id1.fullName", "Dana Whitfield");
user_pref("mail.identity.id1.reply_on_top", 0);
user_pref("mail.identity.id1.sig_on_fwd", false);
user_pref("mailnews.start_page.enabled", false);
''')
"""
PREFS_PATCH = f"""
from pathlib import Path
path = Path("/home/user/{PROFILE}/prefs.js")
text = path.read_text()
text = text.replace('"mail.identity.id1.reply_on_top", 0', '"mail.identity.id1.reply_on_top", 1')
text = text.replace('user_pref("mail.identity.id1.sig_on_fwd", false);\\n', '')
text += 'user_pref("mail.identity.id1.htmlSigText", "Dana\\\\nAccounts");\\n'
path.write_text(text)
"""
PREFS = r"""
import re
return {m.group(1): m.group(2) for m in re.finditer(r'^user_pref\("([^"]+)", (.*)\);$', path.read_text(), re.M)}
"""


def test_prefs_js_preferences_added_removed_and_changed_are_units(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, PREFS_SETUP, PREFS_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "mail.identity.id1.htmlSigText added",
        "mail.identity.id1.reply_on_top changed",
        "mail.identity.id1.sig_on_fwd removed",
    ]
    found = inspect(guest_python, home, f"{PROFILE}/prefs.js", PREFS)
    dropped = found[by_what(plan, "drop", "prefs.pref", "reply_on_top")]
    assert dropped["mail.identity.id1.reply_on_top"] == "0"  # reverted
    assert dropped["mail.identity.id1.htmlSigText"] == '"Dana\\nAccounts"'  # the other changes kept
    assert "mail.identity.id1.sig_on_fwd" not in dropped
    assert found[by_what(plan, "drop", "prefs.pref", "sig_on_fwd")]["mail.identity.id1.sig_on_fwd"] == "false"
    only = found[by_what(plan, "only", "prefs.pref", "htmlSigText")]
    assert only["mail.identity.id1.reply_on_top"] == "0" and "mail.identity.id1.htmlSigText" in only
    assert only["mailnews.start_page.enabled"] == "false"  # untouched lines stay
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.not_prefs"]
    assert len(corrupt) == 1 and found[corrupt[0]] == {}


def message(ident: str, subject: str, status: str = "0000") -> str:
    return (
        f"From - Mon Apr 01 09:10:00 2024\nX-Mozilla-Status: {status}\nMessage-ID: <{ident}>\n"
        f"From: Ola Berg <ola@fabrikam.example>\nSubject: {subject}\n\nHello,\n>From the team.\n\n"
    )


MBOX_SETUP = f"""
from pathlib import Path
# --
d = Path("/home/user/{PROFILE}/Mail/mail.northwind.example")
d.mkdir(parents=True, exist_ok=True)
(d / "Inbox").write_text({message("m1@x", "One") + message("m2@x", "Two") + message("m3@x", "Three")!r})
(d / "Drafts").write_text("")
Path("/home/user/notes").write_text("From the desk of Dana\\nnothing else\\n")
"""
MBOX_PATCH = f"""
from pathlib import Path
d = Path("/home/user/{PROFILE}/Mail/mail.northwind.example")
(d / "Inbox").write_text({message("m1@x", "One") + message("m3@x", "Three", "0004") + message("m4@x", "Four")!r})
(d / "Drafts").write_text({message("d1@x", "Draft")!r})
local = Path("/home/user/{PROFILE}/Mail/Local Folders")
local.mkdir(parents=True, exist_ok=True)
(local / "Invoices").write_text({message("m2@x", "Two")!r})
Path("/home/user/notes").write_text("From the desk of Dana\\nsomething else\\n")
"""
MESSAGES = r"""
import re
data = path.read_bytes()
if data and not data.startswith(b"From "):
    raise ValueError("not an mbox")
ids = re.findall(rb"^Message-ID: <(.*)>$", data, re.M)
starred = re.findall(rb"^X-Mozilla-Status: 0004\nMessage-ID: <(.*)>$", data, re.M)
return [i.decode() + ("*" if i in starred else "") for i in ids]
"""


def test_mbox_folders_are_refined_per_message_by_their_content(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, MBOX_SETUP, MBOX_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    units = sorted((u["kind"], u["what"].rsplit("/", 1)[-1]) for u in plan["units"])
    assert units == [
        ("file.added", "Invoices created"),  # a new folder is one file
        ("file.content", "notes rewritten"),  # a text file starting with "From " is no mbox
        ("mbox.message", "Drafts: message <d1@x> added (Draft)"),  # an empty folder filled
        ("mbox.message", "Inbox: message <m2@x> removed (Two)"),
        ("mbox.message", "Inbox: message <m3@x> changed (Three)"),
        ("mbox.message", "Inbox: message <m4@x> added (Four)"),
    ], plan["units"]
    found = inspect(guest_python, home, f"{PROFILE}/Mail/mail.northwind.example/Inbox", MESSAGES)
    assert found[by_what(plan, "drop", "mbox.message", "m2@x")] == ["m1@x", "m2@x", "m3@x*", "m4@x"]
    assert found[by_what(plan, "drop", "mbox.message", "m3@x")] == ["m1@x", "m3@x", "m4@x"]
    assert found[by_what(plan, "drop", "mbox.message", "m4@x")] == ["m1@x", "m3@x*"]
    assert found[by_what(plan, "only", "mbox.message", "m3@x")] == ["m1@x", "m2@x", "m3@x*"]
    assert found[by_what(plan, "only", "mbox.message", "m4@x")] == ["m1@x", "m2@x", "m4@x", "m3@x"]
    drafts = inspect(guest_python, home, f"{PROFILE}/Mail/mail.northwind.example/Drafts", MESSAGES)
    assert drafts[by_what(plan, "drop", "mbox.message", "d1@x")] == []
    corrupt = [m for m in plan["mutants"] if m["unit_kind"] == "corrupt.not_a_folder"]
    assert sorted(m["path"].rsplit("/", 1)[-1] for m in corrupt) == ["Drafts", "Inbox", "Invoices"]
    assert all(found[m["id"]].startswith("invalid") for m in corrupt if m["path"].endswith("Inbox"))


FILTERS = f"{PROFILE}/Mail/mail.northwind.example/msgFilterRules.dat"
FILTER_SETUP = f"""
from pathlib import Path
# --
path = Path("/home/user/{FILTERS}")
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text('''version="9"
logging="no"
name="Newsletters"
enabled="yes"
type="17"
action="Move to folder"
actionValue="mailbox://nobody@Local%20Folders/Newsletters"
condition="AND (from,contains,news@)"
name="Old rule"
enabled="no"
type="17"
action="Mark read"
condition="ALL"
''')
"""
FILTER_PATCH = f"""
from pathlib import Path
path = Path("/home/user/{FILTERS}")
text = path.read_text().replace('enabled="no"', 'enabled="yes"')
text += '''name="Receipts"
enabled="yes"
type="17"
action="Move to folder"
actionValue="mailbox://nobody@Local%20Folders/Receipts"
condition="AND (subject,contains,receipt)"
'''
path.write_text(text)
"""
NAMES = r"""
import re
text = path.read_text()
if not text.startswith('version="'):
    raise ValueError("not a filter list")
return re.findall(r'^name="(.*)"\nenabled="(\w+)"', text, re.M)
"""


def test_filter_lists_are_refined_per_filter(tmp_path, guest_python):
    initial, golden = pair(tmp_path, guest_python, FILTER_SETUP, FILTER_PATCH)
    plan, home = mutate(tmp_path, guest_python, initial, golden)
    assert sorted(u["what"].split(": ", 1)[1] for u in plan["units"]) == [
        "filter 'Old rule' changed",
        "filter 'Receipts' added",
    ]
    found = inspect(guest_python, home, FILTERS, NAMES)
    assert found[by_what(plan, "drop", "filters.filter", "Receipts")] == [
        ["Newsletters", "yes"],
        ["Old rule", "yes"],
    ]
    assert found[by_what(plan, "drop", "filters.filter", "Old rule")] == [
        ["Newsletters", "yes"],
        ["Old rule", "no"],
        ["Receipts", "yes"],
    ]
    corrupt = [m["id"] for m in plan["mutants"] if m["unit_kind"] == "corrupt.not_filters"]
    assert len(corrupt) == 1 and found[corrupt[0]].startswith("invalid")
