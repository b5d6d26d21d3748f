"""Chromium: make a folder on the bookmarks bar, move two bookmarks into it, delete a retired one.
Data and wording: bookmark_folders.yaml.

The profile's Bookmarks file starts with six intranet bookmarks on the bar and one under Other
bookmarks; the reward reads the file after the browser exited. Bookmarks are known by their URL (a
person may rename one while moving it)."""

from skills.chromium.families._gui import open_page, quit_browser
from skills.chromium.world import ORGS, sites
from skills.kit.guest.chromium import (
    all_bookmarks,
    bookmark_folder,
    bookmark_roots,
    same_url,
    write_bookmarks,
)
from skills.kit.guest.rewardkit import component, precondition
from skills.kit.teach import click, named


def draw(rng, pools):
    org, elsewhere = rng.sample(ORGS, 2)
    bar = sites(rng, 6, org=org)
    *moved, retired = rng.sample(bar, 3)
    other = sites(rng, 1, org=elsewhere)[0]
    return dict(bar=bar, moved=moved, retired=retired, other=other, folder=rng.choice(pools["folders"]))


def bookmark(site):
    return {"name": site["title"], "url": site["url"]}


def initial_setup(P):
    write_bookmarks([bookmark(s) for s in P["bar"]], [bookmark(P["other"])])


def solve(P, *, mistake=None):
    moved = [s["url"] for s in P["moved"]]
    keep = [bookmark(s) for s in P["bar"] if s["url"] not in moved and s["url"] != P["retired"]["url"]]
    if mistake == "copied":
        keep = [bookmark(s) for s in P["bar"] if s["url"] != P["retired"]["url"]]
    if mistake == "retired_kept":
        keep = [bookmark(s) for s in P["bar"] if s["url"] not in moved]
    folder = {"name": P["folder"], "children": [bookmark(s) for s in P["moved"]]}
    write_bookmarks([*keep, folder], [bookmark(P["other"])])


def reward(P):
    def bar():
        return bookmark_roots()["bookmark_bar"]

    def on_bar(url):
        return any(c.get("type") == "url" and same_url(c.get("url"), url) for c in bar().get("children", []))

    stay = [s for s in P["bar"] if s not in P["moved"] and s != P["retired"]]

    @precondition("the other bookmarks are still on the bar")
    def others_stay():
        return all(on_bar(s["url"]) for s in stay)

    @component(f"a folder {P['folder']!r} is on the bookmarks bar", 0.2)
    def folder_made():
        return bookmark_folder(bar(), P["folder"]) is not None

    for site in P["moved"]:

        @component(
            f"{site['title']} ({site['url']}) is in {P['folder']!r} and no longer loose on the bar", 0.25
        )
        def moved(site=site):
            folder = bookmark_folder(bar(), P["folder"])
            inside = folder is not None and any(
                c.get("type") == "url" and same_url(c.get("url"), site["url"])
                for c in folder.get("children", [])
            )
            return inside and not on_bar(site["url"])

    @component(f"the retired bookmark {P['retired']['url']} is deleted", 0.3)
    def retired_gone():
        return not any(same_url(url, P["retired"]["url"]) for _, _, url in all_bookmarks(bookmark_roots()))


def demonstrate(P, screen):
    """The Bookmark manager: Organize > Add new folder, then cut the two bookmarks (a click and a
    ctrl+click select both), open the new folder and paste, back on the bar delete the retired one; then close the browser."""
    yield from open_page(screen, "chrome://bookmarks", "Bookmarks")
    yield [click(screen.find(named("tree-item", "Bookmarks bar"), what="the Bookmarks bar folder"))]
    screen.find(named("table-row", P["retired"]["title"]), what="the bar's bookmarks")
    yield [click(screen.find(named("push-button", "Organize"), what="the Organize menu"))]
    yield [click(screen.find(named("menu-item", "Add new folder"), what="Add new folder"))]
    name = screen.find(named("entry", "Name"), what="the new folder's name")
    yield [click(name), {"action": "type", "text": P["folder"]}]
    yield [click(screen.find(named("push-button", "Save"), what="the Save button"))]
    folder = screen.find(named("table-row", P["folder"]), what="the new folder in the list")
    first, second = (screen.find(named("table-row", s["title"]), what=s["title"]) for s in P["moved"])
    yield [click(first), {"action": "left_click", "coordinate": list(second.center), "text": "ctrl"}]
    yield [{"action": "key", "keys": ["ctrl", "x"]}]
    screen.wait_until(
        lambda: not screen.elements(named("table-row", P["moved"][0]["title"])),
        what="the bookmarks to be cut",
    )
    folder = screen.find(named("table-row", P["folder"]), what="the new folder in the list")
    yield [{"action": "double_click", "coordinate": list(folder.center)}]
    screen.wait_until(
        lambda: not screen.elements(named("table-row", P["retired"]["title"])), what="the folder to open"
    )
    yield [{"action": "key", "keys": ["ctrl", "v"]}]
    for site in P["moved"]:
        screen.find(named("table-row", site["title"]), what=f"{site['title']} in the folder")
    yield [click(screen.find(named("tree-item", "Bookmarks bar"), what="the Bookmarks bar folder"))]
    retired = screen.find(named("table-row", P["retired"]["title"]), what="the retired bookmark")
    yield [click(retired), {"action": "key", "keys": ["Delete"]}]
    screen.wait_until(
        lambda: not screen.elements(named("table-row", P["retired"]["title"])),
        what="the retired bookmark to go",
    )
    yield from quit_browser(screen)
