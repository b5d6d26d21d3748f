"""Guest helpers of the Thunderbird families: the Personal Address Book (abook.sqlite in the profile:
tables cards, properties, lists, list_cards; each contact's vCard 4.0 in its `_vCard` property) that a
setup writes and a reward reads. The profile and mail are in thunderbird.py.

Every function is self-contained (imports inside the body): render_script pastes its source.
"""

from __future__ import annotations

from skills.kit.guest.thunderbird import tb_profile


def tb_vcard(contact):
    """A contact's vCard 4.0 text as Thunderbird stores it (`_vCard` property). `contact`: {"uid",
    "first", "last", "display", "email", optional "phone", "org", "title"}."""

    def esc(value):
        return str(value).replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")

    lines = ["BEGIN:VCARD", "VERSION:4.0", f"N:{esc(contact['last'])};{esc(contact['first'])};;;"]
    lines.append(f"FN:{esc(contact['display'])}")
    lines.append(f"EMAIL;PREF=1:{contact['email']}")
    if contact.get("phone"):
        lines.append(f"TEL;VALUE=TEXT:{esc(contact['phone'])}")
    if contact.get("title"):
        lines.append(f"TITLE:{esc(contact['title'])}")
    if contact.get("org"):
        lines.append(f"ORG:{esc(contact['org'])}")
    lines += [f"UID:{contact['uid']}", "END:VCARD"]
    return "\r\n".join(lines) + "\r\n"


def tb_write_address_book(contacts, lists=()):
    """Write the Personal Address Book (abook.sqlite, Thunderbird's schema version 4) holding
    `contacts` (tb_vcard's dicts) and mailing `lists` ({"uid", "name", "nick", "description",
    "members": [contact uids]})."""
    import sqlite3

    path = tb_profile() / "abook.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if stale.exists():
            stale.unlink()
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute("CREATE TABLE properties (card TEXT, name TEXT, value TEXT)")
            con.execute(
                "CREATE TABLE lists (uid TEXT PRIMARY KEY, name TEXT, nickName TEXT, description TEXT)"
            )
            con.execute("CREATE TABLE list_cards (list TEXT, card TEXT, PRIMARY KEY(list, card))")
            con.execute("CREATE INDEX properties_card ON properties(card)")
            con.execute("CREATE INDEX properties_name ON properties(name)")
            for contact in contacts:
                rows = [
                    ("PopularityIndex", "0"),
                    ("LastModifiedDate", "1704067200"),
                    ("_vCard", tb_vcard(contact)),
                    ("DisplayName", contact["display"]),
                    ("FirstName", contact["first"]),
                    ("LastName", contact["last"]),
                    ("PrimaryEmail", contact["email"]),
                ]
                con.executemany(
                    "INSERT INTO properties (card, name, value) VALUES (?, ?, ?)",
                    [(contact["uid"], name, value) for name, value in rows],
                )
            for item in lists:
                con.execute(
                    "INSERT INTO lists (uid, name, nickName, description) VALUES (?, ?, ?, ?)",
                    (item["uid"], item["name"], item.get("nick", ""), item.get("description", "")),
                )
                con.executemany(
                    "INSERT INTO list_cards (list, card) VALUES (?, ?)",
                    [(item["uid"], m) for m in item["members"]],
                )
        con.execute("PRAGMA user_version = 4")
    finally:
        con.close()


def tb_parse_vcard(text):
    """{property name (upper case): [values]} of a vCard, values unescaped; the structured N and
    ORG values keep their ';'-separated parts as a list."""
    found = {}
    unfolded = str(text or "").replace("\r\n ", "").replace("\n ", "")
    for line in unfolded.replace("\r\n", "\n").split("\n"):
        if ":" not in line:
            continue
        head, value = line.split(":", 1)
        name = head.split(";", 1)[0].split(".")[-1].upper()
        parts, current, i = [], "", 0
        while i < len(value):
            ch = value[i]
            if ch == "\\" and i + 1 < len(value):
                nxt = value[i + 1]
                current += "\n" if nxt in "nN" else nxt
                i += 2
                continue
            if ch == ";":
                parts.append(current)
                current = ""
            else:
                current += ch
            i += 1
        parts.append(current)
        found.setdefault(name, []).append(parts if name in ("N", "ORG", "ADR") else ";".join(parts))
    return found


