"""Host-side steps the Chromium GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
Chromium runs in a window of its own with accessibility on: its settings pages (chrome://settings/…)
are web UI whose controls the accessibility tree exports with screen coordinates — radio buttons
and links named by their label, entries by their label ("Site URL"), the rows' menus as push-buttons
named "More actions for <item>", menus as menu-items. The window's title is "<page title> - Chromium".
"""

from infra.errors import ConfigError


def open_settings(screen, page, title):
    """Type chrome://settings/<page> into the address bar and wait for its title ("Settings - <title>")."""
    yield from open_page(screen, f"chrome://settings/{page}", f"Settings - {title}")


def open_page(screen, url, title, *, tries=3):
    """Type `url` into the address bar and wait for a window title starting with `title`. A browser
    just started may not have given the address bar the keys yet (or its suggestions took the Enter):
    a person looks and types it again, up to `tries` times."""
    screen.wait_until(lambda: screen.has_window(" - Chromium"), what="the browser")
    for attempt in range(1, tries + 1):
        yield [{"action": "key", "keys": ["ctrl", "l"]}, {"action": "type", "text": url + "\n"}]
        try:
            screen.wait_until(
                lambda: any(t.startswith(title) for t in screen.windows()),
                timeout_s=8,
                what=f"the page {title!r}",
            )
            return
        except ConfigError:
            if attempt == tries:
                raise
