"""Cross-app (Chromium -> Writer, and Chromium's settings): copy a bookmarks-bar folder's pages into
the "Daily pages" table of a Writer onboarding report, then make those pages Chromium's startup pages.
Data and wording: links_report.yaml.

The report's table starts with its header row only; the reward reads rows 2.. (name, address, in the
folder's order) with python-docx, and Preferences' session.* after the browser exited."""

from skills.chromium.families._gui import open_settings, switch_to_chromium
from skills.chromium.world import ORGS, sites
from skills.kit.guest.chromium import (
    all_bookmarks,
    bookmark_roots,
    pref,
    read_preferences,
    same_url,
    write_bookmarks,
    write_preferences,
)
from skills.kit.guest.docs import add_table, new_doc, open_doc, save_doc, text_of, texts_kept
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.guest.slides import norm
from skills.kit.teach import click, named, save_keeping_format


def draw(rng, pools):
    org = rng.choice(ORGS)
    chosen = sites(rng, 6, org=org)
    mode, mode_text = rng.choice(pools["modes"])
    return dict(
        org=org,
        pages=chosen[:3],
        loose=chosen[3:5],
        stale=chosen[5],
        folder=rng.choice(pools["folders"]),
        mode=mode,
        mode_text=mode_text,
        author=rng.choice(pools["authors"]),
        docx=f"Documents/{org}_onboarding.docx",
    )


def texts(P):
    """The report's paragraphs around the table (the task keeps them)."""
    org = P["org"].title()
    return {
        "title": f"Onboarding pack: {org}",
        "intro": f"Welcome to {org}. This pack lists what you need in your first week.",
        "heading": "Daily pages",
        "lead": "Open these every morning; Chromium opens them for you when it starts.",
        "signoff": f"Prepared by {P['author']}.",
    }


def initial_setup(P):
    def mark(site):
        return {"name": site["title"], "url": site["url"]}

    folder = {"name": P["folder"], "children": [mark(s) for s in P["pages"]]}
    write_bookmarks([mark(P["loose"][0]), folder, mark(P["loose"][1])])
    write_preferences({"session": {"restore_on_startup": P["mode"], "startup_urls": [P["stale"]["url"]]}})
    words = texts(P)
    doc = new_doc(P["author"])
    doc.add_heading(words["title"], level=1)
    doc.add_paragraph(words["intro"])
    doc.add_heading(words["heading"], level=2)
    doc.add_paragraph(words["lead"])
    add_table(doc, [["Page", "Address"]])
    doc.add_paragraph(words["signoff"])
    save_doc(doc, P["docx"])


def solve(P, *, mistake=None):
    doc = open_doc(P["docx"])
    table = doc.tables[0]
    for site in P["pages"]:
        cells = table.add_row().cells
        cells[0].text = site["title"]
        cells[1].text = "" if mistake == "names_only" else site["url"]
    save_doc(doc, P["docx"])
    if mistake != "report_only":
        write_preferences(
            {"session": {"restore_on_startup": 4, "startup_urls": [s["url"] for s in P["pages"]]}}
        )


