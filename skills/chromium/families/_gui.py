"""Host-side steps the Chromium GUI teachers share (`demonstrate` in this folder's families).

The catalogue skips this module (leading underscore) and nothing here is shipped to a guest.
Chromium runs in a window of its own with accessibility on: its settings pages (chrome://settings/…)
are web UI whose controls the accessibility tree exports with screen coordinates — radio buttons
and links named by their label, entries by their label ("Site URL"), the rows' menus as push-buttons
named "More actions for <item>", menus as menu-items. The window's title is "<page title> - Chromium".
"""

from infra.errors import ConfigError
from skills.kit.teach import chromium_on_top, click, named, switch_to_chromium  # noqa: F401 - families import them here


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
                timeout_s=15,
                what=f"the page {title!r}",
            )
            return
        except ConfigError:
            if attempt == tries:
                raise


def scrolled_to(screen, match, *, what, at=(960, 700), tries=8):
    """The node `match` accepts, scrolling the page under `at` (a point) down until it shows: the
    accessibility tree holds only what is on the screen."""
    for _ in range(tries):
        found = screen.elements(match)
        if found:
            return found[0]
        yield [{"action": "scroll", "coordinate": list(at), "pixels": -5}]  # negative: wheel steps down
    return screen.find(match, what=what, timeout_s=5)


def choose(screen, combo, option):
    """Pick `option` of the settings page's drop-down `combo` (a <select>): click it, click the option
    in the list it opens, and wait for the drop-down to show it. The list's options are menu-items
    named with spaces around the text; the drop-down's own shown value is a thin menu-item on it."""
    box = yield from scrolled_to(screen, named("combo-box", combo), what=f"the {combo!r} drop-down")
    yield [click(box)]

    def listed(e):
        return (
            e.role == "menu-item" and e.name.strip() == option and e.h > box.h // 2 and abs(e.y - box.y) < 400
        )

    yield [click(screen.find(listed, what=f"{option!r} in the {combo!r} list"))]
    screen.wait_until(
        lambda: any(
            e.role == "menu-item" and e.name.strip() == option and e.y == box.y for e in screen.elements()
        ),
        timeout_s=10,
        what=f"the {combo!r} drop-down to show {option!r}",
    )


def quit_browser(screen):
    """Close Chromium's window (ctrl+shift+w): its last window closed, the browser saves what it holds
    and exits. A teacher whose last change went to Bookmarks or Web Data ends this way: Chromium saves
    those seconds after a change (bookmarks 2.5 s, search engines within 8 s), and a browser the
    desktop asks to quit (SIGTERM) before grading drops a save still pending."""
    yield [{"action": "key", "keys": ["ctrl", "shift", "w"]}]
    screen.wait_until(lambda: not screen.has_window(" - Chromium"), timeout_s=20, what="Chromium to close")
    yield [{"action": "wait", "time": 2.0}]  # the process writes its files after its window is gone
