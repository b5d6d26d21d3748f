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
    """The setting of the content-settings exception that applies to one site: 1 allow, 2 block (None:
    no exception). `kind`: notifications, geolocation, media_stream_camera, media_stream_mic, popups,
    cookies, ...; `site`: an origin like https://news.example.com. Chromium keys an exception by a
    pattern and the pattern follows how it was made: "https://news.example.com:443,*" (a site's own
    page, Site settings), "https://news.example.com,*" (typed with its scheme into an Add dialog),
    "news.example.com,*" (typed without one), "[*.]example.com,*" (a domain with its subdomains).
    When several apply, the most specific wins, as in Chromium."""
    exceptions = pref(prefs, f"profile.content_settings.exceptions.{kind}", {}) or {}
    scheme, _, rest = site.rstrip("/").partition("://")
    host, _, port = rest.lower().partition(":")
    port = port or {"https": "443", "http": "80"}.get(scheme, "")
    found = []
    for key, entry in exceptions.items():
        primary, _, secondary = key.partition(",")
        if secondary not in ("", "*") or not isinstance(entry, dict) or "setting" not in entry:
            continue
        their_scheme, sep, their_rest = primary.partition("://")
        if not sep:
            their_scheme, their_rest = "", primary
        their_host, _, their_port = their_rest.lower().partition(":")
        wildcard = their_host.startswith("[*.]")
        their_host = their_host.removeprefix("[*.]")
        if their_scheme not in ("", scheme) or their_port not in ("", port):
            continue
        if their_host == host or (wildcard and host.endswith("." + their_host)):
            rank = (not wildcard, len(their_host), bool(their_scheme), bool(their_port))
            found.append((rank, entry["setting"]))
    return max(found)[1] if found else None


def all_bookmarks(roots):
    """Every bookmark under the roots as (folder path, name, url): the path names the root's key and
    the folders below it, ("bookmark_bar", "Daily") for a bookmark in the bar's folder Daily."""
    found = []

    def walk(folder, path):
        for child in folder.get("children", []):
            if child.get("type") == "folder":
                walk(child, (*path, child.get("name")))
            else:
                found.append((path, child.get("name"), child.get("url")))

    for key, root in roots.items():
        if isinstance(root, dict):
            walk(root, (key,))
    return found


def bookmark_folder(folder, name):
    """The first folder directly in `folder` named `name`, or None."""
    return next(
        (c for c in folder.get("children", []) if c.get("type") == "folder" and c.get("name") == name), None
    )


def same_url(a, b):
    """URLs as Chromium shows them: a bare host gains a trailing /, and a host's case is free."""
    return str(a or "").rstrip("/").lower() == str(b or "").rstrip("/").lower()


def write_search_engines(engines):
    """Create the profile's Web Data holding these site searches ({"short_name", "keyword", "url"},
    the query as %s or {searchTerms}; a setup gives each a fixed "guid" and "date" too, so that every
    run of it writes the same file) the way Chromium 156 keeps them: its schema version (158) in
    table meta and its keywords table. Chromium adds its other tables and its prepopulated search
    engines (Google, Bing, DuckDuckGo, ...) when it first opens the file."""
    import sqlite3

    folder = chromium_profile()
    folder.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(folder / "Web Data")
    try:
        with con:
            con.execute("CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR)")
            con.executemany(
                "INSERT INTO meta VALUES (?, ?)", [("version", "158"), ("last_compatible_version", "158")]
            )
            con.execute(
                "CREATE TABLE keywords (id INTEGER PRIMARY KEY,short_name VARCHAR NOT NULL,keyword VARCHAR NOT NULL,"
                "favicon_url VARCHAR NOT NULL,url VARCHAR NOT NULL,safe_for_autoreplace INTEGER,originating_url "
                "VARCHAR,date_created INTEGER DEFAULT 0,usage_count INTEGER DEFAULT 0,input_encodings VARCHAR,"
                "suggest_url VARCHAR,prepopulate_id INTEGER DEFAULT 0,created_by_policy INTEGER DEFAULT 0,"
                "last_modified INTEGER DEFAULT 0,sync_guid VARCHAR,alternate_urls VARCHAR,image_url VARCHAR,"
                "search_url_post_params VARCHAR,suggest_url_post_params VARCHAR,image_url_post_params VARCHAR,"
                "new_tab_url VARCHAR,last_visited INTEGER DEFAULT 0, created_from_play_api INTEGER DEFAULT 0, "
                "is_active INTEGER DEFAULT 0, starter_pack_id INTEGER DEFAULT 0, enforced_by_policy INTEGER "
                "DEFAULT 0, featured_by_policy INTEGER DEFAULT 0, url_hash BLOB)"
            )
    finally:
        con.close()
    for engine in engines:
        add_site_search(
            engine["short_name"],
            engine["keyword"],
            engine["url"],
            guid=engine.get("guid"),
            date=engine.get("date"),
        )


def add_site_search(short_name, keyword, url, *, guid=None, date=None):
    """Add a site search to Web Data's keywords table as Chromium's Add site search dialog does: the
    URL's %s stored as {searchTerms}, user-made (not replaceable), active, a sync guid (fresh unless
    given), its dates in Chromium's clock (microseconds since 1601-01-01; now unless given)."""
    import sqlite3
    import time
    import uuid

    now = date or int((time.time() + 11644473600) * 1_000_000)
    con = sqlite3.connect(chromium_profile() / "Web Data")
    try:
        with con:
            con.execute(
                "INSERT INTO keywords (short_name, keyword, favicon_url, url, safe_for_autoreplace, originating_url,"
                " date_created, usage_count, input_encodings, suggest_url, prepopulate_id, created_by_policy,"
                " last_modified, sync_guid, alternate_urls, image_url, search_url_post_params,"
                " suggest_url_post_params, image_url_post_params, new_tab_url, is_active)"
                " VALUES (?, ?, '', ?, 0, '', ?, 0, '', '', 0, 0, ?, ?, '[]', '', '', '', '', '', 1)",
                (
                    short_name,
                    keyword,
                    url.replace("%s", "{searchTerms}"),
                    now,
                    now,
                    guid or str(uuid.uuid4()),
                ),
            )
    finally:
        con.close()
