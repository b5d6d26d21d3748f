"""Chromium: make a prepopulated engine the default and add a site search. Data and wording:
search_setup.yaml.

The default engine the user picks lives in Preferences (default_search_provider_data), the site
searches in the SQLite file Web Data (table keywords). The setup writes Web Data as Chromium 156 keeps
it, with one older site search that must stay; Chromium adds its prepopulated engines when it first
opens it. The reward reads both files after the browser exited (Web Data read-only)."""

import uuid

from skills.chromium.families._gui import open_settings, quit_browser, scrolled_to
from skills.chromium.world import ORGS, SERVICES, site
from skills.kit.guest.chromium import (
    add_site_search,
    default_search_engine,
    pref,
    read_preferences,
    search_engines,
    write_preferences,
    write_search_engines,
)
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named


def draw(rng, pools):
    name, keyword, url, prepopulate_id = rng.choice(pools["engines"])
    org = rng.choice(ORGS)
    wanted, kept = (site(org, s) for s in rng.sample(sorted(SERVICES), 2))
    for one, path in zip((wanted, kept), rng.sample(pools["paths"], 2), strict=True):
        one["keyword"] = one["service"][:2] if rng.random() < 0.5 else one["service"]
        one["search"] = one["url"] + path
    if wanted["keyword"] == kept["keyword"]:
        wanted["keyword"] = wanted["service"]
    kept["guid"] = str(
        uuid.UUID(int=rng.getrandbits(128), version=4)
    )  # fixed: every setup writes the same row
    kept["date"] = 13_380_000_000_000_000 + rng.randrange(
        10**13
    )  # some months before the task, Chromium's clock
    engine = dict(name=name, keyword=keyword, url=url, id=prepopulate_id)
    return dict(engine=engine, site=wanted, kept=kept)


def initial_setup(P):
    write_preferences({"browser": {"has_seen_welcome_page": True}})
    kept = P["kept"]
    row = {"short_name": kept["title"], "keyword": kept["keyword"], "url": kept["search"]}
    write_search_engines([{**row, "guid": kept["guid"], "date": kept["date"]}])


def solve(P, *, mistake=None):
    engine = P["engine"]
    if mistake != "default_unchanged":
        data = {"short_name": engine["name"], "keyword": engine["keyword"], "url": engine["url"]}
        data["prepopulate_id"] = engine["id"]
        write_preferences({"default_search_provider_data": {"template_url_data": data}})
    if mistake != "no_site_search":
        add_site_search(P["site"]["title"], P["site"]["keyword"], P["site"]["search"])


def reward(P):
    engine, wanted, kept = P["engine"], P["site"], P["kept"]

    def row(keyword):
        return next((r for r in search_engines() if r["keyword"] == keyword), None)

    def query_url(found):
        return str(found["url"]).replace("{searchTerms}", "%s").lower()

    @precondition(f"the {kept['title']} site search is unchanged")
    def kept_stays():
        found = row(kept["keyword"])
        return found is not None and query_url(found) == kept["search"].lower()

    @component(f"{engine['name']} is the default search engine", 0.4)
    def default_engine():
        prefs = read_preferences()
        chosen = default_search_engine(prefs) or {}
        data = pref(prefs, "default_search_provider_data.template_url_data", {}) or {}
        return (
            chosen.get("short_name") == engine["name"]
            and chosen.get("keyword") == engine["keyword"]
            and data.get("prepopulate_id") == engine["id"]
            and engine["keyword"] in str(data.get("url", ""))
        )

    @component(f"a site search with the shortcut {wanted['keyword']!r} exists", 0.2)
    def shortcut():
        return row(wanted["keyword"]) is not None

    @component(f"{wanted['keyword']!r} searches {wanted['search']}", 0.25)
    def searches():
        found = row(wanted["keyword"])
        return found is not None and query_url(found) == wanted["search"].lower()

    @component(f"the site search is named {wanted['title']!r}", 0.15)
    def named_right():
        found = row(wanted["keyword"])
        return found is not None and found["short_name"] == wanted["title"]


def demonstrate(P, screen):
    """Manage search engines and site search: the engine's More actions > Make default, then the Site
    search section's Add dialog (Name, Shortcut, URL with %s); then close the browser, which saves."""
    engine, wanted = P["engine"], P["site"]
    yield from open_settings(screen, "searchEngines", "Manage search engines and site search")
    more = yield from scrolled_to(
        screen, named("push-button", f"More actions for {engine['name']}"), what=f"{engine['name']}'s menu"
    )
    yield [click(more)]
    yield [click(screen.find(named("menu-item", "Make default"), what="Make default"))]
    screen.find(named("static", f"{engine['name']} (Default)"), what=f"{engine['name']} as the default")
    add = yield from scrolled_to(
        screen,
        named("push-button", "Click to open Add Site Search dialog"),
        what="the site search Add button",
    )
    yield [click(add)]
    for label, text in (
        ("Name", wanted["title"]),
        ("Shortcut", wanted["keyword"]),
        ("URL", wanted["search"]),
    ):
        field = screen.find(lambda e, label=label: e.role == "entry" and e.name.startswith(label), what=label)
        yield [click(field), {"action": "type", "text": text}]
    yield [click(screen.find(named("push-button", "Add"), what="the dialog's Add button"))]
    screen.find(named("static", wanted["title"]), what="the new site search in the list")
    yield from quit_browser(screen)
