"""Guest helpers of the Chromium families: the profile files a task's setup writes before the browser
starts and its reward reads after the browser has exited (the desktop's postconfig asks Chromium to
quit, and Chromium writes what it holds in memory on its way out).

The profile is Debian's: ~/.config/chromium, its one profile in Default/.
- Preferences (JSON): settings. Dotted paths name them ("session.restore_on_startup"). A file a
  setup writes needs only the keys it sets: Chromium adds its defaults on first start.
- Bookmarks (JSON): `roots` bookmark_bar / other / synced, each a folder node
  {type: "folder", name, children}; a bookmark is {type: "url", name, url}. Chromium adds ids, guids
  and dates, and a checksum it does not insist on.
- Web Data (SQLite): table `keywords` (short_name, keyword, url) holds the search engines and site
  searches; the default one is Preferences' default_search_provider_data.template_url_data when the
  user picked one (absent: the distribution's default, DuckDuckGo in Debian).

Every function is self-contained (imports inside the body): render_script pastes its source.
"""

from __future__ import annotations

from skills.kit.guest import HOME


def chromium_profile():
    """The Default profile folder of the guest's Chromium."""
    return HOME / ".config" / "chromium" / "Default"


def read_preferences():
    """The profile's Preferences as a dict (FileNotFoundError before Chromium or a setup wrote it)."""
    import json

    return json.loads((chromium_profile() / "Preferences").read_text(encoding="utf-8"))


def pref(prefs, dotted, default=None):
    """The value at a dotted path of Preferences (`default` when a part is missing)."""
    node = prefs
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def write_preferences(values):
    """Merge `values` (a nested dict) into the profile's Preferences, creating the file and folders:
    what a setup does before the browser's first start (Chromium fills in the rest)."""
    import json

    folder = chromium_profile()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "Preferences"
    prefs = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def merge(into, update):
        for key, value in update.items():
            if isinstance(value, dict) and isinstance(into.get(key), dict):
                merge(into[key], value)
            else:
                into[key] = value

    merge(prefs, values)
    path.write_text(json.dumps(prefs, indent=2), encoding="utf-8")


def bookmark_roots():
    """The Bookmarks file's roots: {"bookmark_bar": folder, "other": folder, "synced": folder}."""
    import json

    return json.loads((chromium_profile() / "Bookmarks").read_text(encoding="utf-8"))["roots"]


def write_bookmarks(bar, other=()):
    """Write the Bookmarks file with these nodes on the bookmarks bar and under Other bookmarks. A
    node is {"name", "url"} (a bookmark) or {"name", "children": [nodes]} (a folder)."""
    import json

    def node(item):
        if "children" in item:
            return {"type": "folder", "name": item["name"], "children": [node(c) for c in item["children"]]}
        return {"type": "url", "name": item["name"], "url": item["url"]}

    def folder(name, items):
        return {"type": "folder", "name": name, "children": [node(i) for i in items]}

    roots = {
        "bookmark_bar": folder("Bookmarks bar", bar),
        "other": folder("Other bookmarks", other),
        "synced": folder("Mobile bookmarks", ()),
    }
    target = chromium_profile()
    target.mkdir(parents=True, exist_ok=True)
    (target / "Bookmarks").write_text(json.dumps({"roots": roots, "version": 1}, indent=2), encoding="utf-8")


def bookmark_children(folder):
    """The direct children of a bookmark folder node, as (kind, name, url or None, node)."""
    return [
        (child.get("type"), child.get("name"), child.get("url"), child)
        for child in folder.get("children", [])
    ]


def search_engines():
    """Every row of Web Data's keywords table as {"short_name", "keyword", "url"} (FileNotFoundError
    before Chromium first ran). Opened read-only: the reward never changes the state it grades."""
    import sqlite3

    path = chromium_profile() / "Web Data"
    if not path.exists():
        raise FileNotFoundError(str(path))
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT short_name, keyword, url FROM keywords").fetchall()
    finally:
        con.close()
    return [{"short_name": s, "keyword": k, "url": u} for s, k, u in rows]


def default_search_engine(prefs):
    """The default search engine's {"short_name", "keyword"} as the user chose it in Preferences, or
    None while the distribution's default is in force."""
    data = pref(prefs, "default_search_provider_data.template_url_data")
    if not isinstance(data, dict):
        return None
    return {"short_name": data.get("short_name"), "keyword": data.get("keyword")}


def site_setting(prefs, kind, site):
    """The setting of one content-settings exception: 1 allow, 2 block (None: no exception). `kind`:
    notifications, geolocation, media_stream_camera, media_stream_mic, popups, cookies, ...; `site`:
    an origin like https://news.example.com — Chromium keys it "https://news.example.com:443,*"."""
    exceptions = pref(prefs, f"profile.content_settings.exceptions.{kind}", {}) or {}
    origin = site.rstrip("/")
    port = ":443" if origin.startswith("https://") and origin.count(":") == 1 else ""
    for key in (f"{origin}{port},*", f"[*.]{origin.split('://', 1)[-1]},*", f"{origin},*"):
        entry = exceptions.get(key)
        if isinstance(entry, dict) and "setting" in entry:
            return entry["setting"]
    return None
