"""Chromium: open a chosen set of pages at startup. Data and wording: startup_pages.yaml.

The initial profile starts with the New Tab page or the last session and keeps one stale startup
page; the task sets "Open a specific page or set of pages" to exactly two new pages. The reward reads
Preferences after the browser exited (the desktop asks it to quit before grading)."""

from skills.chromium.families._gui import open_settings
from skills.chromium.world import sites
from skills.kit.guest.chromium import pref, read_preferences, write_preferences
from skills.kit.guest.rewardkit import component
from skills.kit.teach import click, named


def draw(rng, pools):
    pages = sites(rng, 3)
    mode, mode_text = rng.choice(pools["modes"])
    return dict(pages=pages[:2], stale=pages[2], mode=mode, mode_text=mode_text)


def initial_setup(P):
    write_preferences({"session": {"restore_on_startup": P["mode"], "startup_urls": [P["stale"]["url"]]}})


def solve(P, *, mistake=None):
    wanted = [page["url"] for page in P["pages"]]
    if mistake == "one_page":
        wanted = wanted[:1]
    if mistake == "stale_kept":
        wanted = [P["stale"]["url"], *wanted]
    write_preferences({"session": {"restore_on_startup": 4, "startup_urls": wanted}})


def same_url(a, b):
    """Chromium stores a typed URL with a trailing slash on a bare host; the case of a host is free."""
    return str(a).rstrip("/").lower() == str(b).rstrip("/").lower()


def reward(P):
    def startup():
        prefs = read_preferences()
        return pref(prefs, "session.restore_on_startup"), pref(prefs, "session.startup_urls", []) or []

    @component("On startup opens a specific set of pages", 0.2)
    def specific_pages():
        return startup()[0] == 4

    for page in P["pages"]:

        @component(f"{page['url']} opens at startup", 0.3)
        def page_listed(page=page):
            mode, urls = startup()
            return mode == 4 and any(same_url(u, page["url"]) for u in urls)

    @component(f"{P['stale']['url']} no longer opens at startup", 0.2)
    def stale_gone():
        mode, urls = startup()
        return mode == 4 and not any(same_url(u, P["stale"]["url"]) for u in urls)


def demonstrate(P, screen):
    """Settings > On startup: choose specific pages, add the two pages (before removing the old one:
    removing the last page switches back to the New Tab page), then remove the old page."""
    yield from open_settings(screen, "onStartup", "On startup")
    choice = screen.find(
        lambda e: e.role == "radio-button" and e.name.startswith("Open a specific page"),
        what="the specific-pages choice",
    )
    yield [click(choice)]
    for page in P["pages"]:
        add = screen.find(named("link", "Add a new page"), what="the Add a new page link")
        yield [click(add)]
        field = screen.find(named("entry", "Site URL"), what="the Site URL field")
        yield [click(field), {"action": "type", "text": page["url"]}]
        yield [click(screen.find(named("push-button", "Add"), what="the Add button"))]
        screen.find(named("static", page["url"]), what=f"{page['url']} in the list")
    stale = screen.find(
        named("push-button", f"More actions for {P['stale']['url'].rstrip('/')}"), what="the old page's menu"
    )
    yield [click(stale)]
    yield [click(screen.find(named("menu-item", "Remove"), what="Remove"))]
    screen.wait_until(
        lambda: not screen.elements(named("static", P["stale"]["url"])), what="the old page to leave the list"
    )