def reward(P):
    import functools

    doc = functools.cache(lambda: open_doc(P["docx"]))
    pages = P["pages"]

    def rows():
        """(page, address) of the table's rows under its header, blank rows skipped."""
        found = []
        for row in doc().tables[0].rows[1:] if doc().tables else []:
            cells = [text_of(c._tc) for c in row.cells]
            if any(cells):
                found.append((cells[0], cells[1] if len(cells) > 1 else ""))
        return found

    def startup():
        prefs = read_preferences()
        return pref(prefs, "session.restore_on_startup"), pref(prefs, "session.startup_urls", []) or []

    @precondition("the report's other paragraphs are kept")
    def report_kept():
        return texts_kept(doc(), list(texts(P).values()))

    @precondition(f"the {P['folder']!r} folder still holds its bookmarks")
    def bookmarks_kept():
        marks = all_bookmarks(bookmark_roots())
        return all(any(same_url(url, s["url"]) for _, _, url in marks) for s in pages)

    @component("the table names the folder's pages, one row each, in order", 0.2)
    def names():
        found = rows()
        hits = sum(
            norm(n).casefold() == norm(s["title"]).casefold() for (n, _), s in zip(found, pages, strict=False)
        )
        return hits / max(len(found), len(pages))

    @component("the table gives each page's address on its row", 0.25)
    def addresses():
        found = rows()
        hits = sum(same_url(norm(a), s["url"]) for (_, a), s in zip(found, pages, strict=False))
        return hits / max(len(found), len(pages))

    @component("On startup opens a specific set of pages", 0.1)
    def specific_pages():
        return startup()[0] == 4

    @component("Chromium opens each of the folder's pages at startup", 0.3)
    def pages_listed():
        mode, urls = startup()
        return mode == 4 and sum(any(same_url(u, s["url"]) for u in urls) for s in pages) / len(pages)

    @component(f"{P['stale']['url']} no longer opens at startup", 0.15)
    def stale_gone():
        mode, urls = startup()
        return mode == 4 and not any(same_url(u, P["stale"]["url"]) for u in urls)


def demonstrate(P, screen):
    """Writer is on top with the report: find the header cell "Address" (ctrl+H), close the dialog,
    End, then Tab from the table's last cell adds a row per page (name, Tab, address); save keeping
    docx. Then alt+tab to Chromium: Settings > On startup, specific pages, add the folder's pages, remove
    the old one (adding first: removing the last page switches back to the New Tab page)."""
    key = lambda *keys: {"action": "key", "keys": list(keys)}  # noqa: E731
    stem = P["docx"].rsplit("/", 1)[1].rsplit(".", 1)[0]
    screen.wait_until(lambda: screen.has_window(stem), timeout_s=60, what="the report in Writer")
    yield [key("ctrl", "h")]
    screen.wait_until(lambda: screen.has_window("Find and Replace"), what="the Find and Replace dialog")
    label = screen.find(lambda e: e.role == "label" and e.name == "Find:", what="the Find: label")
    field = screen.find(
        lambda e: e.role == "text" and e.x > label.x and abs(e.y + e.h // 2 - (label.y + label.h // 2)) < 30,
        what="the Find field",
    )
    yield [click(field), key("ctrl", "a"), {"action": "type", "text": "Address"}]
    yield [click(screen.find(named("push-button", "Find Next"), what="Find Next"))]
    yield [{"action": "wait", "time": 0.5}, key("Escape")]  # the dialog closes, the match stays selected
    screen.wait_until(lambda: not screen.has_window("Find and Replace"), what="the dialog to close")
    yield [key("End")]
    for site in P["pages"]:
        yield [
            key("Tab"),
            {"action": "type", "text": site["title"]},
            key("Tab"),
            {"action": "type", "text": site["url"]},
        ]
    yield from save_keeping_format(screen)
    yield from switch_to_chromium(screen)
    yield from open_settings(screen, "onStartup", "On startup")
    choice = screen.find(
        lambda e: e.role == "radio-button" and e.name.startswith("Open a specific page"),
        what="the specific-pages choice",
    )
    yield [click(choice)]
    for site in P["pages"]:
        add = screen.find(named("link", "Add a new page"), what="the Add a new page link")
        yield [click(add)]
        field = screen.find(named("entry", "Site URL"), what="the Site URL field")
        yield [click(field), {"action": "type", "text": site["url"]}]
        yield [click(screen.find(named("push-button", "Add"), what="the Add button"))]
        screen.find(named("static", site["url"]), what=f"{site['url']} in the list")
    stale = screen.find(
        named("push-button", f"More actions for {P['stale']['url'].rstrip('/')}"), what="the old page's menu"
    )
    yield [click(stale)]
    yield [click(screen.find(named("menu-item", "Remove"), what="Remove"))]
    screen.wait_until(
        lambda: not screen.elements(named("static", P["stale"]["url"])), what="the old page to leave the list"
    )