def tb_read_address_book():
    """The Personal Address Book after Thunderbird exited: ({card uid: contact}, [lists]). A contact
    is {"uid", "display", "first", "last", "emails" (lower case), "phones", "org", "title",
    "properties"}; a list is {"uid", "name", "nick", "description", "members" (card uids)}.
    FileNotFoundError before the book exists; a file that is no SQLite address book holds nothing.
    Opened read-only (its WAL, which Thunderbird leaves beside it, is read too)."""
    import sqlite3

    path = tb_profile() / "abook.sqlite"
    if not path.exists():
        raise FileNotFoundError(str(path))
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        props = con.execute("SELECT card, name, value FROM properties").fetchall()
        lists = con.execute("SELECT uid, name, nickName, description FROM lists").fetchall()
        members = con.execute("SELECT list, card FROM list_cards").fetchall()
    except sqlite3.DatabaseError:  # not an address book (any more): it holds no contact
        return {}, []
    finally:
        con.close()
    cards = {}
    for card, name, value in props:
        cards.setdefault(card, {})[name] = value
    contacts = {}
    for uid, values in cards.items():
        vcard = tb_parse_vcard(values.get("_vCard", ""))
        names = (vcard.get("N") or [[""]])[0]
        org = (vcard.get("ORG") or [[""]])[0]
        emails = [e.strip().lower() for e in vcard.get("EMAIL", [])]
        if values.get("PrimaryEmail") and values["PrimaryEmail"].strip().lower() not in emails:
            emails.insert(0, values["PrimaryEmail"].strip().lower())
        contacts[uid] = {
            "uid": uid,
            "display": (vcard.get("FN") or [values.get("DisplayName", "")])[0],
            "first": names[1] if len(names) > 1 else values.get("FirstName", ""),
            "last": names[0] if names else values.get("LastName", ""),
            "emails": emails,
            "phones": list(vcard.get("TEL", [])),
            "org": org[0] if org else "",
            "title": (vcard.get("TITLE") or [""])[0],
            "properties": values,
        }
    found_lists = [
        {
            "uid": uid,
            "name": name or "",
            "nick": nick or "",
            "description": description or "",
            "members": sorted(card for lst, card in members if lst == uid),
        }
        for uid, name, nick, description in lists
    ]
    return contacts, found_lists


def tb_add_contact(contact, lists=()):
    """Add one contact (its vCard, as the only property a reader needs) to an existing Personal
    Address Book, and add it to the mailing lists named in `lists` (their uids)."""
    import sqlite3

    con = sqlite3.connect(tb_profile() / "abook.sqlite")
    try:
        with con:
            con.execute(
                "INSERT INTO properties (card, name, value) VALUES (?, '_vCard', ?)",
                (contact["uid"], tb_vcard(contact)),
            )
            for uid in lists:
                con.execute("INSERT INTO list_cards (list, card) VALUES (?, ?)", (uid, contact["uid"]))
    finally:
        con.close()


def tb_add_list(item):
    """Add a mailing list ({"uid", "name", "nick", "description", "members": [card uids]}) to an
    existing Personal Address Book."""
    import sqlite3

    con = sqlite3.connect(tb_profile() / "abook.sqlite")
    try:
        with con:
            con.execute(
                "INSERT INTO lists (uid, name, nickName, description) VALUES (?, ?, ?, ?)",
                (item["uid"], item["name"], item.get("nick", ""), item.get("description", "")),
            )
            con.executemany(
                "INSERT INTO list_cards (list, card) VALUES (?, ?)",
                [(item["uid"], m) for m in item["members"]],
            )
    finally:
        con.close()
